import { element } from './dom.js';
import { countryText, stateText } from './places.js';
import { describeQuery } from './query.js';
import { renderTable } from './table.js';

const COLUMNS = [
  { name: 'country', label: 'Country', shown: countryText },
  { name: 'state', label: 'State', shown: stateText },
  { name: 'calls', label: 'Calls', numeric: true, bar: true },
];

/**
 * The geographic report as tables: the places with calls, most first (the API's order on a tie: US
 * states and DC, toll-free, then other countries), and folded below them the places with none, which the
 * API lists too (every state, zero-filled) and which would otherwise push the largest out of sight.
 * Places are shown by code and name (places.js); the CSV keeps the API's codes.
 */
export function geographicView(report, answer, query) {
  const rows = [
    ...Object.entries(answer.US).map(([state, calls]) => ['US', state, calls]),
    ...answer.NON_US.map(({ country, calls }) => [country, '', calls]),
  ];
  const placed = rows.filter(([, , calls]) => calls > 0).sort((a, b) => b[2] - a[2]);
  const none = rows.filter(([, , calls]) => calls === 0);
  const scope = describeQuery(query, { withPeriod: false });
  const tables = [renderTable({ title: `${report.title}: ${scope}`, columns: COLUMNS, rows: placed })];
  if (none.length > 0) {
    const label = none.length === 1 ? '1 place with no calls' : `${none.length} places with no calls`;
    tables.push(
      element('details', { class: 'no-calls' }, [
        element('summary', {}, [label]),
        renderTable({ title: `${report.title}, places with no calls: ${scope}`, columns: COLUMNS, rows: none }),
      ]),
    );
  }
  return {
    node: element('div', {}, tables),
    csv: { columns: COLUMNS.map((column) => column.name), rows: [...placed, ...none] },
    destroy: () => {},
  };
}
