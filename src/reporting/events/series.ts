import { ratio, readPeriodTotals } from '../series/period-totals';
import type { SeriesDefinition } from '../series/series-report';

export const EVENTS_PATH = '/events/:start/:end/:period/:phone';

/** The event tracker's six series, in the order of section 2.2's table. */
export const eventSeries: SeriesDefinition = async (source) => {
  const periods = await readPeriodTotals(source);
  return [
    ['calls', periods.map((period) => period.calls)],
    ['log_events', periods.map((period) => period.logEvents)],
    ['loops_per_call', periods.map((period) => ratio(period.loops, period.calls))],
    ['form_items', periods.map((period) => period.formItems)],
    ['loops', periods.map((period) => period.loops)],
    ['average_form_items', periods.map((period) => ratio(period.formItems, period.calls))],
  ];
};
