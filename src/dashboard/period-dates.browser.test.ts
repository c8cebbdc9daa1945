import { DateTime } from 'luxon';
import request from 'supertest';
import type { WeekStart } from '../reporting/query/periods';
import type { RunningServer } from '../listen';
import { describeInBrowser, useBrowserTab, type BrowserTab } from '../../test/support/browser';
import { serve } from '../../test/support/http';
import { buildTestApp } from '../../test/support/test-app';

/** A Saturday, and a range over the clock changes of New York (11 March), London (25 March) and Auckland (1 April). */
const START = '2018-02-03';
const END = '2018-04-10';

/** From UTC−11 to UTC+14, with half-hour and 45-minute offsets, both hemispheres' summer time. */
const ZONES = [
  'Pacific/Pago_Pago',
  'Pacific/Honolulu',
  'America/New_York',
  'UTC',
  'Europe/London',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Pacific/Auckland',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
];

type Period = 'day' | 'week' | 'month';

interface Case {
  readonly zone: string;
  readonly period: Period;
  readonly weekStart: WeekStart;
}

/** The local start of the period holding `date`, as the server keys it (docs/specification.md §2.4). */
function periodStart(date: DateTime, period: Period, weekStart: WeekStart): DateTime {
  if (period === 'day') return date.startOf('day');
  if (period === 'month') return date.startOf('month');
  const monday = date.startOf('week');
  return weekStart === 'monday' ? monday : date.weekday === 7 ? date.startOf('day') : monday.minus({ days: 1 });
}

/** The server's keys for the range in `zone` and the local dates they start on, worked out with luxon. */
function keysAndDates({ zone, period, weekStart }: Case): { keys: number[]; dates: string[] } {
  const last = DateTime.fromISO(END, { zone });
  const keys: number[] = [];
  const dates: string[] = [];
  const first = periodStart(DateTime.fromISO(START, { zone }), period, weekStart);
  for (let start = first; start <= last; start = start.plus({ [`${period}s`]: 1 })) {
    keys.push(start.toSeconds());
    dates.push(start.toISODate() as string);
  }
  return { keys, dates };
}

const CASES: Case[] = ZONES.flatMap((zone) => [
  { zone, period: 'day', weekStart: 'monday' } as const,
  { zone, period: 'month', weekStart: 'monday' } as const,
  { zone, period: 'week', weekStart: 'monday' } as const,
  { zone, period: 'week', weekStart: 'sunday' } as const,
]);

let tab: BrowserTab;
let server: RunningServer;

/** The page's own dates.js, imported in the page, turns each case's keys into dates. */
async function datesShown(cases: readonly Case[]): Promise<string[][]> {
  const html = (await request(server.url).get('/')).text;
  const module = new URL((/src="([^"]+)\/app\.js"/.exec(html)?.[1] as string) + '/dates.js', `${server.url}/`).href;
  const inputs = cases.map((one) => ({ keys: keysAndDates(one).keys, period: one.period }));
  return tab.page.evaluate(
    async (address, all, start) => {
      const dates = (await import(address)) as {
        epochDayOf(isoDate: string): number;
        isoDateOf(epochDay: number): string;
        periodStartDays(keys: number[], period: string, startDay: number): number[];
      };
      return all.map(({ keys, period }) => dates.periodStartDays(keys, period, dates.epochDayOf(start)).map((day) => dates.isoDateOf(day)));
    },
    module,
    inputs,
    START,
  );
}

describeInBrowser('the dashboard reads period keys as local dates', () => {
  tab = useBrowserTab();

  beforeEach(async () => {
    server = await serve(buildTestApp().app);
    await tab.page.goto(`${server.url}/`);
  });

  afterEach(() => server.close());

  test.each(ZONES)('for an account in %s, by day, month and Monday or Sunday weeks, seen from a browser in that zone', async (zone) => {
    await tab.page.emulateTimezone(zone);
    const cases = CASES.filter((one) => one.zone === zone);
    expect(await datesShown(cases)).toEqual(cases.map((one) => keysAndDates(one).dates));
  });

  test('whatever zone the browser is in, but for Sunday weeks 10 hours or more west of UTC', async () => {
    await tab.page.emulateTimezone('Asia/Tokyo');
    const cases = CASES.filter((one) => !(one.weekStart === 'sunday' && ['Pacific/Pago_Pago', 'Pacific/Honolulu'].includes(one.zone)));
    expect(await datesShown(cases)).toEqual(cases.map((one) => keysAndDates(one).dates));
  });
});
