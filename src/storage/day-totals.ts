import type { EpochDay } from '../time/calendar';

/** Sums over the calls of one local day; an absent counter of a call counts 0. */
export interface DayTotals {
  readonly day: EpochDay;
  readonly calls: number;
  readonly logEvents: number;
  readonly loops: number;
  readonly formItems: number;
  readonly durationMs: number;
  readonly transfers: number;
  readonly transferMs: number;
  readonly jsErrors: number;
  readonly fetchErrors: number;
  readonly pageLoads: number;
  readonly pageLoadMs: number;
}

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

/** The counters in the order of a DayTotalsTable's columns (and of a day's sums in the memory store's chunks). */
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
}
