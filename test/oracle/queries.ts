import { DateTime } from 'luxon';
import { addDays, compact, localDate, offsetChanges, PERIODS, type CompactDate, type Period } from './calendar';
import { DATA_DAYS, DATA_FROM, type AccountPlan } from './generate';
import type { Random } from './random';

/** A range of local dates an account asks about, named for failure messages. */
export interface RangePlan {
  readonly label: string;
  readonly start: CompactDate;
  readonly end: CompactDate;
}

/** One day, DST weeks, a month boundary, a year boundary, a year, everything, and days without calls. */
export function rangesFor(account: AccountPlan, random: Random): RangePlan[] {
  const switches = offsetChanges(account.zone, Date.UTC(2018, 0, 2), Date.UTC(2020, 2, 25)).map((ms) => localDate(ms, account.zone));
  const someDay = () => addDays(DATA_FROM, random.int(10, DATA_DAYS - 20));
  const switchDay = switches.length > 0 ? random.pick(switches) : someDay();
  const otherSwitches = switches.filter((day) => day !== switchDay);
  const otherSwitch = otherSwitches.length > 0 ? random.pick(otherSwitches) : someDay();
  const firstOfMonth = compact(DateTime.fromFormat(someDay(), 'yyyyLLdd', { zone: 'UTC' }).startOf('month'));
  const yearStart = addDays(DATA_FROM, random.int(0, 330));
  const yearEnd = compact(DateTime.fromFormat(yearStart, 'yyyyLLdd', { zone: 'UTC' }).plus({ years: 1 }).minus({ days: 1 }));
  return [
    { label: 'a DST switch day', start: switchDay, end: switchDay },
    { label: 'a DST switch week', start: addDays(switchDay, -3), end: addDays(switchDay, 3) },
    { label: 'two weeks around another switch', start: addDays(otherSwitch, -5), end: addDays(otherSwitch, 9) },
    { label: 'a month boundary', start: addDays(firstOfMonth, -6), end: addDays(firstOfMonth, 4) },
    { label: 'a year boundary', start: '20181226', end: '20190106' },
    // Starts on the day whose midnight America/Santiago skips (New York moves there in the rebuild tests).
    { label: 'a week from a day without midnight in Santiago', start: '20190908', end: '20190915' },
    { label: 'a year', start: yearStart, end: yearEnd },
    { label: 'all the data', start: '20171201', end: '20200415' },
    { label: 'days without calls', start: '20160301', end: '20160315' },
  ];
}

export interface SeriesQuery {
  readonly login: string;
  readonly range: RangePlan;
  readonly period: Period;
  /** ALL, or one number (sometimes with its +). */
  readonly phone: string;
}

/** The phone part of a query for one number: as stored, or with a leading + now and then. */
export function onePhone(phones: readonly string[], random: Random): string {
  const phone = random.pick(phones);
  return random.chance(0.3) ? `+${phone}` : phone;
}

export function seriesQueries(login: string, ranges: readonly RangePlan[], phone: string): SeriesQuery[] {
  return ranges.flatMap((range) => PERIODS.flatMap((period) => ['ALL', phone].map((which) => ({ login, range, period, phone: which }))));
}

export const rangePath = (range: RangePlan) => `${range.start}/${range.end}`;
