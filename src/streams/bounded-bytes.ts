/**
 * Bytes gathered from the chunks of a stream, up to a limit. Past the limit the bytes are dropped as they
 * come and only that fact is kept, so one oversized line or record costs no memory.
 */
export class BoundedBytes {
  private parts: Buffer[] = [];
  private size = 0;
  private over = false;

  constructor(private readonly limit: number) {}

  get length(): number {
    return this.size;
  }

  get overLimit(): boolean {
    return this.over;
  }

  append(piece: Buffer): void {
    if (this.over || piece.length === 0) return;
    if (this.size + piece.length > this.limit) {
      this.over = true;
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
  }

  /** The bytes gathered, or undefined past the limit; either way it starts afresh. */
  take(): Buffer | undefined {
    const [only] = this.parts;
    const bytes = this.over ? undefined : this.parts.length === 1 && only !== undefined ? only : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    this.over = false;
    return bytes;
  }
}
