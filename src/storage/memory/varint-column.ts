/** Bytes per chunk: a column is never more than 64 KiB larger than it needs. Positions may pass 2^32, hence no bit shifts. */
const CHUNK_SIZE = 65_536;

const LOW_SEVEN_BITS = 0x7f;
const MORE = 0x80;

/**
 * Unsigned integers below 2^32 written one after another as LEB128 varints (7 bits a byte) in typed-array
 * chunks: the small counters of a call's path take a byte each instead of four. Read in order only.
 */
export class VarintColumn {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  /** Bytes written so far: where the next value will start. */
  get length(): number {
    return this.size;
  }

  push(value: number): void {
    let rest = value;
    while (rest >= MORE) {
      this.pushByte((rest & LOW_SEVEN_BITS) | MORE);
      rest >>>= 7;
    }
    this.pushByte(rest);
  }

  /** A reader of the values written from byte `position` on. */
  readerAt(position: number): VarintReader {
    return new VarintReader(this.chunks, position);
  }

  private pushByte(byte: number): void {
    if (this.size % CHUNK_SIZE === 0) this.chunks.push(new Uint8Array(CHUNK_SIZE));
    (this.chunks[Math.floor(this.size / CHUNK_SIZE)] as Uint8Array)[this.size % CHUNK_SIZE] = byte;
    this.size += 1;
  }
}

export class VarintReader {
  constructor(
    private readonly chunks: readonly Uint8Array[],
    private position: number,
  ) {}

  next(): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = (this.chunks[Math.floor(this.position / CHUNK_SIZE)] as Uint8Array)[this.position % CHUNK_SIZE] as number;
      this.position += 1;
      value += (byte & LOW_SEVEN_BITS) * 2 ** shift;
      if (byte < MORE) return value;
      shift += 7;
    }
  }
}
