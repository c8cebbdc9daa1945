import { IANAZone } from 'luxon';

const HOUR_MS = 3_600_000;
/** Per zone; past this many cached hours the zone's cache starts afresh, bounding memory. */
const MAX_CACHED_HOURS = 200_000;

const cache = new Map<string, Map<number, number>>();

/**
 * The UTC offset, in minutes, of `zone` at `instantMs`. Asking Intl through luxon costs microseconds, and
 * rollups and period keys ask for every call and every day, so offsets are remembered per UTC hour.
 * An hour is cached only when its offset is the same at both ends; the hour of a transition is
 * computed exactly every time.
 */
export function offsetMinutes(zone: string, instantMs: number): number {
  const hour = Math.floor(instantMs / HOUR_MS);
  let hours = cache.get(zone);
  const cached = hours?.get(hour);
  if (cached !== undefined) return cached;

  const ianaZone = IANAZone.create(zone);
  const atStart = ianaZone.offset(hour * HOUR_MS);
  if (atStart !== ianaZone.offset((hour + 1) * HOUR_MS - 1)) return ianaZone.offset(instantMs);

  if (hours === undefined || hours.size >= MAX_CACHED_HOURS) {
    hours = new Map();
    cache.set(zone, hours);
  }
  hours.set(hour, atStart);
  return atStart;
}
