import type { EpochDay } from '../../time/calendar';

/** Days per chunk: a year of reports reads two chunks of a phone, and a stray far-off day costs one chunk. */
const CHUNK_SHIFT = 8;
const CHUNK_SIZE = 1 << CHUNK_SHIFT;
const CHUNK_MASK = CHUNK_SIZE - 1;

/**
 * Values by local day, in arrays of consecutive days looked up by chunk: reading a range of days costs
 * an array read per day rather than a hash lookup, since consecutive reads stay in the chunk last found.
 */
export class DayIndex<Value> {
  private readonly chunks = new Map<number, Array<Value | undefined>>();
  private lastChunkNumber = Number.NaN;
  private lastChunk: Array<Value | undefined> | undefined;

  get(day: EpochDay): Value | undefined {
    return this.chunkOf(day)?.[day & CHUNK_MASK];
  }

  getOrAdd(day: EpochDay, create: () => Value): Value {
    let chunk = this.chunkOf(day);
    if (chunk === undefined) {
      chunk = new Array<Value | undefined>(CHUNK_SIZE);
      this.chunks.set(day >> CHUNK_SHIFT, chunk);
      this.lastChunk = chunk;
    }
    let value = chunk[day & CHUNK_MASK];
    if (value === undefined) {
      value = create();
      chunk[day & CHUNK_MASK] = value;
    }
    return value;
  }

  /** Forgets the values of `first` and every later day. */
  deleteFrom(first: EpochDay): void {
    for (const [chunkNumber, chunk] of this.chunks) {
      if (chunkNumber > first >> CHUNK_SHIFT) this.chunks.delete(chunkNumber);
      else if (chunkNumber === first >> CHUNK_SHIFT) chunk.fill(undefined, first & CHUNK_MASK);
    }
    this.lastChunkNumber = Number.NaN;
  }

  private chunkOf(day: EpochDay): Array<Value | undefined> | undefined {
    // Arithmetic shift: a local day before 1970 (-1 in a zone west of UTC) falls in chunk -1.
    const chunkNumber = day >> CHUNK_SHIFT;
    if (chunkNumber !== this.lastChunkNumber) {
      this.lastChunkNumber = chunkNumber;
      this.lastChunk = this.chunks.get(chunkNumber);
    }
    return this.lastChunk;
  }
}
