import { NdjsonRecords } from '../../admin/calls/ndjson-records';
import { MAX_RECORD_BYTES, type RecordHandler } from '../../admin/calls/raw-record';
import type { FileRecordHandler, RecordReader } from './file-record';

/**
 * NDJSON, cut into records by the admin API's own splitter (blank lines skipped, a record over
 * MAX_RECORD_BYTES refused with its line): each record is sent as read, for the server to parse.
 */
export function ndjsonFileRecords(take: FileRecordHandler): RecordReader {
  const records = new NdjsonRecords(MAX_RECORD_BYTES);
  const asFileRecord: RecordHandler = (record) =>
    take('bytes' in record ? { line: record.line, json: record.bytes } : { line: record.line, error: record.problem });
  return {
    push: (chunk) => records.push(chunk, asFileRecord),
    end: () => records.end(asFileRecord),
  };
}
