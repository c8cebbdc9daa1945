import type { Rejection } from '../../admin/calls/call-import';

/**
 * One record of the file, with the line of the file it starts on: its wire form as one NDJSON line, or
 * why it was refused before sending.
 */
export type FileRecord = { readonly line: number; readonly json: Buffer } | Rejection;

export type FileRecordHandler = (record: FileRecord) => void;

/** Turns a file's chunks, in order as they are read, into records for the handler it was made with. */
export interface RecordReader {
  /** Done with the chunk: every record it completed has been handed on. */
  push(chunk: Buffer): void | Promise<void>;
  /** The file ended: hands on its last record. */
  end(): void | Promise<void>;
}
