import type { DayTotals } from '../../src/storage/store';

/** A day's totals with every counter not given at 0, as the stores report a day of version-1 calls. */
export const dayTotals = (given: Partial<DayTotals> & Pick<DayTotals, 'day' | 'calls'>): DayTotals => ({
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
  ...given,
});
