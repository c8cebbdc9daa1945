import { CSV_FIELDS, REQUIRED_FIELDS } from '../../domain/call-record';
import { CliError } from '../cli-error';

type CsvField = (typeof CSV_FIELDS)[number];

const REQUIRED: ReadonlySet<string> = new Set(REQUIRED_FIELDS);
const OPTIONAL = CSV_FIELDS.filter((field) => !REQUIRED.has(field));
/** Text even when they look like numbers: the leading `+` or zeros of a phone number are part of it. */
const TEXT_FIELDS: ReadonlySet<CsvField> = new Set(['call_id', 'phone', 'started_at', 'caller']);
const NUMBER = /^-?\d+(\.\d+)?$/;

const isCsvField = (name: string): name is CsvField => (CSV_FIELDS as readonly string[]).includes(name);

function headerProblems(names: readonly string[]): string[] {
  const unknown = [...new Set(names.filter((name) => !isCsvField(name) && name !== 'path'))];
  const missing = REQUIRED_FIELDS.filter((field) => !names.includes(field));
  const repeated = CSV_FIELDS.filter((field) => names.indexOf(field) !== names.lastIndexOf(field));
  return [
    unknown.length > 0 ? `unknown ${unknown.map((name) => JSON.stringify(name)).join(', ')}` : '',
    names.includes('path') ? 'path is not a CSV column: a call path travels only in NDJSON or JSON' : '',
    missing.length > 0 ? `missing ${missing.join(', ')}` : '',
    repeated.length > 0 ? `repeated ${repeated.join(', ')}` : '',
  ].filter(Boolean);
}

/** The text of a numeric column as a JSON number when it is one; else as given, for the server to refuse by name. */
function numberOrText(cell: string): number | string {
  const text = cell.trim();
  const number = Number(text);
  // Digits past what a double holds would become Infinity, which JSON writes as null.
  return NUMBER.test(text) && Number.isFinite(number) ? number : cell;
}

/** The call-record field of each column of a CSV file, named by its header row in any order. */
export class CsvColumns {
  private constructor(private readonly fields: readonly CsvField[]) {}

  /** Throws a CliError naming every problem of the header at once. */
  static fromHeader(cells: readonly string[]): CsvColumns {
    const names = cells.map((name) => name.trim());
    const problems = headerProblems(names);
    if (problems.length > 0) {
      throw new CliError(
        `CSV header must name the columns ${REQUIRED_FIELDS.join(', ')}, and may name ${OPTIONAL.join(', ')}, ` +
          `each once: ${problems.join('; ')}`,
      );
    }
    return new CsvColumns(names.filter(isCsvField));
  }

  /**
   * One row as a call record in wire form (JSON text). An empty cell of an optional column leaves its
   * field out; a required one is sent empty, so that the server refuses it by name.
   */
  toJson(cells: readonly string[]): string | { problem: string } {
    if (cells.length !== this.fields.length) {
      return { problem: `${cells.length} ${cells.length === 1 ? 'field' : 'fields'} where the header has ${this.fields.length}` };
    }
    const record: Partial<Record<CsvField, string | number>> = {};
    this.fields.forEach((field, column) => {
      const cell = cells[column] ?? '';
      if (cell === '' && !REQUIRED.has(field)) return;
      record[field] = TEXT_FIELDS.has(field) ? cell : numberOrText(cell);
    });
    return JSON.stringify(record);
  }
}
