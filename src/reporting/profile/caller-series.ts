import { readPeriodTotals } from '../series/period-totals';
import type { SeriesDefinition } from '../series/series-report';

/** Four segments: told from the geographic report, which has three. */
export const CALLER_PROFILE_PATH = '/profile/:start/:end/:period/:phone';

/**
 * Caller profile (reference-resources.md): calls, and distinct callers over each whole period, across the
 * numbers in scope (a caller who calls on Monday and Friday counts once in that week).
 */
export const callerProfileSeries: SeriesDefinition = async (source) => {
  const [periods, callers] = await Promise.all([
    readPeriodTotals(source),
    source.calls.distinctCallers(source.phones, source.spans),
  ]);
  return [
    ['calls', periods.map((period) => period.calls)],
    ['callers', callers],
  ];
};
