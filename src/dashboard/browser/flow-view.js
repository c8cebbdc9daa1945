import { element } from './dom.js';
import { describeQuery } from './query.js';
import { renderTable } from './table.js';

const COLUMNS = [
  { name: 'page', label: 'Page' },
  { name: 'form', label: 'Form' },
  { name: 'item', label: 'Item' },
  { name: 'visits', label: 'Visits', numeric: true, bar: true },
  { name: 'filled', label: 'Filled', numeric: true },
  { name: 'nomatch', label: 'No match', numeric: true },
  { name: 'noinput', label: 'No input', numeric: true },
  { name: 'transfer', label: 'Transfer', numeric: true },
  { name: 'disconnect', label: 'Disconnect', numeric: true },
];

/**
 * The diagnostic flow as a funnel: per application, its form items in the API's order (most visited
 * first), visits drawn as bars beside the counters. The CSV holds every application's rows, each named.
 */
export function flowView(report, answer, query) {
  const applications = Object.entries(answer.applications);
  const scope = describeQuery(query, { withPeriod: false });
  const tables = applications.map(([application, entries]) =>
    renderTable({
      title: `Form items of ${application}: ${scope}`,
      columns: COLUMNS,
      rows: entries.map((entry) => COLUMNS.map((column) => entry[column.name])),
    }),
  );
  const empty = element('p', { class: 'empty' }, ['No call went through a form item in this range.']);
  return {
    node: element('div', { class: 'flow' }, applications.length === 0 ? [empty] : tables),
    csv: {
      columns: ['application', ...COLUMNS.map((column) => column.name)],
      rows: applications.flatMap(([application, entries]) =>
        entries.map((entry) => [application, ...COLUMNS.map((column) => entry[column.name])]),
      ),
    },
    destroy: () => {},
  };
}
