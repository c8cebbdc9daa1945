import { DateTime } from 'luxon';
import type { RunningServer } from '../listen';
import { addCalls, call } from '../../test/support/reporting';
import { describeInBrowser, useBrowserTab } from '../../test/support/browser';
import { serve } from '../../test/support/http';
import { addAccount, buildTestApp } from '../../test/support/test-app';

/**
 * The account 11 hours behind UTC, the browser 14 hours ahead: the browser's today, where the default
 * range ends, is always one or two days after the account's, whatever the hour.
 */
const ACCOUNT_ZONE = 'Pacific/Pago_Pago';
const BROWSER_ZONE = 'Pacific/Kiritimati';
const PHONE = '18005550100';

interface PageElement {
  readonly textContent: string | null;
  querySelectorAll(selectors: string): Iterable<PageElement>;
}
declare const document: {
  getElementById(id: string): PageElement | null;
};

let server: RunningServer;

describeInBrowser('the dashboard when the account\'s day is behind the browser\'s', () => {
  const tab = useBrowserTab();

  afterEach(() => server?.close());

  test('ends its charts and tables on the account\'s today, never on a day that has not begun there', async () => {
    const testApp = buildTestApp();
    await addAccount(testApp.store, { timeZone: ACCOUNT_ZONE, phones: [PHONE] });
    const accountToday = DateTime.now().setZone(ACCOUNT_ZONE).startOf('day');
    await addCalls(testApp.store, [call(PHONE, accountToday.plus({ minutes: 1 }).toISO() as string, { log_events: 3 })]);
    server = await serve(testApp.app);
    const { page } = tab;
    await page.emulateTimezone(BROWSER_ZONE);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('#sign-in-section:not([hidden])');
    await page.type('#login', 'alice');
    await page.type('#password', 'secret-password');
    await page.click('#sign-in button[type="submit"]');
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Showing ') === true);

    const shown = await page.$eval('#report-events', (section: PageElement) => ({
      note: [...section.querySelectorAll('.not-begun')].map((note) => note.textContent),
      soFar: [...section.querySelectorAll('.so-far')].map((note) => note.textContent),
      dates: [...section.querySelectorAll('tbody tr th')].map((cell) => cell.textContent),
    }));
    const browserToday = DateTime.now().setZone(BROWSER_ZONE).startOf('day');
    const notBegun = browserToday.diff(DateTime.fromISO(accountToday.toISODate() as string, { zone: BROWSER_ZONE }), 'days').days;
    // The account's today is under way: the table says its numbers are those so far.
    expect(shown.dates.at(-1)).toBe(`${accountToday.toISODate()} (so far)`);
    expect(shown.dates).toHaveLength(28 - notBegun);
    expect(shown.note).toEqual([
      notBegun === 1
        ? "The last day of the range has not begun yet in the account's time zone, so it is left out."
        : `The last ${notBegun} days of the range have not begun yet in the account's time zone, so they are left out.`,
    ]);
    // The day under way is the last shown, not the range's last, which the note above says has not begun.
    expect(shown.soFar).toEqual([
      `The last day shown, starting ${accountToday.toISODate()}, is not over yet in the account's time zone: its numbers are those so far, dashed in the charts and marked "(so far)" in the table.`,
    ]);
    expect(tab.problems).toEqual([]);
  });
});
