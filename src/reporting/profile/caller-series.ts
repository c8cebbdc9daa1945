import { readPeriodTotals } from '../series/period-totals';
import { countSeries, seriesBodySchema } from '../series/representation';
import type { SeriesDefinition } from '../series/series-report';

/** Four segments: told from the geographic report, which has three. */
export const CALLER_PROFILE_PATH = '/profile/:start/:end/:period/:phone';

/** The caller profile's JSON body, the series below. */
export const callerProfileBodySchema = seriesBodySchema('CallerProfileReport', {
  calls: countSeries('Calls'),
  callers: countSeries('Distinct callers over the whole period (calls without a caller not counted)'),
});

/**
 * Caller profile (specification.md §2.4): calls, and distinct callers over each whole period, across the
 * numbers in scope (a caller who calls on Monday and Friday counts once in that week).
 */
export const callerProfileSeries: SeriesDefinition = async (source) => {
  const [periods, callers] = await Promise.all([
    readPeriodTotals(source),
    source.calls.distinctCallers(source.scope, source.spans),
  ]);
  return [
    ['calls', periods.calls],
    ['callers', callers],
  ];
};
