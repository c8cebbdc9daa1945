import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Rejection } from '../../admin/calls/call-import';
import { MAX_RECORD_BYTES, tooLarge } from '../../admin/calls/raw-record';
import { isBlankLine, LineSplitter } from '../../streams/line-splitter';
import { CliError } from '../cli-error';
import { CsvRecords } from './csv';

export type FileFormat = 'ndjson' | 'csv';

/** A batch ready for POST /admin/calls. */
export interface Batch {
  /** NDJSON, one record per line. */
  readonly body: Buffer;
  /** The file line of each body line: `fileLines[k - 1]` is where body line k came from. */
  readonly fileLines: readonly number[];
  /** Lines refused before sending: too long, or CSV that does not split. */
  readonly rejected: readonly Rejection[];
  /** Bytes of the file read when the batch was cut, for the progress bar. */
  readonly bytesRead: number;
}

const NEWLINE = Buffer.from('\n');
const READ_CHUNK_BYTES = 1 << 20;

function formatByExtension(file: string): FileFormat | undefined {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.ndjson' || extension === '.jsonl') return 'ndjson';
  if (extension === '.csv') return 'csv';
  return undefined;
}

/** A file without a telling extension is NDJSON when its first record starts with `{`, CSV otherwise. */
function sniffFormat(firstLine: string): FileFormat {
  const start = firstLine.trimStart();
  if (start.startsWith('[')) {
    throw new CliError('the file looks like a JSON array; import takes NDJSON (one record per line) or CSV');
  }
  return start.startsWith('{') ? 'ndjson' : 'csv';
}

class BatchBuilder {
  private parts: Buffer[] = [];
  private partBytes = 0;
  private fileLines: number[] = [];
  private rejected: Rejection[] = [];
  private csv: CsvRecords | undefined;

  constructor(private format: FileFormat | undefined) {}

  get size(): number {
    return this.fileLines.length + this.rejected.length;
  }

  add(line: number, bytes: Buffer | undefined): void {
    if (bytes === undefined) {
      this.rejected.push({ line, error: tooLarge(MAX_RECORD_BYTES) });
      return;
    }
    if (isBlankLine(bytes)) return;
    this.format ??= sniffFormat(bytes.toString('utf8'));
    if (this.format === 'ndjson') {
      this.append(line, bytes);
      return;
    }
    const text = bytes.toString('utf8');
    if (this.csv === undefined) {
      this.csv = new CsvRecords(text);
      return;
    }
    const record = this.csv.toJson(text);
    if (typeof record === 'string') this.append(line, Buffer.from(record));
    else this.rejected.push({ line, error: `CSV: ${record.problem}` });
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

  private append(line: number, record: Buffer): void {
    this.parts.push(record, NEWLINE);
    this.partBytes += record.length + 1;
    this.fileLines.push(line);
  }
}

/**
 * Reads an NDJSON or CSV file (format by extension, else by its first line) as batches of NDJSON of
 * `batchSize` records, a chunk at a time: memory holds one read chunk and one batch, whatever the file's
 * size. Blank lines are skipped; a CSV file's first non-blank line is its header.
 */
export async function* fileBatches(file: string, batchSize: number): AsyncGenerator<Batch> {
  const lines = new LineSplitter(MAX_RECORD_BYTES);
  const builder = new BatchBuilder(formatByExtension(file));
  const ready: Batch[] = [];
  let bytesRead = 0;
  const onLine = (line: number, bytes: Buffer | undefined) => {
    builder.add(line, bytes);
    if (builder.size >= batchSize) ready.push(builder.take(bytesRead));
  };
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: READ_CHUNK_BYTES }) as AsyncIterable<Buffer>) {
      bytesRead += chunk.length;
      lines.push(chunk, onLine);
      yield* ready.splice(0);
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  lines.end(onLine);
  yield* ready.splice(0);
  if (builder.size > 0) yield builder.take(bytesRead);
}
