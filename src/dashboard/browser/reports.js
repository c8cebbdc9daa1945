import { pathDateOf } from './dates.js';

/**
 * The raw-data resources of the reporting API (docs/reporting-resources.md), one report each: the
 * series resources by period, the geographic report and the diagnostic flow over the whole range.
 */
export const REPORTS = [
  { id: 'volume', title: 'Call volume', resource: 'volume', view: 'series', about: 'Calls and transfers, and their minutes.' },
  { id: 'events', title: 'Event tracker', resource: 'events', view: 'series', about: 'Calls, log events, loops and form items.' },
  {
    id: 'performance',
    title: 'Performance',
    resource: 'performance',
    view: 'series',
    about: 'Script and fetch errors, and how long pages took to load.',
  },
  { id: 'profile', title: 'Caller profile', resource: 'profile', view: 'series', about: 'Calls and the distinct callers who made them.' },
  {
    id: 'geographic',
    title: 'Where callers are from',
    resource: 'profile',
    view: 'geographic',
    about: 'Calls by the US state or the country of the caller’s number, over the whole range.',
  },
  {
    id: 'flow',
    title: 'Diagnostic flow',
    resource: 'path',
    view: 'flow',
    about: 'The form items callers went through, most visited first, over the whole range.',
  },
];

export const hasPeriod = (report) => report.view === 'series';

/** The report's address, relative to the page so that a proxy may serve the site under a path prefix. */
export function reportPath(report, query) {
  const period = hasPeriod(report) ? [query.period] : [];
  return ['api', report.resource, pathDateOf(query.start), pathDateOf(query.end), ...period, encodeURIComponent(query.phone)].join('/');
}

const SERIES_LABELS = {
  calls: 'Calls',
  call_minutes: 'Call minutes',
  transfers: 'Transfers',
  transfer_minutes: 'Transfer minutes',
  log_events: 'Log events',
  loops_per_call: 'Loops per call',
  form_items: 'Form items',
  loops: 'Loops',
  average_form_items: 'Form items per call',
  js_errors: 'Script errors',
  js_errors_per_call: 'Script errors per call',
  fetch_errors: 'Fetch errors',
  fetch_errors_per_call: 'Fetch errors per call',
  average_page_load: 'Average page load (seconds)',
  callers: 'Distinct callers',
};

/** A series' name for people; a series this page does not know yet goes by the API's name. */
export const seriesLabel = (name) => SERIES_LABELS[name] ?? name;
