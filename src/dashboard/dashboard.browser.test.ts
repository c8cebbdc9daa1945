import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CDPSession, Page } from 'puppeteer-core';
import request from 'supertest';
import type { RunningServer } from '../listen';
import { addCalls, authenticate, call, type Credentials } from '../../test/support/reporting';
import { describeInBrowser, screenshotPath, useBrowserTab, type BrowserTab } from '../../test/support/browser';
import { serve } from '../../test/support/http';
import { addAccount, buildTestApp, type TestApp } from '../../test/support/test-app';
import {
  chartNameEndings,
  flowCsv,
  flowTables,
  geographicCsv,
  geographicTables,
  localDate,
  seriesCsv,
  seriesRows,
  type FlowAnswer,
  type GeographicAnswer,
  type SeriesAnswer,
  type ShownTable,
} from '../../test/support/dashboard-expected';

const TIME_ZONE = 'America/New_York';
const PASSWORD = 'secret-password';
const PHONE = '18005550100';
const SECOND_PHONE = '18005550101';
const OTHER_ACCOUNTS_PHONE = '18005550199';
const FEBRUARY = { start: '2018-02-01', end: '2018-02-28' };
const SERIES_REPORTS = { volume: 'volume', events: 'events', performance: 'performance', profile: 'profile' } as const;

const START_APPLICATION = 'https://ivr.example.com/start.vxml';

const step = (page: string, form: string, item: string, counters: Record<string, number>, application = START_APPLICATION) => ({
  application,
  page,
  form,
  item,
  ...counters,
});

/** Calls of both numbers in February 2018 (New York), every version-2 field used, callers from four countries, and one just after. */
const CALLS = [
  call(PHONE, '2018-02-01T09:00:00-05:00', {
    log_events: 12,
    loops: 2,
    form_items: 3,
    caller: '+16175550123',
    duration_seconds: 61.5,
    transfers: 1,
    transfer_seconds: 45,
    js_errors: 1,
    page_loads: 3,
    page_load_seconds: 1.2,
    path: [step('main.vxml', 'main_menu', 'selection', { visits: 2, filled: 1, nomatch: 1 })],
  }),
  call(SECOND_PHONE, '2018-02-05T23:30:00-05:00', {
    log_events: 5,
    loops: 1,
    form_items: 2,
    caller: '2125550199',
    duration_seconds: 30,
    fetch_errors: 2,
    page_loads: 1,
    page_load_seconds: 0.4,
    path: [
      step('main.vxml', 'main_menu', 'selection', { visits: 1, filled: 1 }),
      step('agent.vxml', 'transfer', 'agent', { visits: 1, transfer: 1 }),
    ],
  }),
  call(PHONE, '2018-02-06T00:15:00-05:00', { caller: '+447700900123', duration_seconds: 12 }),
  call(PHONE, '2018-02-14T12:00:00-05:00', {
    log_events: 4,
    loops: 1,
    form_items: 1,
    caller: '8005550100',
    path: [step('pay.vxml', 'confirm', 'yes, "no"', { visits: 1, noinput: 1, disconnect: 1 }, 'https://ivr.example.com/billing.vxml')],
  }),
  call(PHONE, '2018-02-20T10:00:00-05:00', {
    form_items: 1,
    path: [step('+menu.vxml', '-form', '=HYPERLINK("https://example.com","x")', { visits: 1 }, '@https://ivr.example.com/odd.vxml')],
  }),
  call(SECOND_PHONE, '2018-02-28T23:59:00-05:00', { caller: '+16175550123', duration_seconds: 200 }),
  // Toronto (the country CA), San Francisco (the state CA), and area code 555, which nothing can place (ZZ).
  call(PHONE, '2018-02-10T10:00:00-05:00', { caller: '+14165550199' }),
  call(PHONE, '2018-02-10T11:00:00-05:00', { caller: '+14155550123' }),
  call(PHONE, '2018-02-10T12:00:00-05:00', { caller: '+15555550123' }),
  call(PHONE, '2018-03-01T00:00:00-05:00', { caller: '+33142685300', duration_seconds: 5 }),
];

/**
 * The DOM as the callbacks run in the page use it. The tests' TypeScript has Node's library, not the
 * browser's (tsconfig.json), so these few members are declared here, for this file only.
 */
interface PageElement {
  readonly id: string;
  readonly className: string;
  readonly textContent: string | null;
  readonly width: number;
  readonly clientWidth: number;
  readonly offsetWidth: number;
  readonly scrollWidth: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
  value: string;
  hidden: boolean;
  open: boolean;
  getAttribute(name: string): string | null;
  scrollIntoView(): void;
  getBoundingClientRect(): { readonly left: number; readonly right: number; readonly top: number; readonly bottom: number; readonly width: number };
  querySelector(selectors: string): PageElement | null;
  querySelectorAll(selectors: string): Iterable<PageElement>;
}
declare const document: {
  getElementById(id: string): PageElement | null;
  readonly body: { readonly innerText: string };
  readonly activeElement: PageElement | null;
  readonly documentElement: { readonly scrollWidth: number };
  createRange(): { selectNodeContents(node: PageElement): void; getBoundingClientRect(): { readonly left: number } };
  querySelector(selectors: string): PageElement | null;
  querySelectorAll(selectors: string): Iterable<PageElement>;
};
declare function getComputedStyle(element: PageElement | null): {
  outlineStyle: string;
  outlineWidth: string;
  color: string;
  backgroundColor: string;
  fontWeight: string;
};

let tab: BrowserTab;
let testApp: TestApp;
let server: RunningServer;
let page: Page;

async function openDashboard(width = 1280): Promise<void> {
  page = tab.page;
  await page.setViewport({ width, height: 900 });
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#sign-in-section:not([hidden])');
}

const statusIs = (text: string) =>
  page.waitForFunction((expected) => document.getElementById('status')?.textContent === expected, {}, text);

async function signIn(password = PASSWORD): Promise<void> {
  await page.type('#login', 'alice');
  await page.type('#password', password);
  await page.click('#sign-in button[type="submit"]');
}

/** Signs in and waits for the first reports, those of the default query. */
async function signInAndWaitForReports(): Promise<void> {
  await signIn();
  await page.waitForSelector('#reports:not([hidden])');
  await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Showing '));
}

async function showQuery({ start, end, period, phone }: { start: string; end: string; period: string; phone: string }): Promise<void> {
  await page.$eval('#start', (input: PageElement, value: string) => (input.value = value), start);
  await page.$eval('#end', (input: PageElement, value: string) => (input.value = value), end);
  await page.select('#period', period);
  await page.$eval('#phone', (input: PageElement) => (input.value = ''));
  await page.type('#phone', phone);
  await page.click('#query button[type="submit"]');
}

function tablesOf(reportId: string): Promise<ShownTable[]> {
  return page.$$eval(`#report-${reportId} table`, (tables: PageElement[]) =>
    tables.map((table) => ({
      title: document.getElementById(table.getAttribute('aria-labelledby') ?? '')?.textContent ?? '',
      columns: [...table.querySelectorAll('thead th')].map((cell) => cell.textContent ?? ''),
      rows: [...table.querySelectorAll('tbody tr')].map((row) =>
        [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''),
      ),
    })),
  );
}

/** Each chart is redrawn to its box's width once the layout settles (src/dashboard/browser/series-view.js). */
function chartsFitted(): Promise<unknown> {
  return page.waitForFunction(() =>
    [...document.querySelectorAll('.chart-canvas')].every(
      (chart) => Math.abs((chart.querySelector('.uplot')?.offsetWidth ?? 0) - chart.clientWidth) <= 1,
    ),
  );
}

function chartNames(reportId: string): Promise<string[]> {
  return page.$$eval(`#report-${reportId} .chart-canvas`, (charts: PageElement[]) =>
    charts.map((chart) => (chart.querySelector('canvas')?.width ? (chart.getAttribute('aria-label') ?? '') : 'no chart drawn')),
  );
}

async function apiJson<T>(credentials: Credentials, address: string): Promise<T> {
  const response = await request(server.url).get(`/api/${address}`).auth(credentials.login, credentials.password);
  expect(response.status).toBe(200);
  return response.body as T;
}

async function apiError(credentials: Credentials, address: string): Promise<string> {
  const response = await request(server.url).get(`/api/${address}`).auth(credentials.login, credentials.password);
  expect(response.status).toBe(400);
  return (response.body as { error: string }).error;
}

const pathOf = (start: string, end: string) => `${start.replaceAll('-', '')}/${end.replaceAll('-', '')}`;

interface Box {
  readonly id: string;
  readonly top: number;
  readonly bottom: number;
}

/** The boxes of the controls `selector` matches, to the pixel. */
function boxesOf(selector: string): Promise<Box[]> {
  return page.$$eval(selector, (controls: PageElement[]) =>
    controls.map((control) => {
      const box = control.getBoundingClientRect();
      return { id: control.id || control.textContent || '', top: Math.round(box.top), bottom: Math.round(box.bottom) };
    }),
  );
}

/** Controls side by side (their boxes overlap vertically) whose tops or bottoms differ: none, when a form row is aligned. */
function misaligned(boxes: Box[]): string[] {
  return boxes.flatMap((box, index) =>
    boxes
      .slice(index + 1)
      .filter((other) => other.top < box.bottom && box.top < other.bottom && (other.top !== box.top || other.bottom !== box.bottom))
      .map((other) => `${box.id} ${box.top}-${box.bottom} beside ${other.id} ${other.top}-${other.bottom}`),
  );
}

/** The text and background colours of an element, as computed. */
const coloursOf = (selector: string) =>
  page.$eval(selector, (element: PageElement) => {
    const style = getComputedStyle(element);
    return { color: style.color, background: style.backgroundColor };
  });

/** Every report on the page against the API's answer to the same query, asked with credentials of the test's own. */
async function expectReportsAsTheApiAnswers(credentials: Credentials, period: string): Promise<void> {
  const range = pathOf(FEBRUARY.start, FEBRUARY.end);
  const scope = `${FEBRUARY.start} to ${FEBRUARY.end}, all numbers`;
  for (const [reportId, resource] of Object.entries(SERIES_REPORTS)) {
    const answer = await apiJson<SeriesAnswer>(credentials, `${resource}/${range}/${period}/ALL`);
    const [table] = await tablesOf(reportId);
    expect(table?.rows).toEqual(seriesRows(answer, TIME_ZONE));
    expect(table?.columns).toHaveLength(Object.keys(answer).length + 1);
    expect(table?.title).toMatch(new RegExp(`: ${FEBRUARY.start} to ${FEBRUARY.end} by ${period}, all numbers$`));
    const names = await chartNames(reportId);
    const endings = chartNameEndings(answer, period, TIME_ZONE);
    expect(names).toHaveLength(endings.length);
    names.forEach((name, index) => expect(name.endsWith(endings[index] as string)).toBe(true));
  }
  const geographic = await apiJson<GeographicAnswer>(credentials, `profile/${range}/ALL`);
  expect((await tablesOf('geographic')).map((table) => table.rows)).toEqual(geographicTables(geographic));
  // The caller from Massachusetts called twice: the largest place comes first, the places with no calls fold away.
  // Places are named beside their codes: the country CA is not the state CA, and ZZ says what it counts.
  const [placed] = await tablesOf('geographic');
  expect(placed?.columns).toEqual(['State or country', 'Calls']);
  expect(placed?.rows.slice(0, 2)).toEqual([['US - United States'], ['MA - Massachusetts', '2']]);
  expect(placed?.rows).toEqual(
    expect.arrayContaining([['CA - California', '1'], ['Other countries'], ['CA - Canada', '1'], ['ZZ - unknown: numbers nothing can place', '1']]),
  );
  expect(await page.$eval('#report-geographic details.no-calls', (details: PageElement) => details.open)).toBe(false);
  const flow = await apiJson<FlowAnswer>(credentials, `path/${range}/ALL`);
  expect((await tablesOf('flow')).map(({ title, rows }) => ({ title, rows }))).toEqual(flowTables(flow, scope));
}

describeInBrowser('the dashboard in headless Chromium', () => {
  tab = useBrowserTab();

  beforeEach(async () => {
    testApp = buildTestApp();
    await addAccount(testApp.store, { timeZone: TIME_ZONE, phones: [PHONE, SECOND_PHONE] });
    await addAccount(testApp.store, { login: 'bob', phones: [OTHER_ACCOUNTS_PHONE] });
    await addCalls(testApp.store, CALLS);
    server = await serve(testApp.app);
  });

  afterEach(async () => {
    await server.close();
  });

  test('shows every report as the API answers it by day, then by week, and the rate limits; screenshots at 1280 and 390 px', async () => {
    await openDashboard(1280);
    await signInAndWaitForReports();
    await showQuery({ ...FEBRUARY, period: 'day', phone: 'ALL' });
    await statusIs(`Showing ${FEBRUARY.start} to ${FEBRUARY.end} by day, all numbers.`);

    // The page's last answer counted one request before this one, in the same window.
    const credentials = await authenticate(server.url);
    const probe = await request(server.url)
      .get(`/api/volume/${pathOf(FEBRUARY.start, FEBRUARY.end)}/day/ALL`)
      .auth(credentials.login, credentials.password);
    const shownLimit = await page.$eval('#data-limit', (limit: PageElement) => ({
      remaining: limit.querySelector('.remaining')?.textContent,
      reset: limit.querySelector('time')?.getAttribute('datetime'),
    }));
    expect(shownLimit).toEqual({
      remaining: String(Number(probe.headers['x-ratelimit-remaining']) + 1),
      reset: new Date(Number(probe.headers['x-ratelimit-reset']) * 1000).toISOString(),
    });

    await expectReportsAsTheApiAnswers(credentials, 'day');
    // Every bar stands beside its number, never under its digits.
    const overlaps = await page.$$eval('td.with-bar', (cells: PageElement[]) =>
      cells.filter((cell) => {
        const value = cell.querySelector('.value')?.getBoundingClientRect();
        const track = cell.querySelector('.bar-track')?.getBoundingClientRect();
        return value === undefined || track === undefined || track.left < value.right;
      }).length,
    );
    expect(overlaps).toBe(0);
    await page.$$eval('details.numbers', (all: PageElement[]) => all.forEach((details) => (details.open = true)));
    await chartsFitted();
    await page.screenshot({ path: screenshotPath('dashboard-1280'), fullPage: true });

    await page.setViewport({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await chartsFitted();
    await page.screenshot({ path: screenshotPath('dashboard-390'), fullPage: true });

    await showQuery({ ...FEBRUARY, period: 'week', phone: 'ALL' });
    await statusIs(`Showing ${FEBRUARY.start} to ${FEBRUARY.end} by week, all numbers.`);
    await expectReportsAsTheApiAnswers(credentials, 'week');
    expect(tab.problems).toEqual([]);
  });

  test('writes the value of the period under the pointer below its chart; screenshot', async () => {
    await openDashboard(1280);
    await signInAndWaitForReports();
    await showQuery({ ...FEBRUARY, period: 'day', phone: 'ALL' });
    await statusIs(`Showing ${FEBRUARY.start} to ${FEBRUARY.end} by day, all numbers.`);
    await chartsFitted();
    const credentials = await authenticate(server.url);
    const answer = await apiJson<SeriesAnswer>(credentials, `volume/${pathOf(FEBRUARY.start, FEBRUARY.end)}/day/ALL`);
    const [name] = Object.keys(answer) as [string];
    const keys = Object.keys(answer[name] as Record<string, number>).sort((a, b) => Number(a) - Number(b));
    expect(keys).toHaveLength(28);

    const chart = '#report-volume .chart:first-child';
    const readout = () => page.$eval(`${chart} .chart-readout`, (element: PageElement) => element.textContent);
    const readoutIs = async (text: string) => {
      try {
        await page.waitForFunction(
          (selector, expected) => document.querySelector(selector)?.textContent === expected,
          { polling: 'mutation', timeout: 5000 },
          `${chart} .chart-readout`,
          text,
        );
      } catch (error) {
        throw new Error(`the chart's readout says ${JSON.stringify(await readout())}, not ${JSON.stringify(text)}`, { cause: error });
      }
    };
    expect(await readout()).toBe('Point at a day for its value.');
    await page.$eval(chart, (figure: PageElement) => figure.scrollIntoView());
    const plot = await page.$eval(`${chart} .u-over`, (over: PageElement) => {
      const box = over.getBoundingClientRect();
      return { left: box.left, top: box.top, width: box.width, height: box.bottom - box.top };
    });
    // The periods are evenly spaced across the plot, the first at its left edge and the last at its right.
    for (const index of [0, 9, 13, 27]) {
      const x = plot.left + Math.min(Math.max((plot.width * index) / (keys.length - 1), 1), plot.width - 1);
      await page.mouse.move(x, plot.top + plot.height / 2);
      const key = keys[index] as string;
      await readoutIs(`${localDate(key, TIME_ZONE)}: ${answer[name]?.[key]}`);
      // The window as it is, the chart in view: a screenshot of an element would scroll it from under the pointer.
      if (index === 9) await page.screenshot({ path: screenshotPath('dashboard-chart-hover-1280') });
    }
    await page.mouse.move(plot.left - 40, plot.top - 40);
    await readoutIs('Point at a day for its value.');
    expect(tab.problems).toEqual([]);
  });

  test('says once, in the form’s own date format, that a range ends before it starts, and asks the API nothing; screenshot', async () => {
    await openDashboard(1280);
    await signInAndWaitForReports();
    const asked: string[] = [];
    tab.on('request', (sent) => {
      const { pathname } = new URL(sent.url());
      if (pathname.startsWith('/api/')) asked.push(pathname);
    });

    await showQuery({ start: '2026-11-20', end: '2026-11-01', period: 'day', phone: 'ALL' });
    // The date inputs show MM/DD/YYYY in the browser's locale (American English here), and so does the message.
    const message = 'The range ends before it starts: To (11/01/2026) is earlier than From (11/20/2026).';
    await page.waitForFunction((expected) => document.getElementById('query-error')?.textContent === expected, {}, message);
    const pageText = await page.evaluate(() => document.body.innerText);
    expect(pageText.split(message)).toHaveLength(2);
    expect(pageText).not.toContain('20261101');
    await page.screenshot({ path: screenshotPath('dashboard-reversed-range-1280') });

    // The next query's six requests are the first the page sent since: the reversed range sent none.
    await showQuery({ ...FEBRUARY, period: 'day', phone: 'ALL' });
    await statusIs(`Showing ${FEBRUARY.start} to ${FEBRUARY.end} by day, all numbers.`);
    const range = pathOf(FEBRUARY.start, FEBRUARY.end);
    expect(asked.sort()).toEqual(
      [
        `/api/volume/${range}/day/ALL`,
        `/api/events/${range}/day/ALL`,
        `/api/performance/${range}/day/ALL`,
        `/api/profile/${range}/day/ALL`,
        `/api/profile/${range}/ALL`,
        `/api/path/${range}/ALL`,
      ].sort(),
    );
    expect(await page.$eval('#query-error', (error: PageElement) => error.textContent)).toBe('');
    expect(tab.problems).toEqual([]);
  });

  test('keeps an outlined button’s text on hover, and lines the query form’s inputs up at 390, 1280 and 1920 px; screenshot', async () => {
    await openDashboard(1280);
    await signInAndWaitForReports();
    expect(await coloursOf('#sign-out')).toEqual({ color: 'rgb(29, 78, 216)', background: 'rgb(255, 255, 255)' });
    await page.hover('#sign-out');
    // Dark blue on a light tint of it (over 9:1), as a filled button turns darker on hover.
    expect(await coloursOf('#sign-out')).toEqual({ color: 'rgb(30, 58, 138)', background: 'rgb(224, 232, 251)' });
    await (await page.$('.page-header'))?.screenshot({ path: screenshotPath('dashboard-sign-out-hover') });

    const controls = '#query input, #query select, #query > button';
    for (const width of [390, 1280, 1920]) {
      await page.setViewport({ width, height: 900 });
      const boxes = await boxesOf(controls);
      expect(boxes.map(({ id }) => id)).toEqual(['start', 'end', 'period', 'phone', 'Show']);
      expect(misaligned(boxes)).toEqual([]);
      if (width !== 390) expect(new Set(boxes.map(({ top }) => top)).size).toBe(1);
    }
    await (await page.$('#query'))?.screenshot({ path: screenshotPath('dashboard-query-form-1920') });
    expect(tab.problems).toEqual([]);
  });

  test('shows every place of the geographic report on the page, each country once as its group’s heading, at 1366 and 1920 px; screenshots', async () => {
    await openDashboard(1366);
    await signInAndWaitForReports();
    await showQuery({ ...FEBRUARY, period: 'day', phone: 'ALL' });
    await statusIs(`Showing ${FEBRUARY.start} to ${FEBRUARY.end} by day, all numbers.`);
    const credentials = await authenticate(server.url);
    const [placed, none] = geographicTables(await apiJson<GeographicAnswer>(credentials, `profile/${pathOf(FEBRUARY.start, FEBRUARY.end)}/ALL`));
    // The states with no calls are more rows than a region of their own used to show (28rem, a dozen rows).
    expect(none?.length).toBeGreaterThan(40);
    await page.$eval('#report-geographic details.no-calls', (details: PageElement) => (details.open = true));

    for (const width of [1366, 1920]) {
      await page.setViewport({ width, height: 900 });
      // Each table's region is as tall as its rows: none of them is out of its box, nothing scrolls within it.
      const regions = await page.$$eval('#report-geographic .table-scroll', (all: PageElement[]) =>
        all.map((region) => {
          const box = region.getBoundingClientRect();
          const rows = [...region.querySelectorAll('tbody tr')].map((row) => row.getBoundingClientRect());
          return {
            width: Math.round(box.width),
            rows: rows.length,
            outOfTheBox: rows.filter((row) => row.top < box.top || row.bottom > box.bottom).length,
            scrollsWithin: region.scrollHeight > region.clientHeight,
          };
        }),
      );
      // A name and its number, 48rem wide at most: not the width of the window apart.
      expect(regions).toEqual([
        { width: 768, rows: placed?.length, outOfTheBox: 0, scrollsWithin: false },
        { width: 768, rows: none?.length, outOfTheBox: 0, scrollsWithin: false },
      ]);

      // The country is written once, as the heading of its group, above its places: indented below it and not bold.
      const tables = await page.$$eval('#report-geographic table', (all: PageElement[]) =>
        all.map((table) => {
          const cells = [...table.querySelectorAll('th, td')];
          const headings = [...table.querySelectorAll('tr.group-heading > th')];
          const places = [...table.querySelectorAll('tbody th[scope="row"]')];
          const textLeft = (cell: PageElement) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            return range.getBoundingClientRect().left;
          };
          return {
            unitedStates: cells.filter((cell) => cell.textContent === 'US - United States').length,
            headings: headings.map((heading) => ({ text: heading.textContent, scope: heading.getAttribute('scope'), weight: getComputedStyle(heading).fontWeight })),
            placeWeights: [...new Set(places.map((place) => getComputedStyle(place).fontWeight))],
            indented: places.every((place) => textLeft(place) > Math.max(...headings.map(textLeft))),
          };
        }),
      );
      expect(tables).toEqual([
        {
          unitedStates: 1,
          headings: [
            { text: 'US - United States', scope: 'rowgroup', weight: '600' },
            { text: 'Other countries', scope: 'rowgroup', weight: '600' },
          ],
          placeWeights: ['400'],
          indented: true,
        },
        { unitedStates: 1, headings: [{ text: 'US - United States', scope: 'rowgroup', weight: '600' }], placeWeights: ['400'], indented: true },
      ]);
      await (await page.$('#report-geographic'))?.screenshot({ path: screenshotPath(`dashboard-geographic-${width}`) });
    }
    expect(tab.problems).toEqual([]);
  });

  test('lines up the columns of the diagnostic flow’s tables, one per application, at 390, 1366 and 1920 px; screenshots', async () => {
    await openDashboard(1366);
    await signInAndWaitForReports();
    await showQuery({ ...FEBRUARY, period: 'day', phone: 'ALL' });
    await statusIs(`Showing ${FEBRUARY.start} to ${FEBRUARY.end} by day, all numbers.`);
    for (const width of [390, 1366, 1920]) {
      await page.setViewport({ width, height: 900 });
      const tables = await page.$$eval('#report-flow table', (all: PageElement[]) =>
        all.map((table) => ({
          columns: [...table.querySelectorAll('thead th')].map((cell) => {
            const box = cell.getBoundingClientRect();
            return `${cell.textContent} ${Math.round(box.left)}-${Math.round(box.right)}`;
          }),
          // A long name wraps within its column rather than pushing it wider or running past its edge.
          overflowing: [...table.querySelectorAll('th, td')].filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent),
        })),
      );
      expect(tables).toHaveLength(3);
      const [first] = tables;
      expect(first?.columns).toHaveLength(9);
      expect(tables).toEqual(tables.map(() => ({ columns: first?.columns, overflowing: [] })));
      if (width !== 390) await (await page.$('#report-flow'))?.screenshot({ path: screenshotPath(`dashboard-flow-${width}`) });
    }
    expect(tab.problems).toEqual([]);
  });

  test('gives the reports the same width as the call inspector, the window’s, at 1366 and 1920 px; screenshots', async () => {
    const boxes = () =>
      page.$$eval('main, .page-header, main > section:not([hidden])', (all: PageElement[]) =>
        all.map((element) => {
          const box = element.getBoundingClientRect();
          return `${element.id || element.className || 'main'} ${Math.round(box.left)}-${Math.round(box.right)}`;
        }),
      );
    for (const width of [1366, 1920]) {
      await openDashboard(width);
      await signInAndWaitForReports();
      await showQuery({ ...FEBRUARY, period: 'day', phone: 'ALL' });
      await statusIs(`Showing ${FEBRUARY.start} to ${FEBRUARY.end} by day, all numbers.`);
      const reports = await boxes();
      // The page's padding aside, the reports fill the window.
      expect(reports).toEqual([`page-header 0-${width}`, `main 0-${width}`, `reports 16-${width - 16}`]);
      await page.$$eval('details.numbers', (all: PageElement[]) => all.forEach((details) => (details.open = true)));
      await chartsFitted();
      await page.screenshot({ path: screenshotPath(`dashboard-${width}`), fullPage: true });

      await page.goto(`${server.url}/inspector`);
      await page.waitForSelector('#sign-in-section:not([hidden])');
      expect(await boxes()).toEqual([`page-header 0-${width}`, `main 0-${width}`, `sign-in-section 16-${Math.min(width - 16, 16 + 28 * 16)}`]);
    }
    expect(tab.problems).toEqual([]);
  });

  test('downloads each report as a CSV file holding what the API returns', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'dashboard-downloads-'));
    try {
      await openDashboard();
      const downloads = await watchDownloads(folder);
      await signInAndWaitForReports();
      await showQuery({ ...FEBRUARY, period: 'week', phone: SECOND_PHONE });
      await statusIs(`Showing ${FEBRUARY.start} to ${FEBRUARY.end} by week, number ${SECOND_PHONE}.`);

      const credentials = await authenticate(server.url);
      const range = pathOf(FEBRUARY.start, FEBRUARY.end);
      const expected: Record<string, { name: string; text: string }> = {};
      for (const [reportId, resource] of Object.entries(SERIES_REPORTS)) {
        const answer = await apiJson<SeriesAnswer>(credentials, `${resource}/${range}/week/${SECOND_PHONE}`);
        expected[reportId] = { name: `${reportId}-20180201-20180228-week-${SECOND_PHONE}.csv`, text: seriesCsv(answer, TIME_ZONE) };
      }
      const geographic = await apiJson<GeographicAnswer>(credentials, `profile/${range}/${SECOND_PHONE}`);
      expected.geographic = { name: `geographic-20180201-20180228-${SECOND_PHONE}.csv`, text: geographicCsv(geographic) };
      const flow = await apiJson<FlowAnswer>(credentials, `path/${range}/${SECOND_PHONE}`);
      expected.flow = { name: `flow-20180201-20180228-${SECOND_PHONE}.csv`, text: flowCsv(flow) };

      for (const [reportId, file] of Object.entries(expected)) {
        expect(await downloads.fetch(`#report-${reportId} a.download`)).toEqual(file);
      }
      expect(tab.problems).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  /** The diagnostic flow's CSV as downloaded for one day of PHONE. */
  async function flowCsvOfDay(day: string): Promise<string> {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'dashboard-downloads-'));
    try {
      await openDashboard();
      const downloads = await watchDownloads(folder);
      await signInAndWaitForReports();
      await showQuery({ start: day, end: day, period: 'day', phone: PHONE });
      await statusIs(`Showing ${day} to ${day} by day, number ${PHONE}.`);
      return (await downloads.fetch('#report-flow a.download')).text;
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  const FLOW_CSV_HEADER = 'application,page,form,item,visits,filled,nomatch,noinput,transfer,disconnect\r\n';

  test('quotes texts with commas and quotes in the CSV of the diagnostic flow', async () => {
    expect(await flowCsvOfDay('2018-02-14')).toBe(
      `${FLOW_CSV_HEADER}https://ivr.example.com/billing.vxml,pay.vxml,confirm,"yes, ""no""",1,0,0,1,0,1\r\n`,
    );
  });

  test('writes texts that a spreadsheet would run as formulas after an apostrophe in the CSV', async () => {
    expect(await flowCsvOfDay('2018-02-20')).toBe(
      `${FLOW_CSV_HEADER}'@https://ivr.example.com/odd.vxml,'+menu.vxml,'-form,"'=HYPERLINK(""https://example.com"",""x"")",1,0,0,0,0,0\r\n`,
    );
  });

  test('signs in with the keyboard alone, its focus visible, and moves the focus to the reports', async () => {
    await openDashboard();
    // The header's link to the call inspector comes first, then the form.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('inspector-link');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tool');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement);
      return { id: document.activeElement?.id, outline: `${style.outlineStyle} ${style.outlineWidth}` };
    });
    expect(focused).toEqual({ id: 'login', outline: 'solid 3px' });
    await page.keyboard.type('alice');
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#reports:not([hidden])');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('reports-title');
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Showing '));
    expect(tab.problems).toEqual([]);
  });

  test('shows the API’s message for a wrong password, and stays on the sign-in form', async () => {
    const refused = await request(server.url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'wrong' });
    expect(refused.status).toBe(401);
    await openDashboard();
    await signIn('wrong');
    await page.waitForFunction(() => document.getElementById('sign-in-error')?.textContent !== '');
    expect(await page.$eval('#sign-in-error', (error: PageElement) => error.textContent)).toBe((refused.body as { error: string }).error);
    expect(await page.$eval('#reports', (reports: PageElement) => reports.hidden)).toBe(true);
    expect(tab.problems).toEqual([]);
  });

  test('words a number of another account as the API does, and a malformed number as the API would', async () => {
    const credentials = await authenticate(server.url);
    await openDashboard();
    await signInAndWaitForReports();

    await showQuery({ ...FEBRUARY, period: 'day', phone: OTHER_ACCOUNTS_PHONE });
    await page.waitForFunction(() => document.getElementById('query-error')?.textContent !== '');
    const notOnAccount = await apiError(credentials, `volume/${pathOf(FEBRUARY.start, FEBRUARY.end)}/day/${OTHER_ACCOUNTS_PHONE}`);
    expect(await page.$eval('#query-error', (error: PageElement) => error.textContent)).toBe(notOnAccount);
    const reportErrors = await page.$$eval('.report-body .error', (errors: PageElement[]) => errors.map((error) => error.textContent));
    expect(reportErrors).toEqual(Array(6).fill(notOnAccount));

    await showQuery({ ...FEBRUARY, period: 'day', phone: '12ab' });
    const malformed = await apiError(credentials, `volume/${pathOf(FEBRUARY.start, FEBRUARY.end)}/day/12ab`);
    await page.waitForFunction((expected) => document.getElementById('query-error')?.textContent === expected, {}, malformed);
    expect(tab.problems).toEqual([]);
  });

  test('says what is wrong with the query form on signing in again, rather than showing nothing', async () => {
    const credentials = await authenticate(server.url);
    await openDashboard();
    await signInAndWaitForReports();
    await page.$eval('#phone', (input: PageElement) => (input.value = '12ab'));
    await page.click('#sign-out');
    await page.waitForSelector('#sign-in-section:not([hidden])');
    await page.$eval('#login', (input: PageElement) => (input.value = ''));
    await signIn();
    await page.waitForSelector('#reports:not([hidden])');
    const malformed = await apiError(credentials, `volume/${pathOf(FEBRUARY.start, FEBRUARY.end)}/day/12ab`);
    await page.waitForFunction((expected) => document.getElementById('query-error')?.textContent === expected, {}, malformed);
    expect(await page.$eval('#status', (status: PageElement) => status.textContent)).toBe('');
    expect(tab.problems).toEqual([]);
  });
});

/**
 * Downloads of the page's context saved in `folder` under their ids, and reported by Chromium's
 * DevTools events: a download is read once Chromium says it is complete.
 */
async function watchDownloads(folder: string) {
  const session: CDPSession = await tab.browser.target().createCDPSession();
  await session.send('Browser.setDownloadBehavior', {
    behavior: 'allowAndName',
    downloadPath: folder,
    eventsEnabled: true,
    browserContextId: tab.context.id,
  });
  const names = new Map<string, string>();
  const completed = new Set<string>();
  const waiting = new Map<string, () => void>();
  session.on('Browser.downloadWillBegin', ({ guid, suggestedFilename }) => names.set(guid, suggestedFilename));
  session.on('Browser.downloadProgress', ({ guid, state }) => {
    if (state !== 'completed') return;
    completed.add(guid);
    waiting.get(guid)?.();
  });
  const begun = () => new Promise<string>((resolve) => session.once('Browser.downloadWillBegin', ({ guid }) => resolve(guid)));
  return {
    async fetch(selector: string): Promise<{ name: string; text: string }> {
      const guid = begun();
      await page.click(selector);
      const id = await guid;
      if (!completed.has(id)) await new Promise<void>((resolve) => waiting.set(id, resolve));
      return { name: names.get(id) as string, text: await readFile(path.join(folder, id), 'utf8') };
    },
  };
}
