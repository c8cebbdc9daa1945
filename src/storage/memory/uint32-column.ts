/** Entries per chunk: 64 KiB of memory, so a column is never more than one chunk larger than it needs. */
const CHUNK_SHIFT = 14;
const CHUNK_SIZE = 1 << CHUNK_SHIFT;
const CHUNK_MASK = CHUNK_SIZE - 1;

/**
 * A growable list of unsigned 32-bit integers in fixed-size typed-array chunks. Their memory is outside
 * the JavaScript heap, so the garbage collector never walks it however many entries there are, and
 * growing never copies what is already stored.
 */
export class Uint32Column {
  private readonly chunks: Uint32Array[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  get(index: number): number {
    return (this.chunks[index >>> CHUNK_SHIFT] as Uint32Array)[index & CHUNK_MASK] as number;
  }

  push(value: number): number {
    const index = this.size;
    if ((index & CHUNK_MASK) === 0) this.chunks.push(new Uint32Array(CHUNK_SIZE));
    (this.chunks[index >>> CHUNK_SHIFT] as Uint32Array)[index & CHUNK_MASK] = value;
    this.size += 1;
    return index;
  }
}
