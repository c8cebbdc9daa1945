import { z } from 'zod';
import { normalisePhone } from '../../domain/phone-number';
import { errors } from '../../errors/catalogue';
import { calendarDateOf, epochDayOf, type EpochDay } from '../../time/calendar';
import { PERIODS, type Period } from './periods';

export const ALL_PHONES = 'ALL';

/** The validated path of GET /api/events/{start}/{end}/{period}/{phone}. */
export interface EventQuery {
  readonly from: EpochDay;
  readonly to: EpochDay;
  readonly period: Period;
  /** Digits of one number, or ALL. */
  readonly phone: string;
}

/** A user's value inside a message: quoted, shortened, control characters escaped. */
const shown = (value: string): string => JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);

const dateParam = (name: 'start' | 'end') =>
  z.string().transform((value, context): EpochDay => {
    const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
    const date = match && { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
    const day = date && date.year >= 1970 ? epochDayOf(date) : undefined;
    const roundTrips =
      day !== undefined && date !== null && JSON.stringify(calendarDateOf(day)) === JSON.stringify(date);
    if (!roundTrips) {
      context.addIssue({
        code: 'custom',
        message: `${name} ${shown(value)} is not a real date in the form YYYYMMDD (from 19700101)`,
      });
      return z.NEVER;
    }
    return day;
  });

const pathSchema = z.object({
  start: dateParam('start'),
  end: dateParam('end'),
  period: z.enum(PERIODS, {
    error: (issue) => `period must be day, week or month, not ${shown(String(issue.input))}`,
  }),
  phone: z.string().transform((value, context) => {
    const phone = value === ALL_PHONES ? ALL_PHONES : normalisePhone(value);
    if (phone === undefined) {
      context.addIssue({ code: 'custom', message: `phone must be ALL or a number of 1-15 digits, not ${shown(value)}` });
      return z.NEVER;
    }
    return phone;
  }),
});

export function parseEventQuery(params: Record<string, string>, maxRangeDays: number): EventQuery {
  const parsed = pathSchema.safeParse(params);
  if (!parsed.success) throw errors.badRequest(parsed.error.issues[0]?.message ?? 'invalid path');
  const { start, end, period, phone } = parsed.data;
  if (end < start) {
    throw errors.badRequest(`end ${params.end} is earlier than start ${params.start}`);
  }
  const days = end - start + 1;
  if (days > maxRangeDays) {
    throw errors.badRequest(`the range covers ${days} days; at most ${maxRangeDays} days can be asked for at once`);
  }
  return { from: start, to: end, period, phone };
}
