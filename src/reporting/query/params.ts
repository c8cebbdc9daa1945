import { z } from 'zod';
import { normalisePhone, PHONE_PATTERN } from '../../domain/phone-number';
import { errors } from '../../errors/catalogue';
import { calendarDateOf, epochDayOf, type EpochDay } from '../../time/calendar';
import { COMPACT_DATE_PATTERN } from '../../time/calendar-patterns';
import { firstKeyedDay, keyedFromEpoch, PERIODS, type Period, type WeekStart } from './periods';

export const ALL_PHONES = 'ALL';

/** The validated `{start}/{end}/{phone}` of every raw-data resource: local days, both included. */
export interface RangeQuery {
  readonly from: EpochDay;
  readonly to: EpochDay;
  /** Digits of one number, or ALL. */
  readonly phone: string;
}

/** The validated `{start}/{end}/{period}/{phone}` of the series resources. */
export interface SeriesQuery extends RangeQuery {
  readonly period: Period;
}

/** What a path is checked against beyond its own text: the longest range, and the account's calendar. */
export interface QueryBounds {
  readonly maxRangeDays: number;
  readonly weekStart: WeekStart;
  /** The account's time zone, in which its days, weeks and months start. */
  readonly timeZone: string;
}

/** A user's value inside a message: quoted, shortened, control characters escaped. */
const shown = (value: string): string => JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);

const dateParam = (name: 'start' | 'end') =>
  z.string().transform((value, context): EpochDay => {
    const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
    const date = match && { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
    const day = date && date.year >= 1970 ? epochDayOf(date) : undefined;
    const back = day === undefined ? undefined : calendarDateOf(day);
    const roundTrips = back !== undefined && date !== null && back.year === date.year && back.month === date.month && back.day === date.day;
    if (day === undefined || !roundTrips) {
      context.addIssue({
        code: 'custom',
        message: `${name} ${shown(value)} is not a real date in the form YYYYMMDD (from 19700101)`,
      });
      return z.NEVER;
    }
    return day;
  }).meta({
    description:
      `The ${name === 'start' ? 'first' : 'last'} local day of the range, included: a real date YYYYMMDD from 19700101` +
      (name === 'start' ? "; its day, week or month must start at or after 1970-01-01T00:00:00Z in the account's time zone" : ''),
    pattern: COMPACT_DATE_PATTERN,
  });

const phoneParam = z.string().transform((value, context) => {
  const phone = value === ALL_PHONES ? ALL_PHONES : normalisePhone(value);
  if (phone === undefined) {
    context.addIssue({ code: 'custom', message: `phone must be ALL or a number of 1-15 digits, not ${shown(value)}` });
    return z.NEVER;
  }
  return phone;
}).meta({
  description: `${ALL_PHONES} (the account's numbers merged) or one of the account's numbers: 1-15 digits, a leading + allowed and ignored`,
  pattern: `^(${ALL_PHONES}|${PHONE_PATTERN.source.slice(1, -1)})$`,
});

const periodParam = z
  .enum(PERIODS, { error: (issue) => `period must be day, week or month, not ${shown(String(issue.input))}` })
  .meta({ description: 'How the range is grouped: each key is the Unix second at which a local day, week or month starts' });

// The first problem in path order is the one reported, so the keys follow the path's segments.
/** `{start}/{end}/{phone}`, as the path validation reads it and the API reference documents it. */
export const rangePathSchema = z.object({ start: dateParam('start'), end: dateParam('end'), phone: phoneParam });
/** `{start}/{end}/{period}/{phone}`, as the path validation reads it and the API reference documents it. */
export const seriesPathSchema = z.object({ start: dateParam('start'), end: dateParam('end'), period: periodParam, phone: phoneParam });

function parsed<Schema extends z.ZodType>(schema: Schema, params: Record<string, string>): z.output<Schema> {
  const result = schema.safeParse(params);
  if (!result.success) throw errors.invalidParameter(result.error.issues[0]?.message ?? 'invalid path');
  return result.data;
}

const compactDate = (day: EpochDay): string => {
  const { year, month, day: dayOfMonth } = calendarDateOf(day);
  return `${year}${String(month).padStart(2, '0')}${String(dayOfMonth).padStart(2, '0')}`;
};

/**
 * End not before start, at most maxRangeDays days, and a first period (for the range resources, the first
 * day) that starts at or after the Unix epoch in the account's zone: its key, Unix seconds, would otherwise
 * be negative, where the reference keys periods by a digit string.
 */
function checkedRange(params: Record<string, string>, start: EpochDay, end: EpochDay, period: Period, bounds: QueryBounds): void {
  if (end < start) {
    throw errors.endBeforeStart(String(params.start), String(params.end));
  }
  const days = end - start + 1;
  if (days > bounds.maxRangeDays) {
    throw errors.rangeTooLong(days, bounds.maxRangeDays);
  }
  if (!keyedFromEpoch(start, period, bounds.weekStart, bounds.timeZone)) {
    throw errors.periodBeforeEpoch(String(params.start), period, bounds.timeZone, compactDate(firstKeyedDay(period, bounds.weekStart, bounds.timeZone)));
  }
}

/** `{start}/{end}/{phone}`: the geographic report and the diagnostic flow. */
export function parseRangeQuery(params: Record<string, string>, bounds: QueryBounds): RangeQuery {
  const { start, end, phone } = parsed(rangePathSchema, params);
  checkedRange(params, start, end, 'day', bounds);
  return { from: start, to: end, phone };
}

/** `{start}/{end}/{period}/{phone}`: the event tracker and the other series resources. */
export function parseSeriesQuery(params: Record<string, string>, bounds: QueryBounds): SeriesQuery {
  const { start, end, period, phone } = parsed(seriesPathSchema, params);
  checkedRange(params, start, end, period, bounds);
  return { from: start, to: end, period, phone };
}
