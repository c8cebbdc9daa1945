import { calendarDateOf, epochDayOf, isoWeekdayIndex, localDayStartSeconds, type EpochDay } from '../../time/calendar';

export const PERIODS = ['day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];
/** The days a week may start on (WEEK_START). */
export const WEEK_STARTS = ['monday', 'sunday'] as const;
export type WeekStart = (typeof WEEK_STARTS)[number];

/** One calendar period that overlaps the requested range. */
export interface PeriodSpan {
  /** The period's own first day, which may lie before the range; it keys the period. */
  readonly start: EpochDay;
  /** The days of the period inside the range, whose calls it counts. */
  readonly first: EpochDay;
  readonly last: EpochDay;
}

const WEEK_START_INDEX: Record<WeekStart, number> = { monday: 0, sunday: 6 };

function periodStart(day: EpochDay, period: Period, weekStart: WeekStart): EpochDay {
  switch (period) {
    case 'day':
      return day;
    case 'week':
      return day - ((isoWeekdayIndex(day) - WEEK_START_INDEX[weekStart] + 7) % 7);
    case 'month': {
      const { year, month } = calendarDateOf(day);
      return epochDayOf({ year, month, day: 1 });
    }
  }
}

function nextPeriodStart(start: EpochDay, period: Period): EpochDay {
  switch (period) {
    case 'day':
      return start + 1;
    case 'week':
      return start + 7;
    case 'month': {
      const { year, month } = calendarDateOf(start);
      return epochDayOf({ year: month === 12 ? year + 1 : year, month: month === 12 ? 1 : month + 1, day: 1 });
    }
  }
}

/** Every period of the given kind that overlaps `from`..`to` (inclusive), in order. */
export function periodsOverlapping(from: EpochDay, to: EpochDay, period: Period, weekStart: WeekStart): PeriodSpan[] {
  const spans: PeriodSpan[] = [];
  for (let start = periodStart(from, period, weekStart); start <= to; ) {
    const next = nextPeriodStart(start, period);
    spans.push({ start, first: Math.max(start, from), last: Math.min(next - 1, to) });
    start = next;
  }
  return spans;
}

/**
 * From this day on, every day, week and month starts at or after 1970-01-01T00:00:00Z in every zone: the
 * first of February 1970 begins at most 14 hours (the widest offset) before its UTC midnight.
 */
const KEYED_IN_EVERY_ZONE_FROM: EpochDay = 31;

/**
 * The first day whose period (of `period`'s kind, in `timeZone`) starts at or after the Unix epoch, so that
 * its key, in Unix seconds, is not negative: 1970-01-01 but for a zone east of UTC (its first of January
 * began in 1969) or a week that began in December 1969.
 */
export function firstKeyedDay(period: Period, weekStart: WeekStart, timeZone: string): EpochDay {
  let start = periodStart(-1, period, weekStart);
  while (localDayStartSeconds(start, timeZone) < 0) start = nextPeriodStart(start, period);
  return start;
}

/** Whether the periods from `from` on all start at or after the Unix epoch in `timeZone`. */
export function keyedFromEpoch(from: EpochDay, period: Period, weekStart: WeekStart, timeZone: string): boolean {
  return from >= KEYED_IN_EVERY_ZONE_FROM || from >= firstKeyedDay(period, weekStart, timeZone);
}
