import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import request from 'supertest';
import type { RunningServer } from '../listen';
import { ADMIN_TOKEN, BEARER, startAdminServer } from '../../test/support/admin';
import { describeInBrowser, screenshotPath, useBrowserTab, type BrowserTab } from '../../test/support/browser';
import { serve } from '../../test/support/http';
import { proxyForUrl, type TcpProxy } from '../../test/support/tcp-proxy';
import { buildTestApp } from '../../test/support/test-app';
import { plumEval, post, sessionCookieOf, svcEval } from '../../test/survey-clients/support';

/**
 * The call inspector's page (/inspector) against a real server: signing in with the admin token, the
 * calls as the survey service keeps them, new ones shown as they come by the stream (or by polling), the
 * filters. Every wait is on the page's DOM; the server's clock is the fake clock's, so every time is known.
 */

/** The fake clock's start (test/support/fake-clock.ts), as the page shows it. */
const SHOWN_START = '2018-02-07 15:00:00.000';
const WRONG_TOKEN_MESSAGE = 'missing or wrong admin token; send Authorization: Bearer <ADMIN_TOKEN>';
const LIVE = 'Live: new calls appear as they come.';
const HANDLER_MS = /^\d+(\.\d+)? ms$/;

/** A WAV file's header and then silence: 2,048 bytes. */
const WAV = Buffer.concat([Buffer.from('RIFF\x00\x08\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(2048 - 16)]);
const WAV_FIRST_BYTES = '524946460008000057415645666d7420';

interface PageElement {
  readonly textContent: string | null;
  readonly hidden: boolean;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  value: string;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { readonly top: number; readonly bottom: number };
  querySelector(selectors: string): PageElement | null;
  querySelectorAll(selectors: string): Iterable<PageElement>;
}
interface PageNode {
  readonly textContent: string | null;
}
declare const document: {
  getElementById(id: string): PageElement | null;
  querySelector(selectors: string): PageElement | null;
  querySelectorAll(selectors: string): Iterable<PageElement>;
  createRange(): {
    setStart(node: PageNode, offset: number): void;
    setEnd(node: PageNode, offset: number): void;
    selectNodeContents(node: PageElement): void;
    getClientRects(): Iterable<{ readonly top: number; readonly bottom: number; readonly width: number }>;
  };
  createTreeWalker(root: PageElement, whatToShow: number): { nextNode(): PageNode | null };
};
declare function getComputedStyle(element: PageElement): { color: string; backgroundColor: string };

let tab: BrowserTab;
let server: RunningServer | undefined;
let proxy: TcpProxy | undefined;
let page: Page;

async function startServer(env: NodeJS.ProcessEnv = {}): Promise<string> {
  server = (await startAdminServer(env)).server;
  return server.url;
}

async function openInspector(address: string): Promise<void> {
  page = tab.page;
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(`${address}/inspector`);
  await page.waitForSelector('#sign-in-section:not([hidden])');
}

async function signIn(token = ADMIN_TOKEN): Promise<void> {
  await page.$eval('#token', (input: PageElement) => (input.value = ''));
  await page.type('#token', token);
  await page.click('#sign-in button[type="submit"]');
}

/** Waits until the element says `expected`; if it never does, fails with what it said. */
async function textIs(id: string, expected: string): Promise<void> {
  try {
    // On every change of the DOM: a state the page shows for a moment only is seen all the same.
    await page.waitForFunction((elementId, text) => document.getElementById(elementId)?.textContent === text, { polling: 'mutation' }, id, expected);
  } catch (error) {
    const actual = await page.$eval(`#${id}`, (element: PageElement) => element.textContent);
    throw new Error(`#${id} says ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`, { cause: error });
  }
}

/** Signs in with the admin token and waits for the stream to be open. */
async function signInLive(): Promise<void> {
  await signIn();
  await textIs('feed-state', LIVE);
}

type ShownCell = string | [string, string][];

/** Each row's cells as text; a cell of parts as its pairs (question and answer, or part and value). */
function rowsShown(): Promise<ShownCell[][]> {
  return page.$$eval('#call-rows tr', (rows: PageElement[]) =>
    rows.map((row) =>
      [...row.querySelectorAll(':scope > th, :scope > td')].map((cell): ShownCell => {
        const pairs = [...cell.querySelectorAll('.pair')];
        if (pairs.length === 0) return cell.textContent ?? '';
        return pairs.map((pair) => [pair.querySelector('dt')?.textContent ?? '', pair.querySelector('dd')?.textContent ?? '']);
      }),
    ),
  );
}

const seqsShown = async () => (await rowsShown()).map(([seq]) => seq);

/** A row as the page shows it, the handler's time whatever it was. */
function row(seq: number, service: string, flavour: string, session: string, parts: [string, string][] | string, others: [string, string][] | string, outcome: string, handler: unknown = expect.stringMatching(HANDLER_MS)): unknown[] {
  return [String(seq), SHOWN_START, service, flavour, session, parts, others, outcome, handler];
}

/** A REST call (a form post to /survey/rest); the session it belonged to. */
async function restCall(address: string, fields: [string, string][], cookieSession?: string): Promise<string> {
  const response = await fetch(`${address}/survey/rest`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: cookieSession === undefined ? {} : { Cookie: `survey_session=${cookieSession}` },
  });
  await response.text();
  return /survey_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] ?? '';
}

const agree = (answer: string): [string, string][] => [
  ['question_texts[]', 'Agree?'],
  ['answers[]', answer],
];

/** A svcEval call; the session it belonged to. */
async function soapCall(address: string, questions: string[], answers: string[], cookieSession?: string): Promise<string> {
  const response = await post(address, svcEval(questions, answers), cookieSession === undefined ? {} : { Cookie: `survey_session=${cookieSession}` });
  expect(response.status).toBe(200);
  return sessionCookieOf(response).split('=')[1] ?? '';
}

describeInBrowser('the call inspector in headless Chromium', () => {
  tab = useBrowserTab();

  afterEach(async () => {
    await proxy?.close();
    await server?.close();
    proxy = undefined;
    server = undefined;
  });

  test('is linked from the dashboard and back, refuses a wrong token in the API\'s words, and shows the calls kept, newest first', async () => {
    const address = await startServer();
    const first = await restCall(address, agree('yes'));
    const second = await soapCall(address, ['Agree?'], ['no']);

    await openInspector(address);
    await page.click('#reports-link');
    await page.waitForSelector('#sign-in-section:not([hidden]) #login');
    await page.click('#inspector-link');
    await page.waitForSelector('#sign-in-section:not([hidden]) #token');

    await signIn('not-the-admin-token');
    await textIs('sign-in-error', WRONG_TOKEN_MESSAGE);
    expect(await page.$eval('#calls', (calls: PageElement) => calls.hidden)).toBe(true);

    await signIn();
    await textIs('summary', '2 calls shown; this server keeps its last 200.');
    await textIs('feed-state', LIVE);
    expect(await rowsShown()).toEqual([
      row(2, 'survey at /survey', 'svcEval', second, [['Agree?', 'no']], 'none', 'rejected'),
      row(1, 'survey at /survey/rest', 'rest', first, [['Agree?', 'yes']], 'none', 'accepted'),
    ]);
    expect(await page.$$eval('#call-table thead th', (cells: PageElement[]) => cells.map((cell) => cell.textContent))).toEqual([
      'Call',
      'Time (UTC)',
      'Service',
      'Flavour',
      'Session',
      'Questions and answers',
      'Other parts',
      'Outcome',
      'Handler',
    ]);
    // The token is in no address, and no longer in the form.
    expect(page.url()).toBe(`${address}/inspector`);
    expect(await page.$eval('#token', (input: PageElement) => input.value)).toBe('');

    await page.click('#sign-out');
    await page.waitForSelector('#sign-in-section:not([hidden])');
    expect(await rowsShown()).toEqual([]);
    expect(tab.problems).toEqual([]);
  });

  test('shows each call as it comes, without reloading, and announces it: a recording, a file, a fault, a text the server cut', async () => {
    const address = await startServer();
    await openInspector(address);
    await signInLive();
    await textIs('summary', 'No calls yet; this server keeps its last 200.');

    const soap = await soapCall(address, ['Agree?', 'Your message'], ['yes', WAV.toString('base64')]);
    await page.waitForSelector('#call-1');
    await textIs('announcement', '1 new call, the newest #1.');
    expect(await rowsShown()).toEqual([
      row(1, 'survey at /survey', 'svcEval', soap, [['Agree?', 'yes'], ['Your message', `recording, 2048 bytes, audio/wav, first bytes ${WAV_FIRST_BYTES}`]], 'none', 'accepted'),
    ]);

    const form = new FormData();
    form.append('question_texts[]', 'Tell us more');
    form.append('answers[]', 'Long story. '.repeat(100));
    form.append('dnis', '18005550100');
    form.append('recording', new Blob([WAV], { type: 'audio/wav' }), 'file-1.wav');
    const withFile = await fetch(`${address}/survey/rest`, { method: 'POST', body: form });
    expect(await withFile.text()).toBe('rejected');
    await page.waitForSelector('#call-2');

    // Two questions, one answer: the call breaks a rule of the service, and is kept with its fault.
    await restCall(address, [['question_texts[]', 'A?'], ['question_texts[]', 'B?'], ['answers[]', 'yes']]);
    await page.waitForSelector('#call-3');
    await textIs('announcement', '1 new call, the newest #3.');
    await textIs('summary', '3 calls shown; this server keeps its last 200.');

    const [fault, file] = await rowsShown();
    expect(fault).toEqual(
      row(
        3,
        'survey at /survey/rest',
        'rest',
        'none',
        [['A?', 'yes'], ['B?', 'no answer']],
        'none',
        'Fault IVR_INVALID_SURVEY_CALL: question_texts has 2 items but answers has 1 item; answers[i] must be the answer to question_texts[i]',
      ),
    );
    expect(file).toEqual(
      row(
        2,
        'survey at /survey/rest',
        'rest',
        expect.stringMatching(/^[0-9a-f]{32}$/),
        [['Tell us more', `${'Long story. '.repeat(100).slice(0, 1000)} [cut by the server: 1200 characters in all]`]],
        [['dnis', '18005550100'], ['file', `file-1.wav, 2048 bytes, audio/wav, first bytes ${WAV_FIRST_BYTES}`]],
        'rejected',
      ),
    );
    // A fault is told in words, in the error colour of the page.
    expect(await page.$eval('#call-3 .fault', (element: PageElement) => getComputedStyle(element).color)).toBe('rgb(180, 35, 24)');
    await page.screenshot({ path: screenshotPath('inspector-1280'), fullPage: true });
    await page.setViewport({ width: 390, height: 844 });
    await page.screenshot({ path: screenshotPath('inspector-390'), fullPage: true });
    expect(tab.problems).toEqual([]);
  });

  test('keeps its columns readable at 1280, 1366 and 1920 px with long parts: no token split, texts broken between words only; screenshots', async () => {
    const address = await startServer();
    const parts: [string, string][] = [
      ['ani_ip', '+16175550123'],
      ['dnis', '18005550100'],
      ['session_id', 'respondent-42'],
    ];
    const question = 'Thinking of your last three calls, how likely are you to recommend our service to a friend or a colleague, and why?';
    const answer = 'Very likely: the agent was patient, the menus were short, and nobody asked me for my account number twice.';
    // Two questions, one answer: a fault, with its long message.
    await restCall(address, [['question_texts[]', question], ['question_texts[]', 'Anything else?'], ['answers[]', answer], ...parts]);
    await restCall(address, [['question_texts[]', question], ['answers[]', answer], ...parts]);
    // The longest flavour, plumEval, with the same parts.
    const plum = await post(address, plumEval([question], [answer], Object.fromEntries(parts)), {}, '/survey/plum');
    expect(plum.status).toBe(200);
    await openInspector(address);
    await signInLive();
    await textIs('summary', '3 calls shown; this server keeps its last 200.');

    for (const width of [1280, 1366, 1920]) {
      await page.setViewport({ width, height: 900 });
      const layout = await page.evaluate(() => {
        /** How many lines the text from `start` to `end` of a text node takes. */
        const linesOf = (node: PageNode, start: number, end: number): number => {
          const range = document.createRange();
          range.setStart(node, start);
          range.setEnd(node, end);
          return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size;
        };
        const textNodes = (element: PageElement): PageNode[] => {
          const walker = document.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
          const nodes: PageNode[] = [];
          for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) nodes.push(node);
          return nodes;
        };
        /** The words of the element that a line end splits. */
        const brokenWords = (element: PageElement): string[] =>
          textNodes(element).flatMap((node) =>
            [...(node.textContent ?? '').matchAll(/\S+/g)]
              .filter((word) => linesOf(node, word.index, word.index + word[0].length) > 1)
              .map((word) => word[0]),
          );
        const region = document.querySelector('.calls-scroll') as PageElement;
        const rows = [...document.querySelectorAll('#call-rows tr')];
        return {
          fits: region.scrollWidth <= region.clientWidth,
          // Each part's value, and the lines it takes.
          parts: rows.map((row) =>
            [...row.querySelectorAll('.named-parts dd')].map((value) => [
              value.textContent,
              textNodes(value).reduce((lines, node) => lines + linesOf(node, 0, (node.textContent ?? '').length), 0),
            ]),
          ),
          // Every cell but the session id, which breaks anywhere: time, service, questions, answers, parts, outcome.
          broken: rows.flatMap((row) => [...row.querySelectorAll(':scope > td:not(.session)')].flatMap(brokenWords)),
        };
      });
      await page.screenshot({ path: screenshotPath(`inspector-long-parts-${width}`), fullPage: true });
      const onOneLine = parts.map(([, value]) => [value, 1]);
      expect({ width, ...layout }).toEqual({
        width,
        fits: true,
        parts: [onOneLine, onOneLine, onOneLine],
        broken: [],
      });
    }
    expect(tab.problems).toEqual([]);
  });

  test('keeps the outlined Pause button\'s text on hover, pressed or not, and lines the filters up with their buttons', async () => {
    const address = await startServer();
    await openInspector(address);
    await signInLive();
    const colours = () =>
      page.$eval('#pause', (button: PageElement) => {
        const style = getComputedStyle(button);
        return { color: style.color, background: style.backgroundColor };
      });
    await page.hover('#pause');
    expect(await colours()).toEqual({ color: 'rgb(30, 58, 138)', background: 'rgb(224, 232, 251)' });
    await page.click('#pause');
    expect(await colours()).toEqual({ color: 'rgb(255, 255, 255)', background: 'rgb(30, 58, 138)' });
    await page.mouse.move(0, 0);
    expect(await colours()).toEqual({ color: 'rgb(255, 255, 255)', background: 'rgb(29, 78, 216)' });

    for (const width of [1280, 1920]) {
      await page.setViewport({ width, height: 900 });
      const boxes = await page.$$eval('#filters input, #filters select, #filters > button', (controls: PageElement[]) =>
        controls.map((control) => {
          const box = control.getBoundingClientRect();
          return { top: Math.round(box.top), bottom: Math.round(box.bottom) };
        }),
      );
      expect(boxes).toHaveLength(4);
      expect(boxes).toEqual(boxes.map(() => boxes[0]));
    }
    expect(tab.problems).toEqual([]);
  });

  test('holds no more calls than the server keeps', async () => {
    const address = await startServer({ SURVEY_INSPECT_CALLS: '2' });
    await restCall(address, agree('yes'));
    await openInspector(address);
    await signInLive();
    await textIs('summary', '1 call shown; this server keeps its last 2.');
    await restCall(address, agree('no'));
    await restCall(address, agree('yes'));
    await page.waitForSelector('#call-3');
    expect(await seqsShown()).toEqual(['3', '2']);
    await textIs('summary', '2 calls shown; this server keeps its last 2.');
    expect(tab.problems).toEqual([]);
  });

  test('filters by session, what is loaded and what comes', async () => {
    const address = await startServer();
    const mine = await restCall(address, agree('yes'));
    const other = await soapCall(address, ['Agree?'], ['no']);
    await restCall(address, agree('no'), mine);
    await openInspector(address);
    await signInLive();
    expect(await seqsShown()).toEqual(['3', '2', '1']);

    await page.type('#session-filter', mine);
    await page.click('#filters button[type="submit"]');
    await textIs('summary', `2 calls of session ${mine} shown; this server keeps its last 200.`);
    expect(await seqsShown()).toEqual(['3', '1']);

    // The stream brings every call in order: once call 5 is shown, call 4, another session's, was left out.
    await soapCall(address, ['Agree?'], ['yes'], other);
    await restCall(address, agree('yes'), mine);
    await page.waitForSelector('#call-5');
    expect(await seqsShown()).toEqual(['5', '3', '1']);

    await page.$eval('#session-filter', (input: PageElement) => (input.value = ''));
    await page.click('#filters button[type="submit"]');
    await textIs('summary', '5 calls shown; this server keeps its last 200.');
    expect(await seqsShown()).toEqual(['5', '4', '3', '2', '1']);

    await page.type('#session-filter', 'not a session');
    await page.click('#filters button[type="submit"]');
    await textIs('filter-error', 'A session id is 1 to 128 letters, digits, _ or -.');
    expect(await seqsShown()).toEqual(['5', '4', '3', '2', '1']);
    expect(tab.problems).toEqual([]);
  });

  test('filters by the services seen, when SURVEY_SERVICES serves several', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'inspector-services-'));
    try {
      const services = path.join(folder, 'services.yaml');
      writeFileSync(services, 'services:\n  - name: sample\n    path: /survey\n  - name: consent\n');
      const address = await startServer({ SURVEY_SERVICES: services });
      for (const servicePath of ['/survey/rest', '/survey/consent/rest', '/survey/rest']) {
        expect((await fetch(`${address}${servicePath}`, { method: 'POST', body: new URLSearchParams(agree('yes')) })).status).toBe(200);
      }
      await openInspector(address);
      await signInLive();
      expect(await seqsShown()).toEqual(['3', '2', '1']);
      expect(await page.$$eval('#service-filter option', (options: PageElement[]) => options.map((option) => option.textContent))).toEqual([
        'All services',
        'consent',
        'sample',
      ]);
      await page.select('#service-filter', 'consent');
      await textIs('summary', '1 of 3 calls shown; this server keeps its last 200.');
      expect(await seqsShown()).toEqual(['2']);
      expect((await rowsShown())[0]?.[2]).toBe('consent at /survey/consent/rest');
      expect(tab.problems).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('writes the calls shown and the feed\'s state, live or paused, on one line at 1366 and 1920 px; screenshots', async () => {
    const address = await startServer();
    for (const answer of ['yes', 'no', 'maybe']) await restCall(address, agree(answer));
    await openInspector(address);
    await signInLive();
    await textIs('summary', '3 calls shown; this server keeps its last 200.');
    // Each text's box: the same top and bottom for texts of one size is the same baseline.
    const lines = () =>
      page.evaluate(() =>
        ['summary', 'feed-state'].map((id) => {
          const range = document.createRange();
          range.selectNodeContents(document.getElementById(id) as PageElement);
          const boxes = [...range.getClientRects()];
          return { lines: boxes.length, top: Math.round(boxes[0]?.top ?? -1), bottom: Math.round(boxes[0]?.bottom ?? -1) };
        }),
      );
    for (const width of [1366, 1920]) {
      await page.setViewport({ width, height: 900 });
      const [summary, feedState] = await lines();
      expect(summary?.lines).toBe(1);
      expect(feedState).toEqual(summary);
      await page.screenshot({ path: screenshotPath(`inspector-${width}`), fullPage: true });
    }
    await page.click('#pause');
    await textIs('feed-state', 'Paused: new calls are held until you resume.');
    const [summary, feedState] = await lines();
    expect(feedState).toEqual(summary);
    expect(tab.problems).toEqual([]);
  });

  test('pauses: new calls are held, then shown and announced on resuming', async () => {
    const address = await startServer();
    await openInspector(address);
    await signInLive();
    await page.click('#pause');
    expect(await page.$eval('#pause', (button: PageElement) => button.getAttribute('aria-pressed'))).toBe('true');
    await textIs('feed-state', 'Paused: new calls are held until you resume.');

    await restCall(address, agree('yes'));
    await restCall(address, agree('no'));
    await textIs('feed-state', 'Paused: 2 new calls held until you resume.');
    expect(await seqsShown()).toEqual([]);

    await page.click('#pause');
    await textIs('announcement', '2 new calls, the newest #2.');
    expect(await seqsShown()).toEqual(['2', '1']);
    await textIs('feed-state', LIVE);
    expect(tab.problems).toEqual([]);
  });

  test('reconnects after the stream drops, and shows the calls made meanwhile', async () => {
    const address = await startServer();
    const proxied = await proxyForUrl(address);
    proxy = proxied.proxy;
    await openInspector(proxied.url.replace(/\/$/, ''));
    await signInLive();

    await proxy.cut();
    await textIs('feed-state', 'The stream of calls dropped; reconnecting in 1 s.');
    await restCall(address, agree('yes'));
    await proxy.restore();
    // The page asks for the calls after the last one it saw (Last-Event-ID): the one made while it was away.
    await page.waitForSelector('#call-1');
    await textIs('feed-state', LIVE);
    expect(tab.problems).toEqual([]);
  });

  test('polls instead while the server has as many streams open as it allows', async () => {
    const address = await startServer();
    const streams = new AbortController();
    try {
      const opened = await Promise.all(
        Array.from({ length: 10 }, () => fetch(`${address}/admin/survey/calls/stream`, { headers: { Authorization: BEARER }, signal: streams.signal })),
      );
      expect(opened.map(({ status }) => status)).toEqual(Array.from({ length: 10 }, () => 200));
      await openInspector(address);
      await signIn();
      await textIs('feed-state', 'Polling every 2 s: the server has as many streams of calls open as it allows.');
      await restCall(address, agree('yes'));
      await page.waitForSelector('#call-1');
      await textIs('announcement', '1 new call, the newest #1.');
    } finally {
      streams.abort();
    }
    expect(tab.problems).toEqual([]);
  });

  test('says when the admin API is off', async () => {
    server = await serve(buildTestApp({}).app);
    await openInspector(server.url);
    await signIn('any-token-at-all');
    await textIs('sign-in-error', 'The admin API is off: start the server with ADMIN_TOKEN.');
    expect(tab.problems).toEqual([]);
  });

  test('says when the call inspector is off', async () => {
    const address = await startServer({ SURVEY_INSPECT_CALLS: '0' });
    await openInspector(address);
    await signIn();
    await page.waitForSelector('#inspector-off:not([hidden])');
    expect(await page.$eval('#inspector-off', (notice: PageElement) => notice.textContent)).toBe(
      'The call inspector is off: this server keeps no survey calls (SURVEY_INSPECT_CALLS=0).',
    );
    expect(await page.$eval('#inspector-on', (calls: PageElement) => calls.hidden)).toBe(true);
    expect(tab.problems).toEqual([]);
  });

  describe('its modules, in the page', () => {
    /** The address of one of the page's modules, as the page names it. */
    async function moduleAddress(address: string, name: string): Promise<string> {
      const html = (await request(address).get('/inspector')).text;
      return new URL(`${/src="([^"]+)\/inspector\.js"/.exec(html)?.[1] as string}/${name}`, `${address}/`).href;
    }

    test('event-stream.js reads events cut anywhere, with any line end, and drops comments and events without data', async () => {
      const address = await startServer();
      await openInspector(address);
      const events = await page.evaluate(async (moduleUrl) => {
        const { eventStreamParser } = (await import(moduleUrl)) as {
          eventStreamParser: (dispatch: (event: unknown) => void) => { push(text: string): void };
        };
        const dispatched: unknown[] = [];
        const parser = eventStreamParser((event) => dispatched.push(event));
        const stream = ': the call inspector\n\nevent: call\nid: 7\ndata: {"seq":\ndata:7}\r\n\r\nid: 8\r\r: heartbeat\n\ndata:  two spaces\nevent\n\n';
        // Every cut: a CRLF split in two halves, a field name split, a line end alone.
        for (const chunk of stream.match(/.{1,3}/gs) ?? []) parser.push(chunk);
        return dispatched;
      }, await moduleAddress(address, 'event-stream.js'));
      expect(events).toEqual([
        { type: 'call', data: '{"seq":\n7}', lastEventId: '7' },
        // An event with no data is dropped, but its id is kept; a field without a colon is empty.
        { type: 'message', data: ' two spaces', lastEventId: '8' },
      ]);
    });

    test("call-view.js shows the service with the path the call came to, a recording of unknown type, a cut answer and a call the handler never ran", async () => {
      const address = await startServer();
      await openInspector(address);
      const cells = await page.evaluate(async (moduleUrl) => {
        const { callRow } = (await import(moduleUrl)) as { callRow: (call: unknown) => PageElement };
        const shown = callRow({
          seq: 12,
          at: '2018-02-07T15:00:00.000Z',
          service: 'consent',
          path: '/consent/rest',
          flavour: 'rest',
          session: null,
          parts: {
            question_texts: ['Agree?', ''],
            answers: [{ recording: { size: 300, first_bytes: '07070707' } }],
            ani_ip: '192.0.2.1',
            dnis: null,
            session_id: { text: 'abc', length: 1500, truncated: true },
            files: [],
          },
          outcome: { answer: { text: 'accepted', length: 2000, truncated: true } },
          handler_ms: null,
        });
        return [...shown.querySelectorAll('th, td')].map((cell) => cell.textContent);
      }, await moduleAddress(address, 'call-view.js'));
      expect(cells).toEqual([
        '12',
        SHOWN_START,
        'consent at /consent/rest',
        'rest',
        'none',
        'Agree?recording, 300 bytes, first bytes 07070707emptyno answer',
        'ani_ip192.0.2.1session_idabc [cut by the server: 1500 characters in all]',
        'accepted [cut by the server: 2000 characters in all]',
        'not run',
      ]);
    });

    test('call-view.js shows a call whose connection a scenario dropped as a faulty row that says so', async () => {
      const address = await startServer();
      await openInspector(address);
      const shown = await page.evaluate(async (moduleUrl) => {
        const { callRow } = (await import(moduleUrl)) as { callRow: (call: unknown) => PageElement };
        const row = callRow({
          seq: 3,
          at: '2018-02-07T15:00:00.000Z',
          service: 'survey',
          path: '/survey',
          flavour: 'svcEval',
          session: null,
          parts: { question_texts: ['Agree?'], answers: ['yes'], ani_ip: null, dnis: null, session_id: null, files: [] },
          outcome: { connection: 'reset' },
          handler_ms: null,
        });
        return { rowClass: row.getAttribute('class'), outcome: row.querySelector('.fault')?.textContent };
      }, await moduleAddress(address, 'call-view.js'));
      expect(shown).toEqual({ rowClass: 'faulty', outcome: 'Connection reset by a scenario, before any byte of the answer' });
    });
  });
});
