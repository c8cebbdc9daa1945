import { COUNTERS, type Counter, type DayTotalsTable } from '../../storage/day-totals';
import type { PeriodSpan } from '../query/periods';
import type { SeriesSource } from './series-report';

/** The sums of the calls of each period: per counter, a value per period, in the periods' order. */
export type PeriodTotals = Readonly<Record<Counter, Float64Array>>;

/**
 * Folds daily totals into the periods, zero for a period without calls. Periods of one day each (a daily
 * report) are the days' own columns, nothing copied; costs O(days) per counter, never a pass over calls.
 */
export function totalsPerPeriod(spans: readonly PeriodSpan[], days: DayTotalsTable): PeriodTotals {
  const oneDayEach = spans.length === days.days;
  const totals: Partial<Record<Counter, Float64Array>> = {};
  for (const counter of COUNTERS) {
    const column = days.column(counter);
    if (oneDayEach) {
      totals[counter] = column;
      continue;
    }
    const sums = new Float64Array(spans.length);
    for (let index = 0; index < spans.length; index += 1) {
      const { first, last } = spans[index] as PeriodSpan;
      let sum = 0;
      for (let row = first - days.from; row <= last - days.from; row += 1) sum += column[row] as number;
      sums[index] = sum;
    }
    totals[counter] = sums;
  }
  return totals as PeriodTotals;
}

/**
 * part / whole rounded half up to two decimals, 0 when whole is 0. Parts and wholes are integers (counts,
 * milliseconds), so a half is exact in binary and rounds the same whatever order the calls were summed in.
 */
export function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part * 100) / whole) / 100;
}

/** The ratio of each period's part to its whole (a column, or one divisor for every period). */
export function ratios(parts: Float64Array, wholes: Float64Array | number): Float64Array {
  const values = new Float64Array(parts.length);
  for (let index = 0; index < parts.length; index += 1) {
    values[index] = ratio(parts[index] as number, typeof wholes === 'number' ? wholes : (wholes[index] as number));
  }
  return values;
}

/** The totals of each period of a series query, from the daily rollups of the numbers in scope. */
export async function readPeriodTotals(source: SeriesSource): Promise<PeriodTotals> {
  return totalsPerPeriod(source.spans, await source.calls.dailyTotals(source.scope, source.query.from, source.query.to));
}
