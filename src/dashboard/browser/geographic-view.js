import { element } from './dom.js';
import { countryText, stateText } from './places.js';
import { describeQuery } from './query.js';
import { renderTable } from './table.js';

const COLUMNS = [
  { name: 'place', label: 'State or country' },
  { name: 'calls', label: 'Calls', numeric: true, bar: true },
];

/** The CSV keeps the API's codes, a row per state or country, as the API lists them. */
const CSV_COLUMNS = ['country', 'state', 'calls'];

const US = 'US';
const OTHER_COUNTRIES = 'Other countries';

/**
 * The places in the API's two groups: the US, its states, DC and toll-free numbers under it, then the
 * other countries. The country is the group's heading, written once, not repeated on each state's row.
 */
function groupsOf(places) {
  const groups = [
    { heading: countryText(US), places: places.filter(({ country }) => country === US), shown: ({ state }) => stateText(state) },
    { heading: OTHER_COUNTRIES, places: places.filter(({ country }) => country !== US), shown: ({ country }) => countryText(country) },
  ].filter((group) => group.places.length > 0);
  return {
    table: groups.map(({ heading, places: grouped, shown }) => ({ heading, rows: grouped.map((place) => [shown(place), place.calls]) })),
    csv: groups.flatMap((group) => group.places.map(({ country, state, calls }) => [country, state, calls])),
  };
}

/**
 * The geographic report as tables: the places with calls, most first within their group (the API's
 * order on a tie: states and DC, toll-free, then countries), and folded below them the places with none,
 * which the API lists too (every state, zero-filled) and which would otherwise push the largest out of
 * sight. Places are shown by code and name (places.js). Every row is on the page, which scrolls: a
 * region of its own would show a few dozen places a dozen at a time.
 */
export function geographicView(report, answer, query) {
  const places = [
    ...Object.entries(answer.US).map(([state, calls]) => ({ country: US, state, calls })),
    ...answer.NON_US.map(({ country, calls }) => ({ country, state: '', calls })),
  ];
  const placed = groupsOf(places.filter(({ calls }) => calls > 0).sort((a, b) => b.calls - a.calls));
  const none = groupsOf(places.filter(({ calls }) => calls === 0));
  const scope = describeQuery(query, { withPeriod: false });
  const tables = [renderTable({ title: `${report.title}: ${scope}`, columns: COLUMNS, groups: placed.table })];
  if (none.csv.length > 0) {
    const label = none.csv.length === 1 ? '1 place with no calls' : `${none.csv.length} places with no calls`;
    tables.push(
      element('details', { class: 'no-calls' }, [
        element('summary', {}, [label]),
        renderTable({ title: `${report.title}, places with no calls: ${scope}`, columns: COLUMNS, groups: none.table }),
      ]),
    );
  }
  return {
    node: element('div', { class: 'geographic' }, tables),
    csv: { columns: CSV_COLUMNS, rows: [...placed.csv, ...none.csv] },
    destroy: () => {},
  };
}
