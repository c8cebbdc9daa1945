import { callRecordSchema } from '../../domain/call-record';
import { CliError } from '../cli-error';

const QUOTE = '"';

/**
 * One line of CSV (RFC 4180): fields separated by commas, a field in double quotes may hold commas and
 * doubled quotes. A record is one line, as call records have no field that needs a line break.
 * Returns the fields, or a problem for a quote left open.
 */
export function splitCsvLine(line: string): string[] | { problem: string } {
  const fields: string[] = [];
  let index = 0;
  for (;;) {
    if (line[index] === QUOTE) {
      let value = '';
      let position = index + 1;
      for (;;) {
        const close = line.indexOf(QUOTE, position);
        if (close === -1) return { problem: 'a quoted field is not closed' };
        value += line.slice(position, close);
        if (line[close + 1] === QUOTE) {
          value += QUOTE;
          position = close + 2;
          continue;
        }
        index = close + 1;
        break;
      }
      if (index < line.length && line[index] !== ',') return { problem: `unexpected text after a quoted field at column ${index + 1}` };
      fields.push(value);
    } else {
      const comma = line.indexOf(',', index);
      fields.push(line.slice(index, comma === -1 ? line.length : comma));
      index = comma === -1 ? line.length : comma;
    }
    if (index >= line.length) return fields;
    index += 1;
  }
}

const RECORD_FIELDS: readonly string[] = Object.keys(callRecordSchema.in.shape);
const COUNT_FIELDS = new Set(['log_events', 'loops', 'form_items']);
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Turns CSV rows into call records in wire form (JSON text), by the header's field names. Counts that
 * look like numbers become numbers; anything else is passed on as text for the server to refuse with a
 * message naming the field.
 */
export class CsvRecords {
  private readonly header: readonly string[];

  constructor(headerLine: string) {
    const header = splitCsvLine(headerLine);
    if (!Array.isArray(header)) throw new CliError(`CSV header: ${header.problem}`);
    this.header = header.map((name) => name.trim());
    const unknown = this.header.filter((name) => !RECORD_FIELDS.includes(name));
    const missing = RECORD_FIELDS.filter((name) => !this.header.includes(name));
    const repeated = this.header.filter((name, position) => this.header.indexOf(name) !== position);
    if (unknown.length > 0 || missing.length > 0 || repeated.length > 0) {
      const problems = [
        unknown.length > 0 ? `unknown ${unknown.join(', ')}` : '',
        missing.length > 0 ? `missing ${missing.join(', ')}` : '',
        repeated.length > 0 ? `repeated ${repeated.join(', ')}` : '',
      ].filter(Boolean);
      throw new CliError(`CSV header must name the fields ${RECORD_FIELDS.join(', ')} once each: ${problems.join('; ')}`);
    }
  }

  toJson(line: string): string | { problem: string } {
    const fields = splitCsvLine(line);
    if (!Array.isArray(fields)) return fields;
    if (fields.length !== this.header.length) {
      return { problem: `${fields.length} fields where the header has ${this.header.length}` };
    }
    const record: Record<string, string | number> = {};
    this.header.forEach((name, column) => {
      const value = fields[column] ?? '';
      record[name] = COUNT_FIELDS.has(name) && NUMBER.test(value.trim()) ? Number(value) : value;
    });
    return JSON.stringify(record);
  }
}
