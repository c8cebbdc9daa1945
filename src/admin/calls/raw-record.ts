/**
 * A record (one NDJSON line, one array element) longer than this is rejected, not held in memory. A
 * version-2 record's path may hold 1,000 form items of four texts each: 4 MiB keeps such a record whole.
 */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;

/** One record of a call-import body before it is parsed: its bytes, or why they could not be read. */
export type RawRecord =
  | { readonly line: number; readonly bytes: Buffer }
  | { readonly line: number; readonly problem: string };

export type RecordHandler = (record: RawRecord) => void;

/** Cuts a request body into records as its chunks arrive. */
export interface RecordSplitter {
  push(chunk: Buffer, take: RecordHandler): void;
  /** The body ended: completes the last record, or reports one left unfinished. */
  end(take: RecordHandler): void;
}

export const tooLarge = (maxRecordBytes: number): string => `record is larger than ${maxRecordBytes} bytes`;
