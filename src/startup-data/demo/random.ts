export type Random = () => number;

/** mulberry32: tiny and fast, and plenty for plausible-looking data reproducible from one seed. */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * FNV-1a over the parts. Each phone, phone-day, day and regular caller gets its own stream, so a day's
 * calls are the same whatever window is asked for, and generating again later re-sends identical records.
 */
export function seedFrom(...parts: readonly (string | number)[]): number {
  const text = parts.join('|');
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}

export function between(random: Random, low: number, high: number): number {
  return low + (high - low) * random();
}

export function pickWeighted(random: Random, weights: readonly number[]): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let remaining = random() * total;
  for (const [index, weight] of weights.entries()) {
    remaining -= weight;
    if (remaining < 0) return index;
  }
  return weights.length - 1;
}

export function pickOne<Item>(random: Random, items: readonly [Item, ...Item[]]): Item {
  return items[Math.floor(random() * items.length)] ?? items[0];
}

/** 0 most of the time; otherwise 1 to `most`. */
export function occurrences(random: Random, share: number, most: number): number {
  return random() < share ? 1 + Math.floor(random() * most) : 0;
}
