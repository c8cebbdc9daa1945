import { DateTime } from 'luxon';

/**
 * Calendar dates are handled as "epoch days": whole days since 1970-01-01 of the proleptic Gregorian
 * calendar, independent of any time zone. A time zone is needed only to turn an instant into the local
 * date it falls on, and a local date into the instant its day starts.
 */
export type EpochDay = number;

const MS_PER_DAY = 86_400_000;

export interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

export function epochDayOf(date: CalendarDate): EpochDay {
  return Date.UTC(date.year, date.month - 1, date.day) / MS_PER_DAY;
}

export function calendarDateOf(day: EpochDay): CalendarDate {
  const date = new Date(day * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** 0 for Monday ... 6 for Sunday. 1970-01-01 was a Thursday. */
export function isoWeekdayIndex(day: EpochDay): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** The local calendar date, in `zone`, of the instant `instantMs`. */
export function localEpochDay(instantMs: number, zone: string): EpochDay {
  const local = DateTime.fromMillis(instantMs, { zone });
  return epochDayOf({ year: local.year, month: local.month, day: local.day });
}

/**
 * Unix seconds of the first instant of a local day. Where a DST change skips midnight, luxon moves the
 * nonexistent 00:00 forward to the first time that exists, which is when that day begins.
 */
export function localDayStartSeconds(day: EpochDay, zone: string): number {
  const { year, month, day: dayOfMonth } = calendarDateOf(day);
  return DateTime.fromObject({ year, month, day: dayOfMonth }, { zone }).toSeconds();
}
