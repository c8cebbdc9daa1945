import path from 'node:path';
import { CliError } from '../cli-error';
import type { RecordReader } from './file-record';

export type FileFormat = 'ndjson' | 'csv';

const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);
const BLANKS: ReadonlySet<number> = new Set([0x20, 0x09, 0x0d, 0x0a]);
const OPENING_BRACE = 0x7b;
const OPENING_BRACKET = 0x5b;
/** How much blank start is held while the first character is awaited: a bound on memory, not a format rule. */
const MAX_BLANK_START_BYTES = 1 << 20;

export function formatByExtension(file: string): FileFormat | undefined {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.ndjson' || extension === '.jsonl') return 'ndjson';
  if (extension === '.csv') return 'csv';
  return undefined;
}

/** NDJSON when the first character other than blanks is `{`, CSV otherwise; undefined while all is blank. */
function formatByFirstCharacter(start: Buffer): FileFormat | undefined {
  const text = start.subarray(0, BYTE_ORDER_MARK.length).equals(BYTE_ORDER_MARK) ? start.subarray(BYTE_ORDER_MARK.length) : start;
  const first = text.find((byte) => !BLANKS.has(byte));
  if (first === OPENING_BRACKET) {
    throw new CliError('the file looks like a JSON array; import takes NDJSON (one record per line) or CSV');
  }
  if (first === undefined) return undefined;
  return first === OPENING_BRACE ? 'ndjson' : 'csv';
}

/**
 * The reader of a file without a telling extension: the chunks are held until the first character other
 * than blanks tells the format, then handed to that format's reader.
 */
export class ReaderByContent implements RecordReader {
  private reader: RecordReader | undefined;
  private start = Buffer.alloc(0);

  constructor(private readonly open: (format: FileFormat) => RecordReader) {}

  async push(chunk: Buffer): Promise<void> {
    if (this.reader !== undefined) return this.reader.push(chunk);
    this.start = Buffer.concat([this.start, chunk]);
    const format = formatByFirstCharacter(this.start);
    if (format === undefined) {
      if (this.start.length > MAX_BLANK_START_BYTES) {
        throw new CliError(`cannot tell NDJSON from CSV: the first ${MAX_BLANK_START_BYTES} bytes are blank; name the file .ndjson or .csv`);
      }
      return;
    }
    this.reader = this.open(format);
    const start = this.start;
    this.start = Buffer.alloc(0);
    await this.reader.push(start);
  }

  /** A file that is blank to its end has no record in either format. */
  async end(): Promise<void> {
    await this.reader?.end();
  }
}
