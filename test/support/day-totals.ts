import { COUNTERS, zeroSums, type DayTotalsTable, type Sums } from '../../src/storage/day-totals';
import type { DayTotals, PhoneScope, Store } from '../../src/storage/store';
import type { EpochDay } from '../../src/time/calendar';

const emptyDayTotals = (day: EpochDay): Sums & { readonly day: EpochDay } => ({ day, ...zeroSums() });

/** A day's totals with every counter not given at 0, as the stores report a day of version-1 calls. */
export const dayTotals = (given: Partial<DayTotals> & Pick<DayTotals, 'day' | 'calls'>): DayTotals => ({ ...emptyDayTotals(given.day), ...given });

/** The days of a table that have calls, each as its DayTotals, in day order. */
export function daysWithCalls(table: DayTotalsTable): DayTotals[] {
  const days: DayTotals[] = [];
  for (let row = 0; row < table.days; row += 1) {
    const day = emptyDayTotals(table.from + row);
    for (const counter of COUNTERS) day[counter] = table.column(counter)[row] as number;
    if (day.calls > 0) days.push(day);
  }
  return days;
}

/** The store's daily totals over the numbers in scope as the days that have calls. */
export const dailyTotals = async (store: Store, scope: PhoneScope, from: EpochDay, to: EpochDay): Promise<DayTotals[]> =>
  daysWithCalls(await store.calls.dailyTotals(scope, from, to));
