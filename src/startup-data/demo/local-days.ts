import type { DateTime } from 'luxon';
import { epochDayOf } from '../../time/calendar';

const MS_PER_HOUR = 3_600_000;

/** The start of one local hour; luxon is consulted once per hour rather than once per call. */
export interface LocalHour {
  readonly startMs: number;
  /** `yyyy-MM-ddTHH`, local. */
  readonly wallPrefix: string;
  /** `+hh:mm`. */
  readonly offset: string;
}

export interface LocalDay {
  readonly stamp: string;
  readonly epochDay: number;
  /** ISO: 1 for Monday ... 7 for Sunday. */
  readonly weekday: number;
  readonly hours: readonly LocalHour[];
}

export function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

function localHourByLuxon(day: DateTime, hour: number): LocalHour {
  // In a DST gap luxon moves the missing hour forward; those calls simply land in the next hour.
  const start = day.set({ hour });
  return { startMs: start.toMillis(), wallPrefix: start.toFormat("yyyy-MM-dd'T'HH"), offset: start.toFormat('ZZ') };
}

/** Asking luxon for every hour is slow, so it is asked only on the few days whose offset changes. */
function localHoursOf(day: DateTime): LocalHour[] {
  const hours = Array.from({ length: 24 }, (_, hour) => hour);
  if (day.plus({ days: 1 }).offset !== day.offset) return hours.map((hour) => localHourByLuxon(day, hour));
  const date = day.toFormat('yyyy-MM-dd');
  const offset = day.toFormat('ZZ');
  return hours.map((hour) => ({
    startMs: day.toMillis() + hour * MS_PER_HOUR,
    wallPrefix: `${date}T${twoDigits(hour)}`,
    offset,
  }));
}

/** `day` is the start of a local day. */
export function localDayOf(day: DateTime): LocalDay {
  return { stamp: day.toFormat('yyyyMMdd'), epochDay: epochDayOf(day), weekday: day.weekday, hours: localHoursOf(day) };
}
