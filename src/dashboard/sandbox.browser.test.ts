import type { Page } from 'puppeteer-core';
import request from 'supertest';
import { errors } from '../errors/catalogue';
import { admin, startAdminServer, type AdminServer } from '../../test/support/admin';
import { describeInBrowser, screenshotPath, useBrowserTab, type BrowserTab } from '../../test/support/browser';
import { addCalls, call } from '../../test/support/reporting';
import { addAccount } from '../../test/support/test-app';

/**
 * The dashboard on a sandbox (ADMIN_TOKEN, SANDBOX_CLOCK=true): a banner while failure scenarios are
 * active for the account, the scenario named beside an error it forced, and "today" on the server's clock.
 * The server's clock is the fake clock's (2018-02-07T15:00:00Z, test/support/fake-clock.ts), moved only
 * by POST /admin/clock: every date below is known in advance, whatever the day the tests run.
 */

const PHONE = '18005550100';
const BANNER_OF_ONE = 'Sandbox: 1 failure scenario is active for this account; answers may be forced or slowed.';
const BANNER_OF_TWO = 'Sandbox: 2 failure scenarios are active for this account; answers may be forced or slowed.';
/** The four weeks to the fake clock's today, 2018-02-07 (the browser in UTC). */
const DEFAULT_RANGE = '2018-01-11 to 2018-02-07';
const DAY_SECONDS = 86_400;

interface PageElement {
  readonly textContent: string | null;
  readonly offsetHeight: number;
  value: string;
  getAttribute(name: string): string | null;
  scrollIntoView(): void;
  getBoundingClientRect(): { readonly left: number; readonly top: number; readonly width: number; readonly height: number };
  querySelectorAll(selectors: string): Iterable<PageElement>;
}
declare const document: {
  getElementById(id: string): PageElement | null;
  querySelector(selectors: string): PageElement | null;
};

let tab: BrowserTab;
let running: AdminServer | undefined;
let page: Page;

/** The address of the test's server. */
function url(): string {
  if (running === undefined) throw new Error('no sandbox server started');
  return running.url;
}

async function startSandbox(timeZone = 'UTC'): Promise<void> {
  running = await startAdminServer({ SANDBOX_CLOCK: 'true' });
  await addAccount(running.testApp.store, { timeZone, phones: [PHONE] });
}

async function openDashboard(browserZone = 'UTC'): Promise<void> {
  page = tab.page;
  await page.emulateTimezone(browserZone);
  await page.goto(`${url()}/`);
  await page.waitForSelector('#sign-in-section:not([hidden])');
}

/** POST /admin/scenarios for alice's requests; the new scenario's id. */
async function addScenario(rule: Record<string, unknown>): Promise<string> {
  const response = await admin(url()).post('/admin/scenarios').send({ tool: 'dev', login: 'alice', ...rule });
  expect(response.status).toBe(201);
  return (response.body as { id: string }).id;
}

async function removeScenario(id: string): Promise<void> {
  expect((await admin(url()).delete(`/admin/scenarios/${id}`)).status).toBe(204);
}

async function advanceClock(seconds: number): Promise<void> {
  expect((await admin(url()).post('/admin/clock').send({ advance_seconds: seconds })).status).toBe(200);
}

/** Types the account's login and password afresh (a refused sign-in leaves them in the form), and sends them. */
async function signIn(): Promise<void> {
  await page.$eval('#login', (input: PageElement) => (input.value = ''));
  await page.$eval('#password', (input: PageElement) => (input.value = ''));
  await page.type('#login', 'alice');
  await page.type('#password', 'secret-password');
  await page.click('#sign-in button[type="submit"]');
}

const statusIs = (text: string) =>
  page.waitForFunction((expected) => document.getElementById('status')?.textContent === expected, {}, text);

/** Asks for other reports with the query form; the status line then tells when they are shown. */
async function showQuery({ period, phone = 'ALL' }: { period: string; phone?: string }): Promise<void> {
  await page.select('#period', period);
  await page.$eval('#phone', (input: PageElement, value: string) => (input.value = value), phone);
  await page.click('#query button[type="submit"]');
}

/** The banner's text, and whether it takes room on the page. */
const banner = () =>
  page.$eval('#sandbox-banner', (element: PageElement) => ({ text: element.textContent, shown: element.offsetHeight > 0 }));

const reportError = (reportId: string) =>
  page.$eval(`#report-${reportId} .report-body`, (body: PageElement) =>
    [...body.querySelectorAll('.error')].map((error) => error.textContent),
  );

describeInBrowser('the dashboard on a sandbox server', () => {
  tab = useBrowserTab();

  afterEach(async () => {
    await running?.server.close();
    running = undefined;
  });

  describe('failure scenarios', () => {
    test('a banner tells how many are active for the account while the answers say so, and goes once they are used up or removed', async () => {
      await startSandbox();
      await openDashboard();
      // The oldest matching scenario answers first: the events scenario, twice, then the data scenario, always.
      await addScenario({ target: 'events', delay_ms: 1, times: 2 });
      const everyReport = await addScenario({ target: 'data', delay_ms: 1 });
      expect(await banner()).toEqual({ text: '', shown: false });

      await signIn();
      await statusIs(`Showing ${DEFAULT_RANGE} by day, all numbers.`);
      expect(await banner()).toEqual({ text: BANNER_OF_TWO, shown: true });

      // The events scenario answers its last request: only the data scenario is left.
      await showQuery({ period: 'week' });
      await statusIs(`Showing ${DEFAULT_RANGE} by week, all numbers.`);
      expect(await banner()).toEqual({ text: BANNER_OF_ONE, shown: true });

      // The geographic and flow reports have the same addresses in every load: their answers, and headers, are never the browser cache's.
      await removeScenario(everyReport);
      await showQuery({ period: 'month' });
      await statusIs(`Showing ${DEFAULT_RANGE} by month, all numbers.`);
      expect(await banner()).toEqual({ text: '', shown: false });
      expect(tab.problems).toEqual([]);
    });

    test('a report refused by a scenario says which scenario forced it, and the banner goes once it is used up', async () => {
      await startSandbox();
      await openDashboard();
      const refusing = await addScenario({ target: 'volume', status: 429, times: 2 });
      const forced = `${errors.rateLimited().message} (forced by sandbox scenario ${refusing})`;

      await signIn();
      await statusIs(`Asked for ${DEFAULT_RANGE} by day, all numbers: 1 of 6 reports could not be shown.`);
      expect(await reportError('volume')).toEqual([forced]);
      expect(await reportError('events')).toEqual([]);
      expect(await banner()).toEqual({ text: BANNER_OF_ONE, shown: true });

      await showQuery({ period: 'week' });
      await statusIs(`Asked for ${DEFAULT_RANGE} by week, all numbers: 1 of 6 reports could not be shown.`);
      expect(await reportError('volume')).toEqual([forced]);
      expect(await banner()).toEqual({ text: '', shown: false });

      await showQuery({ period: 'month' });
      await statusIs(`Showing ${DEFAULT_RANGE} by month, all numbers.`);
      expect(await reportError('volume')).toEqual([]);
      expect(tab.problems).toEqual([]);
    });

    test('a sign-in refused by a scenario says which one, the banner on the sign-in form', async () => {
      await startSandbox();
      await openDashboard();
      const first = await addScenario({ target: 'auth', status: 401, times: 1 });
      const second = await addScenario({ target: 'auth', status: 401, times: 1 });
      const refusal = errors.invalidLogin('').message;
      const signInErrorIs = (text: string) =>
        page.waitForFunction((expected) => document.getElementById('sign-in-error')?.textContent === expected, {}, text);

      await signIn();
      await signInErrorIs(`${refusal} (forced by sandbox scenario ${first})`);
      expect(await banner()).toEqual({ text: BANNER_OF_ONE, shown: true });

      // Each scenario answers once, the oldest first: the second attempt is the other's, and none is left.
      await signIn();
      await signInErrorIs(`${refusal} (forced by sandbox scenario ${second})`);
      expect(await banner()).toEqual({ text: '', shown: false });

      await signIn();
      await statusIs(`Showing ${DEFAULT_RANGE} by day, all numbers.`);
      expect(await banner()).toEqual({ text: '', shown: false });
      expect(tab.problems).toEqual([]);
    });
  });

  describe("the server's clock", () => {
    /**
     * The account 11 hours behind UTC, the browser 14 hours ahead: at 15:00 UTC the browser's day is the
     * account's next one, which has not begun for the account.
     */
    const ACCOUNT_ZONE = 'Pacific/Pago_Pago';
    const BROWSER_ZONE = 'Pacific/Kiritimati';
    const NOT_BEGUN = "The last day of the range has not begun yet in the account's time zone, so it is left out.";

    const eventsShown = () =>
      page.$eval('#report-events', (section: PageElement) => ({
        note: [...section.querySelectorAll('.not-begun')].map((note) => note.textContent),
        dates: [...section.querySelectorAll('tbody tr th')].map((cell) => cell.textContent),
      }));
    const range = () => page.evaluate(() => [document.getElementById('start')?.value, document.getElementById('end')?.value]);

    test("the default range ends on the server's today, and periods are left out by the server's time, both moved with it", async () => {
      await startSandbox(ACCOUNT_ZONE);
      await openDashboard(BROWSER_ZONE);
      // 2018-03-09T15:00:00Z: 2018-03-10 05:00 in the browser's zone, 2018-03-09 04:00 in the account's.
      await advanceClock(30 * DAY_SECONDS);

      await signIn();
      await statusIs('Showing 2018-02-11 to 2018-03-10 by day, all numbers.');
      expect(await range()).toEqual(['2018-02-11', '2018-03-10']);
      const first = await eventsShown();
      expect(first.note).toEqual([NOT_BEGUN]);
      expect(first.dates).toHaveLength(27);
      // The account's day is four hours old: its numbers are those so far.
      expect(first.dates.at(-1)).toBe('2018-03-09 (so far)');

      // 2018-03-10T12:00:00Z: 2018-03-10 has begun in the account's zone (01:00); the reports' answers tell it.
      await advanceClock(21 * 3600);
      await showQuery({ period: 'day', phone: PHONE });
      await statusIs(`Showing 2018-02-11 to 2018-03-10 by day, number ${PHONE}.`);
      const second = await eventsShown();
      expect(second.note).toEqual([]);
      expect(second.dates).toHaveLength(28);
      expect(second.dates.at(-1)).toBe('2018-03-10 (so far)');

      // The form as it was filled by default again: signing in anew fills the four weeks to the new today (2018-03-11 in the browser's zone).
      await page.$eval('#phone', (input: PageElement) => (input.value = 'ALL'));
      await page.click('#sign-out');
      await page.waitForSelector('#sign-in-section:not([hidden])');
      await signIn();
      await statusIs('Showing 2018-02-12 to 2018-03-11 by day, all numbers.');
      const third = await eventsShown();
      expect(third.note).toEqual([NOT_BEGUN]);
      expect(third.dates.at(-1)).toBe('2018-03-10 (so far)');
      expect(tab.problems).toEqual([]);
    });

    test('the period not over yet at the server\'s time is marked "so far" in the charts and tables, by day, week and month, until it ends; screenshot', async () => {
      // 2018-02-07T15:00:00Z is 10:00 on Wednesday 7 February in New York.
      await startSandbox('America/New_York');
      await addCalls((running as AdminServer).testApp.store, [
        call(PHONE, '2018-02-06T12:00:00-05:00', { log_events: 4 }),
        call(PHONE, '2018-02-06T13:00:00-05:00', { log_events: 4 }),
        call(PHONE, '2018-02-07T09:00:00-05:00', { log_events: 1 }),
      ]);
      await openDashboard();
      await page.setViewport({ width: 1280, height: 900 });
      const soFarNote = (period: string, start: string) =>
        `The last ${period} of the range, starting ${start}, is not over yet in the account's time zone: its numbers are those so far, dashed in the charts and marked "(so far)" in the table.`;
      const shown = () =>
        page.$eval('#report-events', (section: PageElement) => ({
          notes: [...section.querySelectorAll('.so-far')].map((note) => note.textContent),
          dates: [...section.querySelectorAll('tbody tr th')].map((cell) => cell.textContent).slice(-2),
          calls: [...section.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('td')][0]?.textContent).slice(-2),
          chart: [...section.querySelectorAll('.chart-canvas')][0]?.getAttribute('aria-label'),
        }));

      await signIn();
      await statusIs(`Showing ${DEFAULT_RANGE} by day, all numbers.`);
      const byDay = await shown();
      expect(byDay).toEqual({
        notes: [soFarNote('day', '2018-02-07')],
        dates: ['2018-02-06', '2018-02-07 (so far)'],
        calls: ['2', '1'],
        chart: 'Calls by day, 28 periods from 2018-01-11 to 2018-02-07: lowest 0, highest 2. The last day is not over yet: its number is the one so far. The numbers are in the table.',
      });

      // The last point, the day under way, says so under its chart too.
      const chart = '#report-events .chart:first-child';
      await page.$eval(chart, (figure: PageElement) => figure.scrollIntoView());
      const plot = await page.$eval(`${chart} .u-over`, (over: PageElement) => {
        const box = over.getBoundingClientRect();
        return { right: box.left + box.width, middle: box.top + box.height / 2 };
      });
      await page.mouse.move(plot.right - 1, plot.middle);
      await page.waitForFunction(
        (selector) => document.querySelector(selector)?.textContent === '2018-02-07 (so far): 1',
        { polling: 'mutation' },
        `${chart} .chart-readout`,
      );
      await page.screenshot({ path: screenshotPath('dashboard-so-far-1280') });

      await showQuery({ period: 'week' });
      await statusIs(`Showing ${DEFAULT_RANGE} by week, all numbers.`);
      expect((await shown()).notes).toEqual([soFarNote('week', '2018-02-05')]);
      expect((await shown()).dates).toEqual(['2018-01-29', '2018-02-05 (so far)']);

      await showQuery({ period: 'month' });
      await statusIs(`Showing ${DEFAULT_RANGE} by month, all numbers.`);
      expect((await shown()).notes).toEqual([soFarNote('month', '2018-02-01')]);
      expect((await shown()).dates).toEqual(['2018-01-01', '2018-02-01 (so far)']);

      // 23:59:58 in New York: the day is still under way (the page reads the Date header's second, plus up to one).
      await advanceClock(14 * 3600 - 2);
      await showQuery({ period: 'day' });
      await statusIs(`Showing ${DEFAULT_RANGE} by day, all numbers.`);
      expect((await shown()).dates).toEqual(['2018-02-06', '2018-02-07 (so far)']);

      // Midnight in New York: 7 February is over, and shown as any other day.
      await advanceClock(2);
      await showQuery({ period: 'day', phone: PHONE });
      await statusIs(`Showing ${DEFAULT_RANGE} by day, number ${PHONE}.`);
      expect(await shown()).toEqual({
        notes: [],
        dates: ['2018-02-06', '2018-02-07'],
        calls: ['2', '1'],
        chart: 'Calls by day, 28 periods from 2018-01-11 to 2018-02-07: lowest 0, highest 2. The numbers are in the table.',
      });
      expect(tab.problems).toEqual([]);
    });

    test('a range chosen in the form stays when signing in again after the clock moved', async () => {
      await startSandbox();
      await openDashboard();
      await signIn();
      await statusIs(`Showing ${DEFAULT_RANGE} by day, all numbers.`);
      await page.$eval('#start', (input: PageElement) => (input.value = '2018-01-01'));
      await page.click('#sign-out');
      await page.waitForSelector('#sign-in-section:not([hidden])');
      await advanceClock(30 * DAY_SECONDS);
      await signIn();
      await statusIs('Showing 2018-01-01 to 2018-02-07 by day, all numbers.');
      expect(tab.problems).toEqual([]);
    });
  });

  describe('the modules that read the headers, in the page', () => {
    /** The address of one of the page's modules, as the page names it. */
    async function moduleAddress(name: string): Promise<string> {
      const html = (await request(url()).get('/')).text;
      return new URL(`${/src="([^"]+)\/app\.js"/.exec(html)?.[1] as string}/${name}`, `${url()}/`).href;
    }

    beforeEach(async () => {
      await startSandbox();
      await openDashboard('Pacific/Kiritimati');
    });

    test('sandbox.js reads X-Sandbox-Scenarios-Active and X-Sandbox-Scenario, and notes the scenario beside a message', async () => {
      const results = await page.evaluate(async (address) => {
        const sandbox = (await import(address)) as {
          sandboxOf(headers: unknown): { active: number; scenario: string | undefined };
          withScenarioNote(message: string, scenario: string | undefined): string;
        };
        const headersOf = (entries: Record<string, string>) => new Headers(entries);
        return {
          both: sandbox.sandboxOf(headersOf({ 'X-Sandbox-Scenarios-Active': '2', 'X-Sandbox-Scenario': 'abc' })),
          none: sandbox.sandboxOf(headersOf({})),
          malformed: sandbox.sandboxOf(headersOf({ 'X-Sandbox-Scenarios-Active': 'two' })),
          noted: sandbox.withScenarioNote('unknown error', 'abc'),
          unnoted: sandbox.withScenarioNote('unknown error', undefined),
        };
      }, await moduleAddress('sandbox.js'));
      expect(results).toEqual({
        both: { active: 2, scenario: 'abc' },
        none: { active: 0 },
        malformed: { active: 0 },
        noted: 'unknown error (forced by sandbox scenario abc)',
        unnoted: 'unknown error',
      });
    });

    test("server-clock.js keeps the Date header's offset, zero when the clocks agree within its second", async () => {
      const results = await page.evaluate(async (address) => {
        const clock = (await import(address)) as {
          clockOffsetOf(date: string | null, sentAt: number, receivedAt: number): number | undefined;
          serverClock(browserNow: () => number): { note(offset: number | undefined): void; now(): number; today(): string };
        };
        const header = 'Wed, 07 Feb 2018 15:00:00 GMT';
        const date = Date.UTC(2018, 1, 7, 15, 0, 0);
        const browser = clock.serverClock(() => date);
        const todays = [browser.today()];
        browser.note(30 * 86_400_000);
        todays.push(browser.today());
        browser.note(undefined);
        todays.push(browser.today());
        return {
          agreeing: clock.clockOffsetOf(header, date + 200, date + 1100),
          serverAhead: clock.clockOffsetOf(header, date - 3000, date - 2000),
          serverBehind: clock.clockOffsetOf(header, date + 5000, date + 5100),
          noHeader: clock.clockOffsetOf(null, date, date) ?? 'none',
          unreadable: clock.clockOffsetOf('yesterday', date, date) ?? 'none',
          now: browser.now(),
          todays,
        };
      }, await moduleAddress('server-clock.js'));
      expect(results).toEqual({
        agreeing: 0,
        serverAhead: 2000,
        serverBehind: -4001,
        noHeader: 'none',
        unreadable: 'none',
        now: Date.UTC(2018, 2, 9, 15, 0, 0),
        // 15:00 UTC is the next day at UTC+14.
        todays: ['2018-02-08', '2018-03-10', '2018-03-10'],
      });
    });
  });
});
