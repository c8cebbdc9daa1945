import { element } from './dom.js';
import { describeQuery } from './query.js';
import { renderTable } from './table.js';

const COLUMNS = [
  { name: 'country', label: 'Country' },
  { name: 'state', label: 'State' },
  { name: 'calls', label: 'Calls', numeric: true, bar: true },
];

/** The geographic report: the US states and DC (zero-filled, then toll-free), then every other country, as one table. */
export function geographicView(report, answer, query) {
  const rows = [
    ...Object.entries(answer.US).map(([state, calls]) => ['US', state, calls]),
    ...answer.NON_US.map(({ country, calls }) => [country, '', calls]),
  ];
  const table = renderTable({ title: `${report.title}: ${describeQuery(query, { withPeriod: false })}`, columns: COLUMNS, rows });
  return {
    node: element('div', {}, [table]),
    csv: { columns: COLUMNS.map((column) => column.name), rows },
    destroy: () => {},
  };
}
