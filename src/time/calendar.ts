import { offsetMinutes } from './zone-offsets';

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

const MS_PER_MINUTE = 60_000;

/** The local calendar date, in `zone`, of the instant `instantMs`: its wall-clock time, floored to a day. */
export function localEpochDay(instantMs: number, zone: string): EpochDay {
  return Math.floor((instantMs + offsetMinutes(zone, instantMs) * MS_PER_MINUTE) / MS_PER_DAY);
}

/**
 * Unix seconds of the first instant of a local day: the earliest local midnight, tried with each offset
 * in force around it. Where the clock went back at midnight, 00:00 happened twice and the day began at
 * the first; where a DST change skipped midnight, the day began when the clock jumped, at the first
 * time that exists.
 */
export function localDayStartSeconds(day: EpochDay, zone: string): number {
  const wallClock = day * MS_PER_DAY;
  const offset = offsetMinutes(zone, wallClock);
  const guess = wallClock - offset * MS_PER_MINUTE;
  const before = offsetMinutes(zone, guess - MS_PER_DAY);
  const after = offsetMinutes(zone, guess + MS_PER_DAY);
  // Nearly every day: no offset change within a day either side, so midnight happened once, at the guess.
  if (before === offset && after === offset) return guess / 1000;
  const offsets = [...new Set([before, offset, after])];
  const midnights = offsets
    .map((candidate) => wallClock - candidate * MS_PER_MINUTE)
    .filter((instant) => wallClock - offsetMinutes(zone, instant) * MS_PER_MINUTE === instant);
  const start = midnights.length > 0 ? Math.min(...midnights) : wallClock - Math.min(...offsets) * MS_PER_MINUTE;
  return start / 1000;
}
