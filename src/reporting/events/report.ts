import type { DayTotals } from '../../storage/store';
import { localDayStartSeconds } from '../../time/calendar';
import type { PeriodSpan } from './periods';

/** The six series of section 2.2, aligned by position with `keys`. */
export interface EventReport {
  /** Unix seconds of each period's local start. */
  readonly keys: readonly number[];
  readonly calls: readonly number[];
  readonly logEvents: readonly number[];
  readonly loopsPerCall: readonly number[];
  readonly formItems: readonly number[];
  readonly loops: readonly number[];
  readonly averageFormItems: readonly number[];
}

/** part / whole rounded half up to two decimals, computed on integers to avoid binary rounding. */
function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part * 100) / whole) / 100;
}

/**
 * Folds daily totals (sorted by day) into the periods. Costs O(periods + days with data), never a pass
 * over individual calls.
 */
export function buildEventReport(spans: readonly PeriodSpan[], timeZone: string, days: readonly DayTotals[]): EventReport {
  const report = {
    keys: [] as number[],
    calls: [] as number[],
    logEvents: [] as number[],
    loopsPerCall: [] as number[],
    formItems: [] as number[],
    loops: [] as number[],
    averageFormItems: [] as number[],
  };
  let next = 0;
  for (const span of spans) {
    let calls = 0;
    let logEvents = 0;
    let loops = 0;
    let formItems = 0;
    while (next < days.length && (days[next] as DayTotals).day < span.first) next += 1;
    for (; next < days.length && (days[next] as DayTotals).day <= span.last; next += 1) {
      const day = days[next] as DayTotals;
      calls += day.calls;
      logEvents += day.logEvents;
      loops += day.loops;
      formItems += day.formItems;
    }
    report.keys.push(localDayStartSeconds(span.start, timeZone));
    report.calls.push(calls);
    report.logEvents.push(logEvents);
    report.loopsPerCall.push(ratio(loops, calls));
    report.formItems.push(formItems);
    report.loops.push(loops);
    report.averageFormItems.push(ratio(formItems, calls));
  }
  return report;
}
