import { addSums, zeroSums } from '../../storage/day-totals';
import type { DayTotals } from '../../storage/store';
import type { PeriodSpan } from '../query/periods';
import type { SeriesSource } from './series-report';

/** The sums of the calls of one period. */
export type PeriodTotals = Omit<DayTotals, 'day'>;

/**
 * Folds daily totals (sorted by day) into the periods, one total per period, zero for a period without
 * calls. Costs O(periods + days with data), never a pass over individual calls.
 */
export function totalsPerPeriod(spans: readonly PeriodSpan[], days: readonly DayTotals[]): PeriodTotals[] {
  let next = 0;
  return spans.map((span) => {
    const sum = zeroSums();
    while (next < days.length && (days[next] as DayTotals).day < span.first) next += 1;
    for (; next < days.length && (days[next] as DayTotals).day <= span.last; next += 1) {
      addSums(sum, days[next] as DayTotals);
    }
    return sum;
  });
}

/**
 * part / whole rounded half up to two decimals, 0 when whole is 0. Parts and wholes are integers (counts,
 * milliseconds), so a half is exact in binary and rounds the same whatever order the calls were summed in.
 */
export function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part * 100) / whole) / 100;
}

/** The totals of each period of a series query, from the daily rollups of the numbers in scope. */
export async function readPeriodTotals(source: SeriesSource): Promise<PeriodTotals[]> {
  const days = await source.calls.dailyTotals(source.scope, source.query.from, source.query.to);
  return totalsPerPeriod(source.spans, days);
}
