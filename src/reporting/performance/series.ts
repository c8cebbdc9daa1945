import { ratios, readPeriodTotals } from '../series/period-totals';
import { countSeries, ratioSeries, seriesBodySchema } from '../series/representation';
import type { SeriesDefinition } from '../series/series-report';

export const PERFORMANCE_PATH = '/performance/:start/:end/:period/:phone';

/** Performance's JSON body, the series below. */
export const performanceBodySchema = seriesBodySchema('PerformanceReport', {
  calls: countSeries('Calls'),
  js_errors: countSeries('Script errors raised while those calls ran'),
  js_errors_per_call: ratioSeries('Script errors per call'),
  fetch_errors: countSeries('Documents or resources that failed to load'),
  fetch_errors_per_call: ratioSeries('Fetch errors per call'),
  average_page_load: ratioSeries('Average seconds to load a document (page_load_seconds / page_loads)'),
});

const MS_PER_SECOND = 1_000;

/** Performance (specification.md §2.4): script and fetch errors, per call, and the average page load in seconds. */
export const performanceSeries: SeriesDefinition = async (source) => {
  const periods = await readPeriodTotals(source);
  return [
    ['calls', periods.calls],
    ['js_errors', periods.jsErrors],
    ['js_errors_per_call', ratios(periods.jsErrors, periods.calls)],
    ['fetch_errors', periods.fetchErrors],
    ['fetch_errors_per_call', ratios(periods.fetchErrors, periods.calls)],
    ['average_page_load', ratios(periods.pageLoadMs, periods.pageLoads.map((loads) => loads * MS_PER_SECOND))],
  ];
};
