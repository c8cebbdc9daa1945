import {
  ARENA_CHUNK_BYTES,
  ARENA_MASK,
  ARENA_SHIFT,
  hashBytes,
  INITIAL_SLOTS,
  MAX_LOAD,
  MAX_TEXT_UNITS,
  MAX_UTF8_BYTES_PER_UNIT,
  tooLongText,
} from './text-bytes';
import { Uint32Column } from './uint32-column';

/** Positions are 32-bit: chunk number and offset together. */
const MAX_ARENA_CHUNKS = 2 ** (32 - ARENA_SHIFT);
/** Each text is stored after its byte length in two bytes. */
const LENGTH_BYTES = 2;

/**
 * A set of texts, each with a small integer id (0, 1, 2, ... in order of arrival), held as UTF-8 bytes in
 * large buffers with an open-addressing hash table of ids over them: a few bytes per text beyond its
 * own, and no JavaScript string or object per text for the garbage collector to walk. A lookup hashes
 * the text's bytes and confirms a match byte for byte, so two texts never share an id.
 */
export class TextTable {
  private readonly arena: Buffer[] = [];
  /** The bytes' position of each id (chunk number and offset in one integer). */
  private readonly positions = new Uint32Column();
  private readonly hashes = new Uint32Column();
  /** Id + 1 in each taken slot, 0 in a free one. */
  private slots = new Uint32Array(INITIAL_SLOTS);
  private tail = ARENA_CHUNK_BYTES;
  /** The hash of the text `stage` last wrote. */
  private stagedHash = 0;

  get size(): number {
    return this.positions.length;
  }

  /** The id of `text` (at most MAX_TEXT_UNITS UTF-16 units), added with the next id when the table does not hold it yet. */
  intern(text: string): number {
    const byteLength = this.stage(text);
    let slot = this.findSlot(text, byteLength);
    const taken = this.slots[slot] as number;
    if (taken !== 0) return taken - 1;
    const id = this.positions.length;
    if (id + 1 > this.slots.length * MAX_LOAD) {
      this.grow();
      slot = this.freeSlotFor(this.stagedHash);
    }
    this.slots[slot] = id + 1;
    this.positions.push(((this.arena.length - 1) << ARENA_SHIFT) | this.tail);
    this.hashes.push(this.stagedHash);
    this.tail += LENGTH_BYTES + byteLength;
    return id;
  }

  /**
   * Writes the text's bytes after the last stored text without keeping them yet, so that a lookup
   * compares bytes with bytes and an insertion only has to move the tail. Returns their length.
   */
  private stage(text: string): number {
    if (text.length > MAX_TEXT_UNITS) throw tooLongText();
    if (this.tail + LENGTH_BYTES + text.length * MAX_UTF8_BYTES_PER_UNIT > ARENA_CHUNK_BYTES) {
      if (this.arena.length === MAX_ARENA_CHUNKS) throw new RangeError('the text table is full (4 GiB)');
      this.arena.push(Buffer.allocUnsafeSlow(ARENA_CHUNK_BYTES));
      this.tail = 0;
    }
    const chunk = this.arena[this.arena.length - 1] as Buffer;
    const start = this.tail + LENGTH_BYTES;
    const byteLength = chunk.write(text, start, 'utf8');
    chunk[this.tail] = byteLength & 0xff;
    chunk[this.tail + 1] = byteLength >>> 8;
    this.stagedHash = hashBytes(chunk, start, start + byteLength);
    return byteLength;
  }

  /** The slot holding the staged text's id, or the free slot where it would go. */
  private findSlot(text: string, byteLength: number): number {
    const staged = this.arena[this.arena.length - 1] as Buffer;
    const stagedStart = this.tail + LENGTH_BYTES;
    const mask = this.slots.length - 1;
    let slot = this.stagedHash & mask;
    for (;;) {
      const taken = this.slots[slot] as number;
      if (taken === 0) return slot;
      const id = taken - 1;
      if (this.hashes.get(id) === this.stagedHash && this.holds(id, staged, stagedStart, byteLength)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private holds(id: number, bytes: Buffer, start: number, byteLength: number): boolean {
    const position = this.positions.get(id);
    const chunk = this.arena[position >>> ARENA_SHIFT] as Buffer;
    const offset = position & ARENA_MASK;
    if (((chunk[offset] as number) | ((chunk[offset + 1] as number) << 8)) !== byteLength) return false;
    const textStart = offset + LENGTH_BYTES;
    for (let index = 0; index < byteLength; index += 1) {
      if (chunk[textStart + index] !== bytes[start + index]) return false;
    }
    return true;
  }

  private freeSlotFor(hash: number): number {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    this.slots = new Uint32Array(this.slots.length * 2);
    for (let id = 0; id < this.positions.length; id += 1) this.slots[this.freeSlotFor(this.hashes.get(id))] = id + 1;
  }
}
