import type { JSHandle, Page } from 'puppeteer-core';
import type { RunningServer } from '../listen';
import { DEMO_ACCOUNT, loadDemoData } from '../startup-data/demo/demo-account';
import { describeInBrowser, screenshotPath, useBrowserTab } from '../../test/support/browser';
import { serve } from '../../test/support/http';
import { FakeClock } from '../../test/support/fake-clock';
import { buildTestApp, type TestApp } from '../../test/support/test-app';
import { ADMIN_TOKEN, documentOf, documentedOperations } from '../../test/support/openapi';

let testApp: TestApp;
let server: RunningServer;
let page: Page;
/** What the page asked for, and what it reported as an error (a refusal of its Content-Security-Policy among them). */
const requested: string[] = [];
const consoleErrors: string[] = [];

const AUTH = '#operations-Authentication-authenticate';
const EVENTS = '#operations-Raw_data-getEvents';

/** An element as measured in the page: the browser's DOM types are not in this project's. */
interface Boxed {
  getBoundingClientRect(): { readonly left: number; readonly top: number; readonly bottom: number; readonly width: number };
}

/** A property of an element, read as a plain handle: the browser's DOM types are not in this project's. */
async function stringProperty(element: JSHandle, property: string): Promise<string> {
  return String(await (await element.getProperty(property)).jsonValue());
}

describeInBrowser('the API reference page in Chromium', () => {
  const tab = useBrowserTab();

  beforeEach(async () => {
    // 02:00 in New York: the browser's day (UTC) is already the one after the account's.
    testApp = buildTestApp({ ADMIN_TOKEN }, new FakeClock(Date.parse('2026-11-25T07:00:00Z')));
    await loadDemoData(testApp.store, testApp.clock);
    server = await serve(testApp.app);
    page = tab.page;
    requested.length = 0;
    consoleErrors.length = 0;
    tab.on('request', (sent) => requested.push(sent.url()));
    tab.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  });

  afterEach(() => server.close());

  /** Waits until the live answer of an operation tried out shows `status`. */
  async function answerStatus(operation: string, status: string): Promise<void> {
    await page.waitForSelector(`${operation} .live-responses-table tbody .response-col_status ::-p-text(${status})`);
  }

  /** A property of the first element `selector` finds. */
  async function propertyOf(selector: string, property: string): Promise<string> {
    const element = await page.$(selector);
    if (element === null) throw new Error(`nothing matches ${selector}`);
    return stringProperty(element, property);
  }

  async function tryOut(operation: string): Promise<void> {
    await page.locator(`${operation} .opblock-summary`).click();
    await page.locator(`${operation} .try-out__btn`).click();
  }

  test('renders every operation of the document, loading nothing from elsewhere and breaking no rule of its policy', async () => {
    const expected = documentedOperations(documentOf(testApp)).map(
      ({ operation }) => `operations-${(operation.tags as string[])[0]?.replace(/ /g, '_')}-${operation.operationId as string}`,
    );
    await page.goto(`${server.url}/docs`);
    await page.waitForFunction(`document.querySelectorAll('.opblock').length === ${expected.length}`);
    const blocks = await page.$$('.opblock');
    expect(await Promise.all(blocks.map((block) => stringProperty(block, 'id')))).toEqual(expected);
    expect(await propertyOf('.info .title', 'textContent')).toContain('IVR reporting server');
    await page.screenshot({ path: screenshotPath('docs-page'), fullPage: true });
    expect(requested.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(tab.problems).toEqual([]);
  });

  test('links back to the dashboard from its header, in view above the reference at 1366 and 1920 px; screenshots', async () => {
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('.info .title');
    for (const width of [1366, 1920]) {
      await page.setViewport({ width, height: 900 });
      const [link, title] = await Promise.all(
        ['#dashboard-link', '.info .title'].map((selector) =>
          page.$eval(selector, (element: Boxed) => {
            const box = element.getBoundingClientRect();
            return { left: Math.round(box.left), top: box.top, bottom: box.bottom, width: box.width };
          }),
        ),
      );
      // Above the reference's title, at its left edge, and in the window.
      expect(link?.width).toBeGreaterThan(0);
      expect(link?.top).toBeGreaterThanOrEqual(0);
      expect(link?.bottom).toBeLessThanOrEqual(title?.top ?? 0);
      expect(link?.left).toBe(title?.left);
      await page.screenshot({ path: screenshotPath(`docs-page-${width}`) });
    }
    await Promise.all([page.waitForNavigation(), page.click('#dashboard-link')]);
    expect(page.url()).toBe(`${server.url}/`);
    await page.waitForSelector('#sign-in-section:not([hidden])');
    expect(consoleErrors).toEqual([]);
    expect(tab.problems).toEqual([]);
  });

  test('"Try it out" on POST /api/auth, the password in the body, then on the event tracker with the values the page offers: the demo data of the two days before today', async () => {
    const sentToAuth: { url: string; body: string | undefined }[] = [];
    tab.on('request', (sent) => {
      if (new URL(sent.url()).pathname === '/api/auth') sentToAuth.push({ url: sent.url(), body: sent.postData() });
    });
    await page.goto(`${server.url}/docs`);
    await tryOut(AUTH);
    // The fields are the body's only, the password typed into a password field: none is offered for the address.
    expect(await page.$$(`${AUTH} tr[data-param-in]`)).toEqual([]);
    expect(await propertyOf(`${AUTH} tr[data-property-name="password"] input`, 'type')).toBe('password');
    await page.locator(`${AUTH} tr[data-property-name="login"] input`).fill(DEMO_ACCOUNT.login);
    await page.locator(`${AUTH} tr[data-property-name="password"] input`).fill(DEMO_ACCOUNT.password);
    await page.locator(`${AUTH} .execute`).click();
    await answerStatus(AUTH, '200');
    expect(sentToAuth).toEqual([
      { url: `${server.url}/api/auth`, body: new URLSearchParams({ tool: DEMO_ACCOUNT.tool, login: DEMO_ACCOUNT.login, password: DEMO_ACCOUNT.password }).toString() },
    ]);
    const issued = JSON.parse(await propertyOf(`${AUTH} .live-responses-table .response-col_description pre`, 'textContent')) as {
      login: string;
      password: string;
    };
    expect(issued).toEqual({ login: expect.stringMatching(/^[0-9a-f]{32}$/), password: expect.stringMatching(/^[0-9a-f]{32}$/) });

    await tryOut(EVENTS);
    await page.locator(`${EVENTS} .execute`).click();
    await answerStatus(EVENTS, '200');
    const curl = await propertyOf(`${EVENTS} .curl-command`, 'textContent');
    expect(curl).toContain(`${server.url}/api/events/20261123/20261124/day/ALL`);
    expect(curl).toContain(`Authorization: Basic ${Buffer.from(`${issued.login}:${issued.password}`).toString('base64')}`);
    const report = JSON.parse(await propertyOf(`${EVENTS} .live-responses-table .response-col_description pre`, 'textContent')) as {
      calls: Record<string, number>;
    };
    expect(Object.keys(report)).toEqual(['calls', 'log_events', 'loops_per_call', 'form_items', 'loops', 'average_form_items']);
    // Midnights in New York of the 23rd and 24th, each with the demo data's calls.
    expect(Object.keys(report.calls)).toEqual(['1795410000', '1795496400']);
    expect(Object.values(report.calls).filter((calls) => calls > 0)).toHaveLength(2);
    await page.screenshot({ path: screenshotPath('docs-page-try-it-out'), fullPage: true });
    expect(consoleErrors).toEqual([]);
    expect(tab.problems).toEqual([]);
  });
});
