import { DateTime } from 'luxon';
import type { DiagnosticFlow, Geographic } from '../oracle/expected';

/**
 * What the dashboard should show for an API answer, worked out here independently of the page's code:
 * period keys read as local dates with luxon in the account's time zone, CSV quoted as RFC 4180 says.
 */

export type SeriesAnswer = Record<string, Record<string, number>>;
export type GeographicAnswer = Geographic;
export type FlowAnswer = Extract<DiagnosticFlow, { status: 200 }>['body'];

/** A table as the page shows it: the title, column headers and each row's cells, as text. */
export interface ShownTable {
  title: string;
  columns: string[];
  rows: string[][];
}

export const FLOW_FIELDS = ['page', 'form', 'item', 'visits', 'filled', 'nomatch', 'noinput', 'transfer', 'disconnect'] as const;

const keysOf = (answer: SeriesAnswer): string[] => Object.keys(Object.values(answer)[0] ?? {}).sort((a, b) => Number(a) - Number(b));

export const localDate = (key: string, timeZone: string): string =>
  DateTime.fromSeconds(Number(key), { zone: timeZone }).toISODate() as string;

export function seriesRows(answer: SeriesAnswer, timeZone: string): string[][] {
  return keysOf(answer).map((key) => [localDate(key, timeZone), ...Object.keys(answer).map((name) => String(answer[name]![key]))]);
}

/** The end of each chart's accessible name (its label comes first): the span and the range of its values. */
export function chartNameEndings(answer: SeriesAnswer, period: string, timeZone: string): string[] {
  const dates = keysOf(answer).map((key) => localDate(key, timeZone));
  return Object.values(answer).map((series) => {
    const values = Object.values(series);
    const span = `${dates.length} periods from ${dates[0]} to ${dates.at(-1)}`;
    return ` by ${period}, ${span}: lowest ${Math.min(...values)}, highest ${Math.max(...values)}. The numbers are in the table.`;
  });
}

/** The US states and DC by their postal codes (USPS), the names the dashboard shows beside them. */
const US_STATE_NAMES: Record<string, string> = Object.fromEntries(
  (
    'AL Alabama|AK Alaska|AZ Arizona|AR Arkansas|CA California|CO Colorado|CT Connecticut|DC District of Columbia|' +
    'DE Delaware|FL Florida|GA Georgia|HI Hawaii|ID Idaho|IL Illinois|IN Indiana|IA Iowa|KS Kansas|KY Kentucky|' +
    'LA Louisiana|ME Maine|MD Maryland|MA Massachusetts|MI Michigan|MN Minnesota|MS Mississippi|MO Missouri|' +
    'MT Montana|NE Nebraska|NV Nevada|NH New Hampshire|NJ New Jersey|NM New Mexico|NY New York|NC North Carolina|' +
    'ND North Dakota|OH Ohio|OK Oklahoma|OR Oregon|PA Pennsylvania|RI Rhode Island|SC South Carolina|' +
    'SD South Dakota|TN Tennessee|TX Texas|UT Utah|VT Vermont|VA Virginia|WA Washington|WV West Virginia|' +
    'WI Wisconsin|WY Wyoming'
  )
    .split('|')
    .map((entry) => [entry.slice(0, 2), entry.slice(3)]),
);

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** A country as the dashboard shows it: `CA - Canada`, and ZZ by what the server means by it. */
export const countryShown = (code: string): string =>
  `${code} - ${code === 'ZZ' ? 'unknown: numbers nothing can place' : countryNames.of(code)}`;

/** A state as the dashboard shows it: `CA - California`; `US Toll-Free` and a country's empty state as they are. */
export const stateShown = (code: string): string => (code in US_STATE_NAMES ? `${code} - ${US_STATE_NAMES[code]}` : code);

type Place = [country: string, state: string, calls: number];

/**
 * The places with calls, most first (ties in the API's order: states, toll-free, countries), then those
 * with none; each table's places in two groups, the US's first, then the other countries; as codes.
 */
function geographicGroups(answer: GeographicAnswer): { us: Place[]; others: Place[] }[] {
  const rows: Place[] = [
    ...Object.entries(answer.US).map(([state, calls]): Place => ['US', state, calls]),
    ...answer.NON_US.map(({ country, calls }): Place => [country, '', calls]),
  ];
  const split = (places: Place[]) => ({ us: places.filter(([country]) => country === 'US'), others: places.filter(([country]) => country !== 'US') });
  const placed = split(rows.filter(([, , calls]) => calls > 0).sort((a, b) => b[2] - a[2]));
  const none = split(rows.filter(([, , calls]) => calls === 0));
  return none.us.length + none.others.length > 0 ? [placed, none] : [placed];
}

/**
 * The dashboard's geographic tables as shown: a heading row per group, the US's ("US - United States")
 * above its states by code and name, "Other countries" above the countries by code and name.
 */
export function geographicTables(answer: GeographicAnswer): string[][][] {
  return geographicGroups(answer).map(({ us, others }) => [
    ...(us.length > 0 ? [[countryShown('US')], ...us.map(([, state, calls]) => [stateShown(state), String(calls)])] : []),
    ...(others.length > 0 ? [['Other countries'], ...others.map(([country, , calls]) => [countryShown(country), String(calls)])] : []),
  ]);
}

export function flowTables(answer: FlowAnswer, scope: string): { title: string; rows: string[][] }[] {
  return Object.entries(answer.applications).map(([application, entries]) => ({
    title: `Form items of ${application}: ${scope}`,
    rows: entries.map((entry) => FLOW_FIELDS.map((field) => String(entry[field]))),
  }));
}

/** RFC 4180 quoting, after an apostrophe before a text (not a number) that a spreadsheet would run as a formula. */
const csvField = (cell: string): string => {
  const text = /^[=+\-@\t\r]/.test(cell) && !Number.isFinite(Number(cell)) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export const csv = (lines: readonly (readonly string[])[]): string => lines.map((line) => `${line.map(csvField).join(',')}\r\n`).join('');

export function seriesCsv(answer: SeriesAnswer, timeZone: string): string {
  return csv([['period_start', ...Object.keys(answer)], ...seriesRows(answer, timeZone)]);
}

/** The geographic CSV: the API's codes, not the names the page shows beside them, a row per place, in the page's order. */
export function geographicCsv(answer: GeographicAnswer): string {
  const rows = geographicGroups(answer)
    .flatMap(({ us, others }) => [...us, ...others])
    .map(([country, state, calls]) => [country, state, String(calls)]);
  return csv([['country', 'state', 'calls'], ...rows]);
}

export function flowCsv(answer: FlowAnswer): string {
  const rows = Object.entries(answer.applications).flatMap(([application, entries]) =>
    entries.map((entry) => [application, ...FLOW_FIELDS.map((field) => String(entry[field]))]),
  );
  return csv([['application', ...FLOW_FIELDS], ...rows]);
}
