import { parse, type CsvError, type CsvErrorCode, type Parser } from 'csv-parse';
import { MAX_RECORD_BYTES, tooLarge } from '../../admin/calls/raw-record';
import { CliError } from '../cli-error';
import { CrlfToLf } from './crlf-to-lf';
import { CsvColumns } from './csv-columns';
import type { FileRecordHandler, RecordReader } from './file-record';

/** What csv-parse hands `on_record` under `raw: true`; its types describe the row without that option. */
interface RowWithText {
  readonly record: string[];
  readonly raw: string;
}

const TEXT_AFTER_CLOSING_QUOTE = 'text after the closing quote of a field (a quote inside a quoted field is written twice)';

/** The quoting mistakes after which csv-parse skips the record and reads on, said so that they can be mended. */
const SKIPPED_BECAUSE: Partial<Record<CsvErrorCode, string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is not closed, so the record runs on to the end of the file',
  CSV_INVALID_CLOSING_QUOTE: `${TEXT_AFTER_CLOSING_QUOTE}, so the record runs on to the next closing quote`,
  INVALID_OPENING_QUOTE: 'a quote inside a field that does not start with one (quote the whole field and write the quote twice)',
};

/**
 * The mistakes after which csv-parse cannot read on: past them it drops the rest of the chunk it was
 * reading (or, for the size, every chunk after), so skipping the record would lose others unseen.
 */
const STOPPED_BECAUSE: Partial<Record<CsvErrorCode, string>> = {
  CSV_MAX_RECORD_SIZE: `a CSV record larger than ${MAX_RECORD_BYTES} bytes starts here (is a quote left open?)`,
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: `CSV: ${TEXT_AFTER_CLOSING_QUOTE}`,
};

/**
 * The line a record starts on. csv-parse's `lines` is the line of the character being read, for a record
 * just read (or skipped) its last one; the record's text ends with that character, and every line break
 * before it in the text was counted on the way. After CrlfToLf each LF or CR is one line break.
 */
function startLine(lines: number, text: string): number {
  return lines - (text.slice(0, -1).match(/[\n\r]/g)?.length ?? 0);
}

/**
 * CSV (RFC 4180, by csv-parse) to call records as chunks arrive, with the line each record starts on.
 * The first row that is not blank is the header; a row that does not fit it, or whose quoting is broken,
 * is rejected with its line and the next one is read.
 */
export class CsvRecords implements RecordReader {
  private readonly lineBreaks = new CrlfToLf();
  private readonly parser: Parser;
  private columns: CsvColumns | undefined;
  /** csv-parse can skip one record more than once (a closing quote and the next); it is rejected once. */
  private lastSkippedLine = 0;

  constructor(private readonly take: FileRecordHandler) {
    this.parser = parse({
      bom: true,
      // CrlfToLf leaves LF, and CR alone as old Mac files end their lines; a file may mix them.
      record_delimiter: ['\n', '\r'],
      // Blanks around unquoted values and around quotes go; blanks inside quotes stay.
      trim: true,
      // Rows are held to the header here, not to csv-parse's first row, which may be a blank line: blank
      // lines come as rows of one empty field (skip_empty_lines would keep them in the next row's text).
      relax_column_count: true,
      skip_records_with_error: true,
      raw: true,
      // Bounds the memory a quote left open can take in a large file.
      max_record_size: MAX_RECORD_BYTES,
      on_record: (row, context) => {
        this.onRow(row as unknown as RowWithText, context.lines);
        return null;
      },
      on_skip: (error, raw) => this.onSkip(error, raw ?? ''),
    });
    // A failure reaches the write or end callback; this listener keeps its 'error' event from throwing.
    this.parser.on('error', () => {});
  }

  push(chunk: Buffer): Promise<void> {
    return this.write(this.lineBreaks.push(chunk));
  }

  async end(): Promise<void> {
    await this.write(this.lineBreaks.end());
    await new Promise<void>((resolve, reject) => {
      this.parser.end((error?: Error | null) => (error ? reject(error) : resolve()));
    });
  }

  /** Settles once the parser has read the bytes, so after it handed on every record they completed. */
  private write(bytes: Buffer): Promise<void> {
    if (bytes.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.parser.write(bytes, (error) => (error ? reject(error) : resolve()));
    });
  }

  private onRow({ record: cells, raw }: RowWithText, lines: number): void {
    if (cells.length === 1 && cells[0] === '') return;
    if (this.columns === undefined) {
      this.columns = CsvColumns.fromHeader(cells);
      return;
    }
    const line = startLine(lines, raw);
    const record = this.columns.toJson(cells);
    if (typeof record !== 'string') {
      this.take({ line, error: `CSV: ${record.problem}` });
      return;
    }
    const json = Buffer.from(record);
    this.take(json.length > MAX_RECORD_BYTES ? { line, error: tooLarge(MAX_RECORD_BYTES) } : { line, json });
  }

  private onSkip(error: CsvError | undefined, raw: string): undefined {
    const line = startLine(this.parser.info.lines, raw);
    const stopped = error && STOPPED_BECAUSE[error.code];
    if (stopped) throw new CliError(`line ${line}: ${stopped}; nothing after it was read`);
    const reason = (error && SKIPPED_BECAUSE[error.code]) ?? error?.message ?? 'unreadable';
    if (this.columns === undefined) throw new CliError(`CSV header, line ${line}: ${reason}`);
    if (line === this.lastSkippedLine) return undefined;
    this.lastSkippedLine = line;
    this.take({ line, error: `CSV: ${reason}` });
    return undefined;
  }
}
