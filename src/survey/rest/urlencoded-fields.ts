import { PIECED_TEXT_LENGTH, ropeOf } from '../text-pieces';

/** One field of a form, as it arrived: the value's text, and its pieces when it is long (see text-pieces.ts). */
export interface UrlencodedField {
  readonly name: string;
  readonly value: string;
  /** More bytes came than the value may have (`maxValueBytes`); the value holds the first of them. */
  readonly valueTruncated: boolean;
  readonly pieces: readonly string[] | undefined;
}

export interface UrlencodedLimits {
  /** Bytes of a name kept; the rest is dropped, as busboy drops them. */
  readonly maxNameBytes: number;
  /** Bytes of a value kept (after percent-decoding); past it the field is reported truncated. */
  readonly maxValueBytes: number;
}

export class MalformedForm extends Error {
  constructor() {
    super('Malformed urlencoded form');
  }
}

const PLUS = 0x2b;
const PERCENT = 0x25;
const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const SPACE = 0x20;

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The text of a name or a value as its bytes arrive, decoded as UTF-8 a chunk at a time. */
class TextBuilder {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private readonly pieces: string[] = [];
  private length = 0;
  bytes = 0;
  truncated = false;

  constructor(private readonly maxBytes: number) {}

  /** Takes `length` decoded bytes of `out` from `start`, what fits in the bound. */
  add(out: Buffer, start: number, length: number): void {
    const room = this.maxBytes - this.bytes;
    if (length > room) this.truncated = true;
    const taken = Math.min(length, Math.max(0, room));
    this.bytes += length;
    if (taken === 0) return;
    const piece = this.decoder.decode(out.subarray(start, start + taken), { stream: true });
    if (piece === '') return;
    this.pieces.push(piece);
    this.length += piece.length;
  }

  finish(): { text: string; pieces: readonly string[] | undefined } {
    const rest = this.decoder.decode();
    if (rest !== '') {
      this.pieces.push(rest);
      this.length += rest.length;
    }
    if (this.length > PIECED_TEXT_LENGTH) return { text: ropeOf(this.pieces), pieces: this.pieces };
    return { text: this.pieces.join(''), pieces: undefined };
  }
}

/**
 * Reads an application/x-www-form-urlencoded body in UTF-8 as it arrives, as busboy does (`+` a space,
 * `%XX` a byte, a malformed escape refused, a name kept to its first bytes, a value past its bound
 * reported truncated, a field with neither name nor value skipped), but keeping a long value as the
 * pieces it came in rather than one text laid out whole (text-pieces.ts). Other charsets, and
 * multipart forms, are busboy's.
 */
export class UrlencodedFieldReader {
  private inName = true;
  private name: TextBuilder;
  private value: TextBuilder;
  /** The high digit of an escape cut by the end of a chunk: -1 after a lone '%', -2 when none. */
  private escape = -2;

  constructor(
    private readonly limits: UrlencodedLimits,
    private readonly onField: (field: UrlencodedField) => void,
  ) {
    this.name = new TextBuilder(limits.maxNameBytes);
    this.value = new TextBuilder(limits.maxValueBytes);
  }

  /** Reads one chunk of the body; throws MalformedForm for an escape that is not two hex digits. */
  write(chunk: Buffer): void {
    // Decoding only shrinks: the chunk's bytes, decoded, fit in a buffer of its length.
    const out = Buffer.allocUnsafe(chunk.length);
    let written = 0;
    let from = 0;
    const flush = () => {
      (this.inName ? this.name : this.value).add(out, from, written - from);
      from = written;
    };
    // Where each byte that means something comes next: the bytes between are copied as they are, in one
    // go, rather than looked at one by one (docs/performance-costs.md, "A long answer on the pattern worker").
    const next = new Map<number, number>();
    const nextOf = (byte: number, at: number): number => {
      let found = next.get(byte) ?? -1;
      if (found < at && found !== chunk.length) {
        found = chunk.indexOf(byte, at);
        if (found === -1) found = chunk.length;
        next.set(byte, found);
      }
      return found;
    };
    let escape = this.escape;
    let index = 0;
    while (index < chunk.length) {
      if (escape !== -2) {
        const digit = hexValue(chunk[index]);
        if (digit === -1) throw new MalformedForm();
        if (escape === -1) {
          escape = digit;
        } else {
          out[written++] = (escape << 4) + digit;
          escape = -2;
        }
        index += 1;
        continue;
      }
      const special = Math.min(nextOf(AMPERSAND, index), nextOf(PLUS, index), nextOf(PERCENT, index), this.inName ? nextOf(EQUALS, index) : chunk.length);
      written += chunk.copy(out, written, index, special);
      index = special;
      if (index === chunk.length) break;
      const byte = chunk[index];
      index += 1;
      if (byte === AMPERSAND) {
        flush();
        this.endField();
      } else if (byte === EQUALS) {
        flush();
        this.inName = false;
      } else if (byte === PLUS) {
        out[written++] = SPACE;
      } else {
        escape = -1;
      }
    }
    this.escape = escape;
    flush();
  }

  /** The end of the body: the last field; throws MalformedForm for an escape cut short. */
  end(): void {
    if (this.escape !== -2) throw new MalformedForm();
    this.endField();
  }

  private endField(): void {
    const { name, value } = this;
    if (name.bytes > 0 || value.bytes > 0) {
      const { text, pieces } = value.finish();
      this.onField({ name: name.finish().text, value: text, valueTruncated: value.truncated, pieces });
    }
    this.inName = true;
    this.name = new TextBuilder(this.limits.maxNameBytes);
    this.value = new TextBuilder(this.limits.maxValueBytes);
  }
}
