/**
 * What the memory store's tables of texts share: texts kept as UTF-8 bytes in arena chunks of 1 MiB
 * (a text never straddles two; its position is the chunk number and the offset in one 32-bit integer),
 * found through an open-addressing hash table over those bytes.
 */
export const ARENA_SHIFT = 20;
export const ARENA_CHUNK_BYTES = 1 << ARENA_SHIFT;
export const ARENA_MASK = ARENA_CHUNK_BYTES - 1;

export const MAX_UTF8_BYTES_PER_UNIT = 3;
/** The longest text a table holds, in UTF-16 units: its UTF-8 bytes fit in 16 bits. */
export const MAX_TEXT_UNITS = Math.floor((2 ** 16 - 1) / MAX_UTF8_BYTES_PER_UNIT);

export const INITIAL_SLOTS = 1 << 10;
/** A table grows when more than three slots in four are taken, keeping probe sequences short. */
export const MAX_LOAD = 0.75;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over UTF-8 bytes, then a finaliser so that the low bits, which pick the slot, depend on every byte. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ (bytes[index] as number), FNV_PRIME);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

export function tooLongText(): RangeError {
  return new RangeError(`a stored text is at most ${MAX_TEXT_UNITS} characters`);
}
