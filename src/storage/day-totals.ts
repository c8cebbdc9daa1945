import type { EpochDay } from '../time/calendar';
import type { DayTotals } from './store';

/** The sums of a day, or of any span of days, without the day. */
export type Sums = { -readonly [Field in Exclude<keyof DayTotals, 'day'>]: number };

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

export const emptyDayTotals = (day: EpochDay): Sums & { readonly day: EpochDay } => ({ day, ...zeroSums() });

/** Adds a day's sums to `sum`, field by field rather than over a list of names: this runs for every phone and day of every report. */
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
