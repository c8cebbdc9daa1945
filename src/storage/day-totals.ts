import type { EpochDay } from '../time/calendar';
import type { DayTotals } from './store';

/** The sums of a day, or of any span of days, without the day. */
export type Sums = { -readonly [Field in Exclude<keyof DayTotals, 'day'>]: number };

export type Counter = keyof Sums;

export const zeroSums = (): Sums => ({
  calls: 0,
  logEvents: 0,
  loops: 0,
  formItems: 0,
  durationMs: 0,
  transfers: 0,
  transferMs: 0,
  jsErrors: 0,
  fetchErrors: 0,
  pageLoads: 0,
  pageLoadMs: 0,
});

/** The counters in the order of a DayTotalsTable's columns, which its `add` writes them in. */
export const COUNTERS = [
  'calls',
  'logEvents',
  'loops',
  'formItems',
  'durationMs',
  'transfers',
  'transferMs',
  'jsErrors',
  'fetchErrors',
  'pageLoads',
  'pageLoadMs',
] as const satisfies readonly Counter[];

export const emptyDayTotals = (day: EpochDay): Sums & { readonly day: EpochDay } => ({ day, ...zeroSums() });

/** Adds a day's sums to `sum`, field by field rather than over a list of names: this runs for every call stored. */
export function addSums(sum: Sums, day: Omit<DayTotals, 'day'>): void {
  sum.calls += day.calls;
  sum.logEvents += day.logEvents;
  sum.loops += day.loops;
  sum.formItems += day.formItems;
  sum.durationMs += day.durationMs;
  sum.transfers += day.transfers;
  sum.transferMs += day.transferMs;
  sum.jsErrors += day.jsErrors;
  sum.fetchErrors += day.fetchErrors;
  sum.pageLoads += day.pageLoads;
  sum.pageLoadMs += day.pageLoadMs;
}

/**
 * The totals of every local day from `from` to `to`, a day without calls all zeros: a column of doubles
 * per counter (sums of milliseconds pass 2^32 over a month of calls), in one array, rather than an object
 * per day, so that a report of a year reads them without making a thousand objects.
 */
export class DayTotalsTable {
  readonly days: number;
  /** Column after column in the order of COUNTERS, each `days` long, the first row being `from`. */
  readonly values: Float64Array;

  constructor(
    readonly from: EpochDay,
    readonly to: EpochDay,
  ) {
    this.days = to - from + 1;
    this.values = new Float64Array(COUNTERS.length * this.days);
  }

  /** The counter's value on each day, a view of the table. */
  column(counter: Counter): Float64Array {
    const start = COUNTERS.indexOf(counter) * this.days;
    return this.values.subarray(start, start + this.days);
  }

  /** Adds `sums` to the row of `day`, field by field: this runs for every phone and day of every report. */
  add(day: EpochDay, sums: Omit<DayTotals, 'day'>): void {
    const { values, days } = this;
    let at = day - this.from;
    values[at] = (values[at] as number) + sums.calls;
    at += days;
    values[at] = (values[at] as number) + sums.logEvents;
    at += days;
    values[at] = (values[at] as number) + sums.loops;
    at += days;
    values[at] = (values[at] as number) + sums.formItems;
    at += days;
    values[at] = (values[at] as number) + sums.durationMs;
    at += days;
    values[at] = (values[at] as number) + sums.transfers;
    at += days;
    values[at] = (values[at] as number) + sums.transferMs;
    at += days;
    values[at] = (values[at] as number) + sums.jsErrors;
    at += days;
    values[at] = (values[at] as number) + sums.fetchErrors;
    at += days;
    values[at] = (values[at] as number) + sums.pageLoads;
    at += days;
    values[at] = (values[at] as number) + sums.pageLoadMs;
  }
}
