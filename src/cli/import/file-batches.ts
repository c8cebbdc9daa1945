import { createReadStream } from 'node:fs';
import type { Rejection } from '../../admin/calls/call-import';
import { CliError } from '../cli-error';
import { CsvRecords } from './csv-records';
import { formatByExtension, ReaderByContent, type FileFormat } from './file-format';
import type { FileRecord, FileRecordHandler, RecordReader } from './file-record';
import { ndjsonFileRecords } from './ndjson-records';

/** A batch ready for POST /admin/calls. */
export interface Batch {
  /** NDJSON, one record per line. */
  readonly body: Buffer;
  /** The file line of each body line: `fileLines[k - 1]` is where body line k came from. */
  readonly fileLines: readonly number[];
  /** Records refused before sending: too large, or CSV that does not fit its header. */
  readonly rejected: readonly Rejection[];
  /** Bytes of the file read when the batch was cut, for the progress bar. */
  readonly bytesRead: number;
}

const NEWLINE = Buffer.from('\n');
const READ_CHUNK_BYTES = 1 << 20;

/** A batch is also cut at this many bytes, as the server cuts its own: long version-2 paths stay bounded. */
const BATCH_BYTES = 16 * 1024 * 1024;

class BatchBuilder {
  private parts: Buffer[] = [];
  private partBytes = 0;
  private fileLines: number[] = [];
  private rejected: Rejection[] = [];

  get size(): number {
    return this.fileLines.length + this.rejected.length;
  }

  isFull(batchSize: number): boolean {
    return this.size >= batchSize || this.partBytes >= BATCH_BYTES;
  }

  add(record: FileRecord): void {
    if (!('json' in record)) {
      this.rejected.push(record);
      return;
    }
    this.parts.push(record.json, NEWLINE);
    this.partBytes += record.json.length + 1;
    this.fileLines.push(record.line);
  }

  take(bytesRead: number): Batch {
    const batch: Batch = {
      body: Buffer.concat(this.parts, this.partBytes),
      fileLines: this.fileLines,
      rejected: this.rejected,
      bytesRead,
    };
    this.parts = [];
    this.partBytes = 0;
    this.fileLines = [];
    this.rejected = [];
    return batch;
  }
}

function readerOf(format: FileFormat, take: FileRecordHandler): RecordReader {
  return format === 'csv' ? new CsvRecords(take) : ndjsonFileRecords(take);
}

/**
 * Reads an NDJSON or CSV file (format by extension, else by its first character) as batches of NDJSON
 * of `batchSize` records (or 16 MiB), a chunk at a time: memory holds one read chunk, one batch and one record being
 * read, whatever the file's size.
 */
export async function* fileBatches(file: string, batchSize: number): AsyncGenerator<Batch> {
  const builder = new BatchBuilder();
  const ready: Batch[] = [];
  let bytesRead = 0;
  const take = (record: FileRecord) => {
    builder.add(record);
    if (builder.isFull(batchSize)) ready.push(builder.take(bytesRead));
  };
  const format = formatByExtension(file);
  const reader = format === undefined ? new ReaderByContent((found) => readerOf(found, take)) : readerOf(format, take);
  let stop: CliError | undefined;
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: READ_CHUNK_BYTES }) as AsyncIterable<Buffer>) {
      bytesRead += chunk.length;
      await reader.push(chunk);
      yield* ready.splice(0);
    }
    await reader.end();
  } catch (error) {
    stop = error instanceof CliError ? error : new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  // The records read before a stop are still sent, so that the import ends exactly where it says.
  yield* ready.splice(0);
  if (builder.size > 0) yield builder.take(bytesRead);
  if (stop !== undefined) throw stop;
}
