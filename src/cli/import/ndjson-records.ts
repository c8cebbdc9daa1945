import { MAX_RECORD_BYTES, tooLarge } from '../../admin/calls/raw-record';
import { isBlankLine, LineSplitter } from '../../streams/line-splitter';
import type { FileRecordHandler, RecordReader } from './file-record';

/** NDJSON: each line that is not blank is one record, sent as read for the server to parse. */
export class NdjsonRecords implements RecordReader {
  private readonly lines = new LineSplitter(MAX_RECORD_BYTES);

  constructor(private readonly take: FileRecordHandler) {}

  push(chunk: Buffer): void {
    this.lines.push(chunk, this.onLine);
  }

  end(): void {
    this.lines.end(this.onLine);
  }

  private readonly onLine = (line: number, bytes: Buffer | undefined): void => {
    if (bytes === undefined) this.take({ line, error: tooLarge(MAX_RECORD_BYTES) });
    else if (!isBlankLine(bytes)) this.take({ line, json: bytes });
  };
}
