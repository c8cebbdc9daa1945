import { errors } from '../../errors/catalogue';
import { BoundedBytes } from '../../streams/bounded-bytes';
import { tooLarge, type RecordHandler, type RecordSplitter } from './raw-record';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

type Position = 'before-array' | 'in-array' | 'after-array' | 'broken';

/**
 * A JSON array of records, cut into its elements as the bytes arrive; each element is then parsed on
 * its own with JSON.parse. Streaming token parsers are several times slower than JSON.parse, and here
 * a malformed element costs only that element. Only strings and nesting are tracked, to find the
 * commas between elements; records are numbered by their position in the array (1-based).
 */
export class JsonArrayRecords implements RecordSplitter {
  private position: Position = 'before-array';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private readonly element: BoundedBytes;
  private hasContent = false;
  private afterComma = false;
  private count = 0;

  constructor(private readonly maxRecordBytes: number) {
    this.element = new BoundedBytes(maxRecordBytes);
  }

  push(chunk: Buffer, take: RecordHandler): void {
    let elementStart = 0;
    for (let index = 0; index < chunk.length; index += 1) {
      const byte = chunk[index] as number;
      if (this.position === 'in-array') {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (byte === BACKSLASH) this.escaped = true;
          else if (byte === QUOTE) this.inString = false;
          continue;
        }
        if (this.depth === 0 && (byte === COMMA || byte === CLOSE_BRACKET)) {
          this.element.append(chunk.subarray(elementStart, index));
          elementStart = index + 1;
          if (byte === COMMA) this.finishElement(take, true);
          else this.closeArray(take);
          continue;
        }
        if (byte === QUOTE) this.inString = true;
        else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.depth += 1;
        else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) this.depth -= 1;
        if (this.depth < 0) this.breakOff(take, 'unbalanced } in the array');
        else if (!isWhitespace(byte)) this.hasContent = true;
      } else if (this.position === 'before-array') {
        if (byte === OPEN_BRACKET) {
          this.position = 'in-array';
          elementStart = index + 1;
        } else if (!isWhitespace(byte)) {
          throw errors.invalidBody('an application/json body must be a JSON array of call records');
        }
      } else if (this.position === 'after-array') {
        if (!isWhitespace(byte)) this.breakOff(take, 'unexpected text after the closing ] of the array');
      }
    }
    if (this.position === 'in-array') this.element.append(chunk.subarray(elementStart));
  }

  end(take: RecordHandler): void {
    if (this.position === 'before-array') {
      throw errors.invalidBody('an application/json body must be a JSON array of call records');
    }
    if (this.position === 'in-array') this.breakOff(take, 'the body ended before the array was closed with ]');
  }

  private finishElement(take: RecordHandler, followedByComma: boolean): void {
    this.count += 1;
    const line = this.count;
    const bytes = this.element.take();
    if (bytes === undefined) take({ line, problem: tooLarge(this.maxRecordBytes) });
    else if (!this.hasContent) take({ line, problem: 'empty record: a comma with no record before it' });
    else take({ line, bytes });
    this.hasContent = false;
    this.afterComma = followedByComma;
  }

  private closeArray(take: RecordHandler): void {
    if (this.hasContent || this.element.overLimit) this.finishElement(take, false);
    else if (this.afterComma) {
      this.count += 1;
      take({ line: this.count, problem: 'empty record: a comma with no record after it' });
    }
    this.position = 'after-array';
  }

  /** A break in the array's structure: reported once as a record, and the rest of the body is ignored. */
  private breakOff(take: RecordHandler, problem: string): void {
    this.count += 1;
    take({ line: this.count, problem: `${problem}; the rest of the body was ignored` });
    this.position = 'broken';
    this.element.take();
  }
}
