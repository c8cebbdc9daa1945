import { DateTime } from 'luxon';
import request from 'supertest';
import { authenticate, type Credentials } from './reporting';

/** One account of a running server, and its temporary credentials. */
export interface ReportingAccount {
  readonly url: string;
  readonly credentials: Credentials;
}

export async function reportingAccount(url: string, tool: string, login: string, password: string): Promise<ReportingAccount> {
  return { url, credentials: await authenticate(url, { tool, login, password }) };
}

type SeriesReport = Record<string, Record<string, number>>;

const PERIODS = ['day', 'week', 'month'] as const;
const RESOURCES = ['volume', 'events', 'performance', 'profile'] as const;
/** Sums of whole counts and their ratios: docs/mirror.md says these are exact over any period and for ALL. */
const EXACT_EVERYWHERE = new Set([
  'calls',
  'log_events',
  'loops',
  'loops_per_call',
  'form_items',
  'average_form_items',
  'transfers',
  'js_errors',
  'js_errors_per_call',
  'fetch_errors',
  'fetch_errors_per_call',
]);
const MINUTES = new Set(['call_minutes', 'transfer_minutes']);

async function read(account: ReportingAccount, path: string): Promise<unknown> {
  const response = await request(account.url).get(path).auth(account.credentials.login, account.credentials.password);
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.text}`);
  return response.body as unknown;
}

/** The period (its key) that holds a day: the last period key not after the day's. */
function periodOf(dayKey: number, periodKeys: readonly number[]): number {
  let held = periodKeys[0] ?? dayKey;
  for (const key of periodKeys) if (key <= dayKey) held = key;
  return held;
}

/** The range cut at the ends of months, as `ivr-reporting mirror` reads the geographic and flow reports by default. */
function monthsOf(start: string, end: string): { start: string; end: string }[] {
  const months: { start: string; end: string }[] = [];
  for (let day = DateTime.fromFormat(start, 'yyyyMMdd', { zone: 'UTC' }); day.toFormat('yyyyMMdd') <= end; day = day.plus({ months: 1 }).startOf('month')) {
    const last = day.endOf('month').toFormat('yyyyMMdd');
    months.push({ start: day.toFormat('yyyyMMdd'), end: last < end ? last : end });
  }
  return months;
}

/**
 * How distinct callers over more than a day are compared: `exact` per number over the range's weeks and
 * months and each month's (ALL between the source's figure and the numbers' sum); `within days`, over
 * ranges the mirror did not read its periods over, between the busiest day's and the days' sum.
 */
type CallerCheck = 'exact' | 'within days';

/** Each number's day series of the source, for the bounds of the figures that are not exact. */
type DaySeries = Map<string, SeriesReport>;

interface DayEntry {
  readonly key: string;
  readonly series: Record<string, number>;
  readonly calls: number;
}

interface Bound {
  readonly low: number;
  readonly high: number;
}

/** The stated bound of a series that is not exact, from the source's own figures of each number and day. */
function boundOf(name: string, sourceValue: number, days: readonly DayEntry[], callers: CallerCheck, allDays: readonly DayEntry[]): Bound {
  const withCalls = days.filter((day) => day.calls > 0);
  const high = days.reduce((sum, day) => sum + (day.series.callers ?? 0), 0);
  if (name === 'callers' && callers === 'exact') return { low: sourceValue, high };
  if (name === 'callers') {
    // Each of the mirror's days has the source's callers (ALL's too): at least the busiest day's.
    const busiest = (entries: readonly DayEntry[]) => Math.max(0, ...entries.map((day) => day.series.callers ?? 0));
    return { low: allDays.length > 0 ? busiest(allDays) : busiest(days), high };
  }
  if (MINUTES.has(name)) {
    const slack = 0.005 * withCalls.length + 0.005 + 1e-9;
    return { low: sourceValue - slack, high: sourceValue + slack };
  }
  const averages = withCalls.map((day) => day.series[name] ?? 0);
  if (averages.length === 0) return { low: 0, high: 0 };
  return { low: Math.min(...averages) - 0.005, high: Math.max(...averages) + 0.005 };
}

/**
 * Every report of `source` over the range, per number and for ALL, by day, week and month, against the
 * same report of `mirror`: a figure docs/mirror.md calls exact must be equal, another within its bound.
 * The geographic and flow reports are compared over the range and over each month of it, and each
 * number's caller profile by week and month over each month (CallerCheck).
 * Returns the differences in words; empty when none.
 */
export async function compareReports(
  source: ReportingAccount,
  mirror: ReportingAccount,
  phones: readonly string[],
  start: string,
  end: string,
  callers: CallerCheck = 'exact',
): Promise<string[]> {
  const differences: string[] = [];
  const daySeries = new Map<string, DaySeries>();
  for (const resource of RESOURCES) {
    const perNumber: DaySeries = new Map();
    for (const phone of [...phones, 'ALL']) perNumber.set(phone, (await read(source, `/api/${resource}/${start}/${end}/day/${phone}`)) as SeriesReport);
    daySeries.set(resource, perNumber);
  }
  for (const resource of RESOURCES) {
    for (const period of PERIODS) {
      for (const phone of [...phones, 'ALL']) {
        const path = `/api/${resource}/${start}/${end}/${period}/${phone}`;
        const theirs = (await read(source, path)) as SeriesReport;
        const ours = (await read(mirror, path)) as SeriesReport;
        const numbers = phone === 'ALL' ? phones : [phone];
        for (const [name, values] of Object.entries(theirs)) {
          const periodKeys = Object.keys(values).map(Number);
          for (const [key, value] of Object.entries(values)) {
            const mirrored = ours[name]?.[key];
            const exact = EXACT_EVERYWHERE.has(name) || (phone !== 'ALL' && (period === 'day' || (name === 'callers' && callers === 'exact')));
            if (exact) {
              if (mirrored !== value) differences.push(`${path} ${name} at ${key}: ${value} at the source, ${mirrored} mirrored`);
              continue;
            }
            const daysOf = (number: string): DayEntry[] => {
              const report = daySeries.get(resource)?.get(number) ?? {};
              return Object.keys(report.calls ?? {})
                .filter((dayKey) => periodOf(Number(dayKey), periodKeys) === Number(key))
                .map((dayKey) => ({
                  key: dayKey,
                  calls: report.calls?.[dayKey] ?? 0,
                  series: Object.fromEntries(Object.entries(report).map(([series, byDay]) => [series, byDay[dayKey] ?? 0])),
                }));
            };
            const days = numbers.flatMap(daysOf);
            const bound = boundOf(name, value, days, callers, phone === 'ALL' ? daysOf('ALL') : []);
            if (mirrored === undefined || mirrored < bound.low || mirrored > bound.high) {
              differences.push(`${path} ${name} at ${key}: ${mirrored} mirrored, outside ${bound.low}..${bound.high} (${value} at the source)`);
            }
          }
        }
      }
    }
  }
  const ranges = [{ start, end }, ...monthsOf(start, end)];
  // A number's distinct callers by week and by month are exact over each month too, where its weeks are cut.
  for (const phone of callers === 'exact' ? phones : []) {
    for (const range of monthsOf(start, end)) {
      for (const period of ['week', 'month']) {
        const path = `/api/profile/${range.start}/${range.end}/${period}/${phone}`;
        const [theirs, ours] = [await read(source, path), await read(mirror, path)];
        if (JSON.stringify(ours) !== JSON.stringify(theirs)) differences.push(`${path}: ${JSON.stringify(theirs)} at the source, ${JSON.stringify(ours)} mirrored`);
      }
    }
  }
  for (const phone of [...phones, 'ALL']) {
    const paths = ranges.flatMap((range) => [`/api/profile/${range.start}/${range.end}/${phone}`, `/api/path/${range.start}/${range.end}/${phone}`]);
    for (const path of paths) {
      const theirs = await read(source, path);
      const ours = await read(mirror, path);
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) differences.push(`${path}: ${JSON.stringify(theirs)} at the source, ${JSON.stringify(ours)} mirrored`);
    }
  }
  return differences;
}

/**
 * How many of ALL's distinct-caller figures differ between the two accounts, and over how many figures:
 * by day, week and month over the range, and by week over each month (ALL's periods the mirror plans).
 */
export async function allCallersDiffering(source: ReportingAccount, mirror: ReportingAccount, start: string, end: string): Promise<{ differing: number; of: number }> {
  const asked = [
    ...['day', 'week', 'month'].map((period) => `/api/profile/${start}/${end}/${period}/ALL`),
    ...monthsOf(start, end).map((month) => `/api/profile/${month.start}/${month.end}/week/ALL`),
  ];
  let [differing, of] = [0, 0];
  for (const path of asked) {
    const [theirs, ours] = [(await read(source, path)) as SeriesReport, (await read(mirror, path)) as SeriesReport];
    for (const [key, callers] of Object.entries(theirs.callers ?? {})) {
      of += 1;
      if (ours.callers?.[key] !== callers) differing += 1;
    }
  }
  return { differing, of };
}
