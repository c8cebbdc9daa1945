import { ratios, readPeriodTotals } from '../series/period-totals';
import { countSeries, ratioSeries, seriesBodySchema } from '../series/representation';
import type { SeriesDefinition } from '../series/series-report';

export const EVENTS_PATH = '/events/:start/:end/:period/:phone';

/** The event tracker's JSON body, the series below. */
export const eventsBodySchema = seriesBodySchema('EventTrackerReport', {
  calls: countSeries('Calls'),
  log_events: countSeries('Log events of those calls'),
  loops_per_call: ratioSeries('Loops per call'),
  form_items: countSeries('Form items of those calls'),
  loops: countSeries('Loops of those calls'),
  average_form_items: ratioSeries('Form items per call'),
});

/** The event tracker's six series, in the order of specification.md §2.4. */
export const eventSeries: SeriesDefinition = async (source) => {
  const periods = await readPeriodTotals(source);
  return [
    ['calls', periods.calls],
    ['log_events', periods.logEvents],
    ['loops_per_call', ratios(periods.loops, periods.calls)],
    ['form_items', periods.formItems],
    ['loops', periods.loops],
    ['average_form_items', ratios(periods.formItems, periods.calls)],
  ];
};
