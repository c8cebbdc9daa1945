import { mkdirSync } from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type CDPSession, type Page, type PageEvents } from 'puppeteer-core';
import { chromiumPath } from './chromium';
import { CHROMIUM, describeWith } from './real-programs';

/** Where the browser suites leave their screenshots: CI output, ignored by git. */
export const screenshotDirectory = path.resolve(__dirname, '../../.ci/tmp/screenshots');

/** puppeteer's own default, which a test's setViewport or emulation is undone to. */
const DEFAULT_VIEWPORT = { width: 800, height: 600 } as const;

/** A headless Chromium of its own for one suite; close it in afterAll. */
export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    defaultViewport: DEFAULT_VIEWPORT,
    args: [
      // Root in containers has no user namespace for Chromium's sandbox; /dev/shm is small there too.
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--disable-gpu',
      '--no-first-run',
      // Every test's server is another port of 127.0.0.1, one site: without site isolation, a tab that goes
      // from one to the next, or to about:blank, keeps its renderer process. Without the back-forward cache,
      // a page left is gone, and with it its connections (the inspector's stream), which would otherwise hold
      // the test's server.close() until they time out (docs/developing.md, "The browser suites").
      '--disable-site-isolation-trials',
      '--disable-features=site-per-process,IsolateOrigins,BackForwardCache',
    ],
  });
}

export function screenshotPath(name: string): string {
  mkdirSync(screenshotDirectory, { recursive: true });
  return path.join(screenshotDirectory, `${name}.png`);
}

/** `describe` when Chromium is installed, `describe.skip` otherwise (CI fails at once without it: the global set-up). */
export const describeInBrowser = describeWith(CHROMIUM);

type PageListener<Event extends keyof PageEvents> = (event: PageEvents[Event]) => void;

/** One Chromium, one browser context and one tab that every test of a file uses in turn. */
export interface BrowserTab {
  readonly browser: Browser;
  readonly context: BrowserContext;
  /** The tab: at about:blank, 800 x 600, in the browser's own time zone, the mouse at rest when a test begins. */
  readonly page: Page;
  /** What went wrong in the page during this test: uncaught exceptions and Content-Security-Policy refusals (none is expected, ever). */
  readonly problems: readonly string[];
  /** `page.on` for the current test only: the listener is removed when the test ends. */
  on<Event extends keyof PageEvents>(event: Event, listener: PageListener<Event>): void;
}

interface OpenedTab {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** The browser's own DevTools session, for what is set per context (downloads). */
  readonly session: CDPSession;
}

/**
 * Declares, in the calling describe block, the hooks of a file's browser tests: Chromium launched once, a
 * tab opened once, and after each test the tab taken back to a fresh start.
 *
 * Why one tab rather than a context and a tab per test: a new context needs a new renderer process, which
 * cost these suites more than their tests did (docs/developing.md, "The browser suites"). The tests stay
 * independent all the same: each serves its own app on a new port, which is a new origin, so storage, the
 * HTTP cache and the page's scripts are its own (the dashboard keeps no cookie, and sends none); what
 * outlives a navigation (other tabs, listeners, the mouse, viewport, time zone, downloads) is undone here.
 */
export function useBrowserTab(): BrowserTab {
  let opened: OpenedTab | undefined;
  const problems: string[] = [];
  const listeners: { event: keyof PageEvents; listener: PageListener<keyof PageEvents> }[] = [];
  const tab = (): OpenedTab => {
    if (opened === undefined) throw new Error('the browser tab is opened in beforeAll: use it in a test or a hook');
    return opened;
  };

  beforeAll(async () => {
    const browser = await launchBrowser();
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) problems.push(message.text());
    });
    opened = { browser, context, page, session: await browser.target().createCDPSession() };
  });

  afterEach(async () => {
    if (opened === undefined) return;
    const { context, page, session } = opened;
    for (const { event, listener } of listeners.splice(0)) page.off(event, listener);
    for (const other of await context.pages()) if (other !== page) await other.close();
    await page.goto('about:blank');
    await page.mouse.reset();
    await page.setViewport(DEFAULT_VIEWPORT);
    await page.emulateTimezone(undefined);
    await session.send('Browser.setDownloadBehavior', { behavior: 'default', browserContextId: context.id });
    problems.length = 0;
  });

  afterAll(async () => {
    await opened?.browser.close();
    opened = undefined;
  });

  return {
    get browser() {
      return tab().browser;
    },
    get context() {
      return tab().context;
    },
    get page() {
      return tab().page;
    },
    problems,
    on(event, listener) {
      tab().page.on(event, listener);
      listeners.push({ event, listener: listener as PageListener<keyof PageEvents> });
    },
  };
}
