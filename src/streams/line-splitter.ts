import { BoundedBytes } from './bounded-bytes';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Receives each line: its number (1-based, blank lines counted) and its bytes without the line break,
 * or undefined when the line was longer than the limit (its bytes were dropped as they came).
 */
export type LineHandler = (lineNumber: number, bytes: Buffer | undefined) => void;

/** True for a line of only spaces, tabs and carriage returns, which line-based formats skip. */
export function isBlankLine(bytes: Buffer): boolean {
  for (const byte of bytes) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

/**
 * Splits a byte stream into lines as chunks arrive, holding at most one line of at most `maxLineBytes`,
 * so a file or request body of any size goes through in bounded memory. `\n` and `\r\n` both end a line;
 * a UTF-8 byte order mark at the very start is dropped, as editors on Windows write one.
 */
export class LineSplitter {
  /** One byte more than the limit is held, for the \r of a \r\n line break, checked in emit. */
  private readonly line: BoundedBytes;
  private lineNumber = 0;
  /** The first bytes, held until there are enough to tell whether they are a byte order mark. */
  private head: Buffer | undefined = Buffer.alloc(0);

  constructor(private readonly maxLineBytes: number) {
    this.line = new BoundedBytes(maxLineBytes + 1);
  }

  push(chunk: Buffer, take: LineHandler): void {
    const data = this.withoutByteOrderMark(chunk);
    if (data === undefined) return;
    let start = 0;
    let newline = data.indexOf(NEWLINE);
    while (newline !== -1) {
      if (this.line.length === 0 && !this.line.overLimit) {
        this.emitWithin(take, data, start, newline);
      } else {
        this.line.append(data.subarray(start, newline));
        this.emit(take);
      }
      start = newline + 1;
      newline = data.indexOf(NEWLINE, start);
    }
    if (start < data.length) this.line.append(data.subarray(start));
  }

  /** The stream ended: a last line without a line break is still a line. */
  end(take: LineHandler): void {
    if (this.head !== undefined) {
      const rest = this.head;
      this.head = undefined;
      if (rest.length > 0) this.push(rest, take);
    }
    if (this.line.length > 0 || this.line.overLimit) this.emit(take);
  }

  private withoutByteOrderMark(chunk: Buffer): Buffer | undefined {
    if (this.head === undefined) return chunk;
    const head = Buffer.concat([this.head, chunk]);
    if (head.length < BYTE_ORDER_MARK.length && BYTE_ORDER_MARK.subarray(0, head.length).equals(head)) {
      this.head = head;
      return undefined;
    }
    this.head = undefined;
    return head.subarray(0, BYTE_ORDER_MARK.length).equals(BYTE_ORDER_MARK) ? head.subarray(BYTE_ORDER_MARK.length) : head;
  }

  /**
   * A line that lies whole within one chunk, as most do: handed on as one view of the chunk, the same as
   * `emit` would give for it, without gathering it first.
   */
  private emitWithin(take: LineHandler, data: Buffer, start: number, newline: number): void {
    this.lineNumber += 1;
    const end = newline > start && data[newline - 1] === CARRIAGE_RETURN ? newline - 1 : newline;
    take(this.lineNumber, end - start <= this.maxLineBytes ? data.subarray(start, end) : undefined);
  }

  private emit(take: LineHandler): void {
    this.lineNumber += 1;
    const whole = this.line.take();
    const bytes = whole?.at(-1) === CARRIAGE_RETURN ? whole.subarray(0, -1) : whole;
    take(this.lineNumber, bytes !== undefined && bytes.length <= this.maxLineBytes ? bytes : undefined);
  }
}
