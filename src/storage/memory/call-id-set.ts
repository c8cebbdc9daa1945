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

/** Slots hold a position + 1 in 32 bits, so the last chunk number is never used. */
const MAX_ARENA_CHUNKS = 2 ** (32 - ARENA_SHIFT) - 1;
/**
 * A group starts with an entry holding its whole text; the others hold what differs from the entry
 * before them. Groups are short, so that confirming a match rebuilds few entries.
 */
const ENTRIES_PER_GROUP = 16;
const MAX_GROUP_BYTES = 4096;
/** Three varints (the distance back to the group's start, the shared bytes and the suffix's length), each below 2^21. */
const MAX_HEADER_BYTES = 3 * 3;
const MAX_TEXT_BYTES = MAX_TEXT_UNITS * MAX_UTF8_BYTES_PER_UNIT;

const LOW_SEVEN_BITS = 0x7f;
const MORE = 0x80;

function writeVarint(chunk: Buffer, offset: number, value: number): number {
  let at = offset;
  let rest = value;
  while (rest >= MORE) {
    chunk[at] = (rest & LOW_SEVEN_BITS) | MORE;
    at += 1;
    rest >>>= 7;
  }
  chunk[at] = rest;
  return at + 1;
}

/** A byte loop: ids are short, and Buffer#copy makes a view of the source on every call. */
function copyBytes(source: Uint8Array, start: number, end: number, target: Uint8Array, at: number): void {
  for (let index = start; index < end; index += 1) target[at + index - start] = source[index] as number;
}

function sharedPrefixLength(a: Buffer, aLength: number, b: Buffer, bLength: number): number {
  const most = Math.min(aLength, bLength);
  let shared = 0;
  while (shared < most && a[shared] === b[shared]) shared += 1;
  return shared;
}

/**
 * The call ids a memory store holds, for duplicate detection: a hash table whose slots point into an
 * arena of UTF-8 bytes, and a match always confirmed byte for byte, so two calls are never taken for
 * one. Ids are front-coded in order of arrival (each entry keeps only the bytes that differ from the id
 * stored before it), since ids from one source tend to share a long opening (a prefix, a number, a
 * date): such ids cost a few bytes each, ids without a common opening (random UUIDs) about their length.
 * Each slot also keeps a byte of its id's hash, beside the others in a table of their own, so that most
 * probes of other ids end without reading the arena (a read far from the last, where the slots' tags are
 * read one after the other); the table grows by rebuilding and hashing every id again, once per doubling.
 * Ids are never removed.
 */
export class CallIdSet {
  private readonly arena: Buffer[] = [];
  /** Where each full chunk's entries end; the last chunk's end at `tail`. */
  private readonly chunkEnds: number[] = [];
  private tail = ARENA_CHUNK_BYTES;
  private groupStart = 0;
  private groupEntries = 0;
  /** Position + 1 in each taken slot, 0 in a free one. */
  private slots = new Uint32Array(INITIAL_SLOTS);
  /** The top byte of the hash of each taken slot's id. */
  private tags = new Uint8Array(INITIAL_SLOTS);
  private count = 0;
  /** The id being looked up, as UTF-8. */
  private staged = Buffer.allocUnsafe(MAX_TEXT_BYTES);
  private stagedLength = 0;
  /** The id added last, which the next one is coded against. */
  private previous = Buffer.allocUnsafe(MAX_TEXT_BYTES);
  private previousLength = 0;
  /** A stored id rebuilt from its group. */
  private readonly rebuilt = Buffer.allocUnsafe(MAX_TEXT_BYTES);
  /** Where the next varint is read. */
  private cursor = 0;

  get size(): number {
    return this.count;
  }

  /** Adds `id` (at most MAX_TEXT_UNITS UTF-16 units) when the set does not hold it yet; whether it was new. */
  add(id: string): boolean {
    if (id.length > MAX_TEXT_UNITS) throw tooLongText();
    this.stagedLength = this.staged.write(id, 0, 'utf8');
    const hash = hashBytes(this.staged, 0, this.stagedLength);
    const mask = this.slots.length - 1;
    const tag = hash >>> 24;
    let slot = hash & mask;
    for (;;) {
      const taken = this.slots[slot] as number;
      if (taken === 0) break;
      if (this.tags[slot] === tag && this.holds(taken - 1)) return false;
      slot = (slot + 1) & mask;
    }
    const position = this.append();
    this.count += 1;
    if (this.count > this.slots.length * MAX_LOAD) {
      this.grow();
    } else {
      this.slots[slot] = position + 1;
      this.tags[slot] = tag;
    }
    return true;
  }

  /** Writes the staged id after the last entry; returns its position. */
  private append(): number {
    if (this.tail + MAX_HEADER_BYTES + this.stagedLength > ARENA_CHUNK_BYTES) this.startChunk();
    if (this.tail === 0 || this.groupEntries === ENTRIES_PER_GROUP || this.tail - this.groupStart >= MAX_GROUP_BYTES) {
      this.groupStart = this.tail;
      this.groupEntries = 0;
    }
    const shared = this.groupEntries === 0 ? 0 : sharedPrefixLength(this.staged, this.stagedLength, this.previous, this.previousLength);
    const chunk = this.arena[this.arena.length - 1] as Buffer;
    const start = this.tail;
    let at = writeVarint(chunk, start, start - this.groupStart);
    at = writeVarint(chunk, at, shared);
    at = writeVarint(chunk, at, this.stagedLength - shared);
    copyBytes(this.staged, shared, this.stagedLength, chunk, at);
    this.tail = at + this.stagedLength - shared;
    this.groupEntries += 1;
    const added = this.staged;
    this.staged = this.previous;
    this.previous = added;
    this.previousLength = this.stagedLength;
    return (((this.arena.length - 1) << ARENA_SHIFT) | start) >>> 0;
  }

  private startChunk(): void {
    if (this.arena.length === MAX_ARENA_CHUNKS) throw new RangeError('the call id set is full (4 GiB)');
    if (this.arena.length > 0) this.chunkEnds.push(this.tail);
    this.arena.push(Buffer.allocUnsafeSlow(ARENA_CHUNK_BYTES));
    this.tail = 0;
  }

  /** Whether the entry at `position` holds the staged id: its length, then its bytes, rebuilt from its group. */
  private holds(position: number): boolean {
    const chunk = this.arena[position >>> ARENA_SHIFT] as Buffer;
    const offset = position & ARENA_MASK;
    this.cursor = offset;
    const back = this.readVarint(chunk);
    if (this.readVarint(chunk) + this.readVarint(chunk) !== this.stagedLength) return false;
    this.cursor = offset - back;
    let entryStart: number;
    do {
      entryStart = this.cursor;
      this.rebuildNext(chunk);
    } while (entryStart !== offset);
    return this.rebuilt.compare(this.staged, 0, this.stagedLength, 0, this.stagedLength) === 0;
  }

  /** Reads the entry at the cursor into `rebuilt`, which holds the entry before it; returns the id's length. */
  private rebuildNext(chunk: Buffer): number {
    this.readVarint(chunk);
    const shared = this.readVarint(chunk);
    const suffix = this.readVarint(chunk);
    copyBytes(chunk, this.cursor, this.cursor + suffix, this.rebuilt, shared);
    this.cursor += suffix;
    return shared + suffix;
  }

  private readVarint(chunk: Buffer): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = chunk[this.cursor] as number;
      this.cursor += 1;
      value |= (byte & LOW_SEVEN_BITS) << shift;
      if (byte < MORE) return value;
      shift += 7;
    }
  }

  /** Doubles the slots and places every stored id again, rebuilding each in order of arrival to hash it. */
  private grow(): void {
    const slots = new Uint32Array(this.slots.length * 2);
    const tags = new Uint8Array(slots.length);
    const mask = slots.length - 1;
    this.arena.forEach((chunk, chunkNumber) => {
      const end = this.chunkEnds[chunkNumber] ?? this.tail;
      this.cursor = 0;
      while (this.cursor < end) {
        const position = ((chunkNumber << ARENA_SHIFT) | this.cursor) >>> 0;
        const length = this.rebuildNext(chunk);
        const hash = hashBytes(this.rebuilt, 0, length);
        let slot = hash & mask;
        while (slots[slot] !== 0) slot = (slot + 1) & mask;
        slots[slot] = position + 1;
        tags[slot] = hash >>> 24;
      }
    });
    this.slots = slots;
    this.tags = tags;
  }
}
