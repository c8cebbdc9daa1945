import { LRUCache } from 'lru-cache';
import { localDayStartSeconds } from '../../time/calendar';
import type { Period, PeriodSpan } from '../query/periods';

/** The keys of a series report: Unix seconds of each period's local start, and their JSON text made once. */
export interface PeriodKeys {
  readonly seconds: readonly number[];
  /** `"<seconds>":` of every key, one after another, for the JSON writer to copy into each series. */
  readonly jsonText: Buffer;
  /** Where each key's text ends in `jsonText`. */
  readonly jsonEnds: Uint32Array;
}

export function keysOf(seconds: readonly number[]): PeriodKeys {
  const texts = seconds.map((key) => `"${key}":`);
  const jsonText = Buffer.allocUnsafe(texts.reduce((total, text) => total + text.length, 0));
  const jsonEnds = new Uint32Array(seconds.length);
  let at = 0;
  texts.forEach((text, index) => {
    at += jsonText.write(text, at, 'latin1');
    jsonEnds[index] = at;
  });
  return { seconds, jsonText, jsonEnds };
}

/**
 * Keys depend only on the time zone and the periods, not on the data: a report built again for new data,
 * or with no report cache, reuses them instead of asking the zone's offsets three times per period.
 * Bounded: at most this many period lists, each of at most MAX_RANGE_DAYS keys.
 */
const keptKeys = new LRUCache<string, PeriodKeys>({ max: 128 });

/** The keys of `spans` (periods of one kind, in order) in `timeZone`. */
export function periodKeys(spans: readonly PeriodSpan[], period: Period, timeZone: string): PeriodKeys {
  // The first start, the kind and the count fix every start of the list.
  const name = `${timeZone} ${period} ${spans[0]?.start ?? ''} ${spans.length}`;
  let keys = keptKeys.get(name);
  if (keys === undefined) {
    keys = keysOf(spans.map((span) => localDayStartSeconds(span.start, timeZone)));
    keptKeys.set(name, keys);
  }
  return keys;
}
