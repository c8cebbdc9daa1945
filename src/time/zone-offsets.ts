import { IANAZone } from 'luxon';

const HOUR_MS = 3_600_000;
/** Per zone; past this many cached hours the zone's cache starts afresh, bounding memory. */
const MAX_CACHED_HOURS = 200_000;

const cache = new Map<string, Map<number, number>>();

/**
 * The offset at the start of the hour after the last hour looked up: calls come in order of time, so the
 * next hour looked up is most often that one, and its start is then not asked of Intl again.
 */
const lastHourEnd = { zone: '', hour: Number.NaN, offset: 0 };

/**
 * The UTC offset, in minutes, of `zone` at `instantMs`. Asking Intl through luxon costs microseconds, and
 * rollups and period keys ask for every call and every day, so offsets are remembered per UTC hour.
 * An hour is cached only when its offset at its start is the one at the next hour's start (no zone changes
 * its offset twice within an hour); an hour with a change, or ending on one, is computed exactly every time.
 */
export function offsetMinutes(zone: string, instantMs: number): number {
  const hour = Math.floor(instantMs / HOUR_MS);
  let hours = cache.get(zone);
  const cached = hours?.get(hour);
  if (cached !== undefined) return cached;

  const ianaZone = IANAZone.create(zone);
  const atStart = lastHourEnd.zone === zone && lastHourEnd.hour === hour ? lastHourEnd.offset : ianaZone.offset(hour * HOUR_MS);
  const atEnd = ianaZone.offset((hour + 1) * HOUR_MS);
  lastHourEnd.zone = zone;
  lastHourEnd.hour = hour + 1;
  lastHourEnd.offset = atEnd;
  if (atStart !== atEnd) return ianaZone.offset(instantMs);

  if (hours === undefined || hours.size >= MAX_CACHED_HOURS) {
    hours = new Map();
    cache.set(zone, hours);
  }
  hours.set(hour, atStart);
  return atStart;
}

/** A stretch of time over which a zone keeps one UTC offset: from `startMs` (inclusive) to `endMs` (exclusive). */
export interface OffsetSpan {
  readonly startMs: number;
  readonly endMs: number;
  readonly offsetMinutes: number;
}

const DAY_MS = 86_400_000;

/** The instant of the change between `before` and `after` (offsets differ there), to the millisecond. */
function changeBetween(zone: string, before: number, after: number): number {
  const offsetBefore = offsetMinutes(zone, before);
  let low = before;
  let high = after;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (offsetMinutes(zone, middle) === offsetBefore) low = middle;
    else high = middle;
  }
  return high;
}

/**
 * The spans of one offset that cover `fromMs` to `toMs` (inclusive), in order, from the same zone data
 * as `offsetMinutes`, so that a database can bucket many instants by local day as this process would.
 * Offsets are compared a day apart: a zone changing its offset twice within one day is not seen.
 */
export function offsetSpans(zone: string, fromMs: number, toMs: number): OffsetSpan[] {
  const spans: OffsetSpan[] = [];
  let spanStart = fromMs;
  let offset = offsetMinutes(zone, fromMs);
  for (let probe = fromMs; probe < toMs; ) {
    const next = Math.min(probe + DAY_MS, toMs);
    if (offsetMinutes(zone, next) !== offset) {
      const change = changeBetween(zone, probe, next);
      spans.push({ startMs: spanStart, endMs: change, offsetMinutes: offset });
      spanStart = change;
      offset = offsetMinutes(zone, change);
      probe = change;
    } else {
      probe = next;
    }
  }
  spans.push({ startMs: spanStart, endMs: toMs + 1, offsetMinutes: offset });
  return spans;
}
