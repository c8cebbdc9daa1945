import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { LIMITS_OUT_OF_REACH } from '../../../test/support/test-app';
import { admin, ADMIN_TOKEN, startAdminServer, type AdminServer } from '../../../test/support/admin';
import { runCli } from '../../../test/support/cli';
import { reportingAccount } from '../../../test/support/report-comparison';
import { AdminClient } from '../admin-client';
import { CliError } from '../cli-error';
import { ceilingsOf, DEFAULT_MAX_CALLS } from './checks';
import { mirror, type MirrorRequest, type MirrorTarget } from './mirror';
import { mirrorProgress } from './progress';
import type { SourceTime } from './source';
import { exactness } from './summary';

/*
 * What the mirror does with a source that says whatever it likes: a tiny server of the reporting API's
 * routes answering crafted figures, redirects, bodies, failures and refusals, in front of a real server here.
 */

const PHONE = '18005550100';
const INTO = 'dev/bounds';
const RANGE = { start: '20180101', end: '20180103' };
/** Each of the fake source's days: three calls, two of them from Massachusetts callers. */
const A_DAY = {
  calls: 3,
  call_minutes: 4.5,
  transfers: 1,
  transfer_minutes: 0.5,
  log_events: 10,
  loops: 1,
  form_items: 4,
  js_errors: 1,
  fetch_errors: 0,
  average_page_load: 0.25,
  callers: 2,
};
type DayValues = typeof A_DAY;
type Field = keyof DayValues;

const REPORT_FIELDS: Readonly<Record<string, readonly Field[]>> = {
  volume: ['calls', 'call_minutes', 'transfers', 'transfer_minutes'],
  events: ['calls', 'log_events', 'loops', 'form_items'],
  performance: ['calls', 'js_errors', 'fetch_errors', 'average_page_load'],
  profile: ['calls', 'callers'],
};

interface Asked {
  /** volume, events, performance, profile, geographic, flow, auth. */
  readonly report: string;
  readonly days: readonly string[];
  readonly url: string;
}

/** What the fake source sends: JSON with a status (200 by default), or a response written by hand. */
type Answer = { readonly status?: number; readonly headers?: Readonly<Record<string, string>>; readonly body?: unknown } | ((response: ServerResponse) => void);

interface FakeSourceOptions {
  /** A day's figures in place of A_DAY's. */
  readonly days?: Readonly<Record<string, Partial<DayValues>>>;
  /** The answer to a request, in place of the one the figures make. */
  readonly answer?: (asked: Asked, made: unknown) => Answer | undefined;
}

interface FakeServer {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

const utcSecond = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(4, 6)) - 1, Number(day.slice(6, 8))) / 1000;

function daysFrom(start: string, end: string): string[] {
  const days: string[] = [];
  for (let second = utcSecond(start); second <= utcSecond(end); second += 86_400) days.push(new Date(second * 1000).toISOString().slice(0, 10).replaceAll('-', ''));
  return days;
}

/** The fake source's own answer to a request: the days' figures in the shape of the reporting API's JSON. */
function madeAnswer(report: string, days: readonly string[], figures: FakeSourceOptions['days'] = {}): unknown {
  const on = (day: string): DayValues => ({ ...A_DAY, ...figures[day] });
  const fields = REPORT_FIELDS[report];
  if (fields !== undefined) return Object.fromEntries(fields.map((field) => [field, Object.fromEntries(days.map((day) => [String(utcSecond(day)), on(day)[field]]))]));
  if (report === 'geographic') return { US: { MA: days.reduce((sum, day) => sum + on(day).callers, 0) }, NON_US: [] };
  if (report === 'flow') {
    return { applications: { 'https://ivr.example.com/start.vxml': [{ page: 'main.vxml', form: 'menu', item: 'choice', visits: 1, filled: 1, nomatch: 0, noinput: 0, transfer: 0, disconnect: 0 }] } };
  }
  return { login: '0123456789abcdef0123456789abcdef', password: 'fedcba9876543210fedcba9876543210' };
}

/** `/api/volume/20180101/20180103/day/18005550100` to the report and its days. */
function askedOf(url: string): Asked {
  const [, resource, start = '', end = '', ...rest] = /^\/api\/(\w+)(?:\/(\d{8})\/(\d{8}))?(.*)$/.exec(url) ?? [];
  const days = start === '' ? [] : daysFrom(start, end);
  const series = rest.join('').split('/').length === 3;
  const report = resource === 'path' ? 'flow' : resource === 'profile' && !series ? 'geographic' : (resource ?? '');
  return { report, days, url };
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

function closed(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

async function startFakeSource({ days, answer }: FakeSourceOptions = {}): Promise<FakeServer> {
  const requests: string[] = [];
  const server = http.createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const url = incoming.url ?? '';
    requests.push(`${incoming.method} ${url}`);
    incoming.resume();
    const asked = askedOf(url);
    const made = madeAnswer(asked.report, asked.days, days);
    const chosen = answer?.(asked, made) ?? { body: made };
    if (typeof chosen === 'function') return chosen(response);
    response.writeHead(chosen.status ?? 200, { 'Content-Type': 'application/json', ...chosen.headers });
    response.end(chosen.body === undefined ? '' : JSON.stringify(chosen.body));
  });
  const url = await listen(server);
  return { url, requests, close: () => closed(server) };
}

let target: AdminServer;
let sources: FakeServer[] = [];

async function fakeSource(options: FakeSourceOptions = {}): Promise<FakeServer> {
  const source = await startFakeSource(options);
  sources.push(source);
  return source;
}

beforeEach(async () => {
  target = await startAdminServer(LIMITS_OUT_OF_REACH);
  await admin(target.url).put(`/admin/accounts/${INTO}`).send({ password: 'bounds-password', timezone: 'UTC' }).expect(201);
  await admin(target.url).put(`/admin/accounts/${INTO}/phones/${PHONE}`).expect(201);
});

afterEach(async () => {
  for (const source of sources) await source.close();
  sources = [];
  await target.server.close();
});

function mirrorArgs(from: string, range: { start: string; end: string } = RANGE, ...more: string[]): string[] {
  return ['mirror', '--from', from, '--tool', 'dev', '--login', 'demo', '--password', 'demo-password', '--phones', PHONE, '--start', range.start, '--end', range.end, '--into', INTO, '--url', target.url, '--token', ADMIN_TOKEN, ...more];
}

/** The calls of the account here over January 2018, through its reporting API: what a run wrote. */
async function callsHere(): Promise<number> {
  const account = await reportingAccount(target.url, 'dev', 'bounds', 'bounds-password');
  const answer = await request(target.url).get(`/api/volume/20180101/20180131/month/${PHONE}`).auth(account.credentials.login, account.credentials.password);
  return Object.values((answer.body as { calls: Record<string, number> }).calls).reduce((sum, calls) => sum + calls, 0);
}

/** A run refused: exit code 1, one line on standard error without a stack, nothing on standard output, nothing written. */
async function refusal(args: string[]): Promise<string> {
  const run = await runCli(args);
  expect(run.stdout).toBe('');
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^ivr-reporting: [^\n]+\n$/);
  expect(await callsHere()).toBe(0);
  return run.stderr.replace(/^ivr-reporting: /, '').trimEnd();
}

describe('ivr-reporting mirror checks the counts of calls against its ceilings', () => {
  test('refuses a day of 1,000,000,000 calls, naming the figure, the number and the day, and writes nothing', async () => {
    const source = await fakeSource({ days: { '20180103': { calls: 1_000_000_000 } } });
    expect(await refusal(mirrorArgs(source.url))).toBe(
      `the source's volume report for ${PHONE} on 20180103 says calls = 1000000000: above the ceiling of 100,000 calls for one number's day ` +
        '(a tenth of --max-calls, 1,000,000); raise --max-calls if the source is right',
    );
  });

  test('--max-calls raises the ceiling of a day: 30 calls are refused under --max-calls 200 and written under 300', async () => {
    const source = await fakeSource({ days: { '20180102': { calls: 30 } } });
    expect(await refusal(mirrorArgs(source.url, RANGE, '--max-calls', '200'))).toBe(
      `the source's volume report for ${PHONE} on 20180102 says calls = 30: above the ceiling of 20 calls for one number's day ` +
        '(a tenth of --max-calls, 200); raise --max-calls if the source is right',
    );
    const run = await runCli(mirrorArgs(source.url, RANGE, '--max-calls', '300'));
    expect(run.stderr).toBe(`mirror: writing 36 calls into ${INTO} at ${target.url}\n`);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^mirrored 1 number, 20180101-20180103 \(3 days\), into dev\/bounds: 36 calls \(36 inserted, 0 duplicates\)\n/);
    expect(await callsHere()).toBe(36);
  });

  test("--max-calls raises the ceiling of a run: 20 days of 3 calls are refused under --max-calls 40, as soon as they are read, and planned under 60", async () => {
    const source = await fakeSource();
    const twentyDays = { start: '20180101', end: '20180120' };
    expect(await refusal(mirrorArgs(source.url, twentyDays, '--max-calls', '40'))).toBe(
      `the source's volume reports for ${PHONE} over 20180101-20180120 say calls = 60 or more in all: above the ceiling of 40 calls a run (--max-calls); ` +
        'raise --max-calls if the source is right',
    );
    // Refused on the day figures, before the geographic report or the flow was asked for.
    expect(source.requests.filter((line) => line.startsWith('GET /api/path/'))).toEqual([]);
    const run = await runCli(mirrorArgs(source.url, twentyDays, '--max-calls', '60', '--dry-run'));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^dry run: would write 60 calls into dev\/bounds at http:\/\/127\.0\.0\.1:\d+, 20180101-20180120 \(20 days\)\n/);
  });
});

describe('ivr-reporting mirror refuses a figure that is no whole count, or contradicts another, naming it', () => {
  test.each<[string, FakeSourceOptions, string]>([
    ['a negative count', { days: { '20180102': { calls: -5 } } }, `the source's volume report for ${PHONE} on 20180102 says calls = -5: a count must be a whole number >= 0`],
    ['a fractional count', { days: { '20180102': { log_events: 2.5 } } }, `the source's events report for ${PHONE} on 20180102 says log_events = 2.5: a count must be a whole number >= 0`],
    ['negative minutes', { days: { '20180103': { call_minutes: -1 } } }, `the source's volume report for ${PHONE} on 20180103 says call_minutes = -1: must be a number >= 0`],
    [
      'reports that count other calls',
      { answer: ({ report, days }) => (report === 'volume' ? { body: madeAnswer(report, days, { '20180102': { calls: 4 } }) } : undefined) },
      `the source's events report for ${PHONE} on 20180102 says calls = 3, but its volume report says calls = 4: the reports disagree ` +
        '(did its data change between two requests? end the range yesterday)',
    ],
    [
      'a week of more distinct callers than its days have',
      { answer: ({ report, days, url }) => (report === 'profile' && url.includes('/week/') ? { body: madeAnswer(report, days, { '20180101': { callers: 7 } }) } : undefined) },
      `the source's caller profile by week for ${PHONE} says callers = 7 over 20180101-20180101, where its days have 2 to 2: ` +
        "a period's distinct callers are at least its busiest day's and at most their sum",
    ],
    [
      'a month that counts other calls than its days',
      { answer: ({ report, days, url }) => (report === 'profile' && url.includes('/month/') ? { body: madeAnswer(report, days, { '20180101': { calls: 4 } }) } : undefined) },
      `the source's caller profile by month for ${PHONE} over 20180101-20180103 counts 4 calls over 20180101-20180101, where its volume report counts 3 calls: ` +
        'the reports count the same calls',
    ],
    [
      'more distinct callers than calls',
      { days: { '20180101': { callers: 4 } } },
      `the source's caller profile for ${PHONE} on 20180101 says callers = 4, but its volume report says calls = 3: a day's distinct callers are at most its calls`,
    ],
    [
      'figures on a day without calls',
      { days: { '20180101': { calls: 0, callers: 0 } } },
      `the source's volume report for ${PHONE} on 20180101 says call_minutes = 4.5, but its volume report says calls = 0: a day without calls has 0 of every figure`,
    ],
    [
      'more of a counter than a call record holds',
      { days: { '20180103': { calls: 1, callers: 1, loops: 1_000_000_001 } } },
      `the source's events report for ${PHONE} on 20180103 says loops = 1000000001: over 1 call, more than 1,000,000,000 a call, the most a call record holds`,
    ],
  ])('%s', async (_name, options, message) => {
    const source = await fakeSource(options);
    expect(await refusal(mirrorArgs(source.url))).toBe(message);
  });

  test('a geographic report that counts more calls than the days have, or a fractional region', async () => {
    const more = await fakeSource({ answer: ({ report }) => (report === 'geographic' ? { body: { US: { MA: 10 }, NON_US: [] } } : undefined) });
    expect(await refusal(mirrorArgs(more.url))).toBe(
      `the source's geographic report for ${PHONE} over 20180101-20180103 counts 10 calls, but its volume report 9 calls over those days: a region's calls are calls of those days`,
    );
    const fraction = await fakeSource({ answer: ({ report }) => (report === 'geographic' ? { body: { US: { MA: 5.5 }, NON_US: [] } } : undefined) });
    expect(await refusal(mirrorArgs(fraction.url))).toBe(
      `the source's geographic report for ${PHONE} over 20180101-20180103 says US.MA = 5.5: a count must be a whole number >= 0`,
    );
  });

  test('a day outside the range asked, or one day more than it has', async () => {
    const later = await fakeSource({
      answer: ({ report }, made) => (report === 'volume' ? { body: rekeyed(made, { [utcSecond('20180103')]: utcSecond('20300101') }) } : undefined),
    });
    expect(await refusal(mirrorArgs(later.url))).toBe(
      `the source's volume report for ${PHONE} over 20180101-20180103 has, in place of 20180103, calls of a day starting at 2030-01-01T00:00:00Z: no day of the range asked starts then`,
    );
    const longer = await fakeSource({ answer: ({ report, days }) => (report === 'volume' ? { body: madeAnswer('volume', [...days, '20180104']) } : undefined) });
    expect(await refusal(mirrorArgs(longer.url))).toBe(`the source's volume report for ${PHONE} over 20180101-20180103 has calls of 4 days, where the range asked has 3`);
    const shifted = await fakeSource({
      answer: ({ report }, made) => (report === 'events' ? { body: rekeyed(made, { [utcSecond('20180102')]: utcSecond('20180102') + 3600 }) } : undefined),
    });
    expect(await refusal(mirrorArgs(shifted.url))).toBe(
      `the source's events report for ${PHONE} on 20180102 keys calls at ${utcSecond('20180102') + 3600}, where its volume report's calls has ${utcSecond('20180102')}: ` +
        'the reports disagree on when the day starts',
    );
  });
});

/** A report's series with some of their keys replaced. */
function rekeyed(made: unknown, keys: Readonly<Record<string, number>>): unknown {
  return Object.fromEntries(
    Object.entries(made as Record<string, Record<string, number>>).map(([field, series]) => [field, Object.fromEntries(Object.entries(series).map(([key, value]) => [String(keys[key] ?? key), value]))]),
  );
}

/** The caller profile of ALL as the fake source answers it: each day's calls times `calls`, and `callers` callers. */
function allProfile(calls: number, callers: number): FakeSourceOptions['answer'] {
  return ({ report, url }, made) => {
    if (report !== 'profile' || !url.endsWith('/ALL')) return undefined;
    const series = made as { calls: Record<string, number>; callers: Record<string, number> };
    return { body: { calls: Object.fromEntries(Object.entries(series.calls).map(([key, value]) => [key, value * calls])), callers: Object.fromEntries(Object.keys(series.callers).map((key) => [key, callers])) } };
  };
}

describe("ivr-reporting mirror checks ALL's distinct callers against the numbers'", () => {
  const SECOND = '18005550101';
  const bothArgs = (from: string, ...more: string[]) => mirrorArgs(from, RANGE, ...more).map((arg) => (arg === PHONE ? `${PHONE},${SECOND}` : arg));

  beforeEach(async () => {
    await admin(target.url).put(`/admin/accounts/${INTO}/phones/${SECOND}`).expect(201);
  });

  test('refuses an ALL that counts fewer calls than its numbers, or more distinct callers than their sum', async () => {
    const fewer = await fakeSource();
    expect(await refusal(bothArgs(fewer.url))).toBe("the source's caller profile for ALL on 20180101 says calls = 3, where its numbers' volume reports count 6 calls in all: ALL counts every number's calls");
    const more = await fakeSource({ answer: allProfile(2, 5) });
    expect(await refusal(bothArgs(more.url))).toBe(
      "the source's caller profile by day for ALL says callers = 5 over 20180101-20180101, where its numbers' have 2 to 4: the account's distinct callers are at least its busiest number's and at most their sum",
    );
  });

  test("shares the numbers' callers to meet ALL's, and says so", async () => {
    const source = await fakeSource({ answer: allProfile(2, 3) });
    const run = await runCli(bothArgs(source.url));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("\n  ALL: 9 distinct callers, the source's count over all of its 12 days, weeks within a month, weeks and months\n");
    expect(run.stdout).toContain(`\n${exactness('month', [], 'planned').join('\n')}\n`);
  });

  test('plans no sharing when ALL counts calls of numbers not mirrored, and says why', async () => {
    const source = await fakeSource({ answer: allProfile(3, 3) });
    const run = await runCli(bothArgs(source.url));
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('  ALL:');
    expect(run.stdout).toContain(`\n${exactness('month', [], 'other numbers').join('\n')}\n`);
  });
});

describe('ivr-reporting mirror refuses an answer that is not a report, naming it', () => {
  test.each<[string, unknown, string]>([
    ['volume', {}, `the source's volume report for ${PHONE} over 20180101-20180103 has no calls: it must be a series, an object of one figure per day keyed by the Unix second the day starts`],
    ['events', null, `the source's events report for ${PHONE} over 20180101-20180103 is null: it must be an object of series`],
    ['profile', { calls: [], callers: [] }, `the source's caller profile for ${PHONE} over 20180101-20180103 says calls = []: must be a series, an object of one figure per day keyed by the Unix second the day starts`],
    ['geographic', {}, `the source's geographic report for ${PHONE} over 20180101-20180103 has no US: it must be an object of calls per state`],
    ['geographic', { US: { XX: 1 }, NON_US: [] }, `the source's geographic report for ${PHONE} over 20180101-20180103 says US.XX = 1: "XX" is not a state code, DC or US Toll-Free`],
    ['flow', {}, `the source's diagnostic flow for ${PHONE} over 20180101-20180103 has no applications: it must be an object of form items per application`],
  ])('%s answering %j', async (report, body, message) => {
    const source = await fakeSource({ answer: (asked) => (asked.report === report ? { body } : undefined) });
    expect(await refusal(mirrorArgs(source.url))).toBe(message);
  });

  test('a login answered with {}', async () => {
    const source = await fakeSource({ answer: ({ report }) => (report === 'auth' ? { body: {} } : undefined) });
    expect(await refusal(mirrorArgs(source.url))).toBe(
      `${source.url} does not answer as a reporting API does (200): the answer of ${source.url}/api/auth has no login and password: is ${source.url} an ivr-reporting server?`,
    );
  });
});

describe('ivr-reporting mirror follows no redirect', () => {
  test('a login redirected to another origin, which would be sent the password, is refused and the other origin never asked', async () => {
    const elsewhere = await fakeSource();
    const source = await fakeSource({ answer: ({ report }) => (report === 'auth' ? { status: 307, headers: { Location: `${elsewhere.url}/api/auth` } } : undefined) });
    expect(await refusal(mirrorArgs(source.url))).toBe(
      `the source answered ${source.url}/api/auth with a redirect (307) to ${elsewhere.url}/api/auth, on another origin, ${elsewhere.url}: ` +
        'the mirror follows no redirect; give --from the URL the server answers at',
    );
    expect(elsewhere.requests).toEqual([]);
  });

  test('a report redirected within the same origin is refused too', async () => {
    const source = await fakeSource({ answer: ({ report }) => (report === 'volume' ? { status: 302, headers: { Location: '/elsewhere' } } : undefined) });
    expect(await refusal(mirrorArgs(source.url))).toBe(
      `the source answered ${source.url}/api/volume/20180101/20180103/day/${PHONE} with a redirect (302) to ${source.url}/elsewhere, on the same origin: ` +
        'the mirror follows no redirect; give --from the URL the server answers at',
    );
    expect(source.requests.filter((line) => line.includes('/elsewhere'))).toEqual([]);
  });
});

/** A response that announces more than 64 MiB and sends a little of it: the mirror's default limit is seen on the headers alone. */
function announcingTooMuch(response: ServerResponse): void {
  response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(64 * 1024 * 1024 + 1) });
  response.write('{"calls":{');
}

const CHUNK = Buffer.alloc(16 * 1024, ' ');
/** Far more than the test's limit, and never reached while the mirror stops reading at it. */
const MOST_STREAMED = 256 * 1024 * 1024;

/** An endless answer, a reused chunk at a time as the connection takes it, until the client goes away; the bytes written kept in `sent`. */
function streamingUntilClosed(sent: { bytes: number; closed: Promise<void> }): (response: ServerResponse) => void {
  return (response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    sent.closed = new Promise((resolve) => response.once('close', resolve));
    const more = () => {
      while (sent.bytes < MOST_STREAMED) {
        sent.bytes += CHUNK.length;
        if (!response.write(CHUNK)) return void response.once('drain', more);
      }
      response.end();
    };
    more();
  };
}

describe('ivr-reporting mirror reads at most a bounded answer', () => {
  test('an answer whose Content-Length passes the default 64 MiB is refused on its headers', async () => {
    const source = await fakeSource({ answer: ({ report }) => (report === 'volume' ? announcingTooMuch : undefined) });
    expect(await refusal(mirrorArgs(source.url))).toBe(
      `the source's answer to ${source.url}/api/volume/20180101/20180103/day/${PHONE} is longer than 64 MiB, the most the mirror reads of one answer: is it a reporting API?`,
    );
  });

  test('a streamed answer with no length is read up to the limit and no further, and the connection dropped', async () => {
    const sent = { bytes: 0, closed: Promise.resolve() };
    const source = await fakeSource({ answer: ({ report }) => (report === 'volume' ? streamingUntilClosed(sent) : undefined) });
    const limit = 64 * 1024;
    const outcome = mirror(mirrorRequest(source.url, { maxResponseBytes: limit }), new AdminClient(target.url, ADMIN_TOKEN), mirrorProgress({ write: () => true }), () => undefined);
    await expect(outcome).rejects.toThrow(
      new CliError(`the source's answer to ${source.url}/api/volume/20180101/20180103/day/${PHONE} is longer than 65,536 bytes, the most the mirror reads of one answer: is it a reporting API?`),
    );
    await sent.closed;
    expect(sent.bytes).toBeLessThan(MOST_STREAMED);
    expect(await callsHere()).toBe(0);
  });
});

function mirrorRequest(from: string, changes: Partial<MirrorRequest['sourceOptions']> = {}, dryRun = false): MirrorRequest {
  return {
    source: { baseUrl: from, tool: 'dev', login: 'demo', password: 'demo-password' },
    sourceOptions: { maxWaitMs: 0, spanDays: undefined, stretch: 'month', ceilings: ceilingsOf(DEFAULT_MAX_CALLS), maxResponseBytes: 64 * 1024 * 1024, ...changes },
    phones: [PHONE],
    start: RANGE.start,
    end: RANGE.end,
    into: { tool: 'dev', login: 'bounds' },
    dryRun,
    batchSize: 5_000,
  };
}

describe('ivr-reporting mirror says what it is about to write', () => {
  test('a dry run says its total at once: a day of 100,000,000 calls is planned, not made', async () => {
    const source = await fakeSource({ days: { '20180102': { calls: 100_000_000 } } });
    const run = await runCli(mirrorArgs(source.url, RANGE, '--max-calls', '1000000000', '--dry-run'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [first, numberLine] = run.stdout.split('\n');
    expect(first).toBe(`dry run: would write 100,000,006 calls into ${INTO} at ${target.url}, 20180101-20180103 (3 days)`);
    expect(numberLine).toBe(`  ${PHONE}: 100,000,006 calls, 6 with a caller, 6 distinct callers, 1 diagnostic-flow row`);
  });

  test('the total is said on standard error before the first call is sent', async () => {
    const source = await fakeSource();
    const events: string[] = [];
    const real = new AdminClient(target.url, ADMIN_TOKEN);
    const recording: MirrorTarget = {
      baseUrl: real.baseUrl,
      getAccount: (tool, login) => real.getAccount(tool, login),
      importCalls: (ndjson, onWait) => {
        events.push(`import of ${ndjson.toString().trimEnd().split('\n').length} calls`);
        return real.importCalls(ndjson, onWait);
      },
    };
    const progress = mirrorProgress({ write: (text) => events.push(text) > 0 });
    const outcome = await mirror(mirrorRequest(source.url), recording, progress, () => undefined);
    expect(events).toEqual([`mirror: writing 9 calls into ${INTO} at ${target.url}\n`, 'import of 9 calls']);
    expect(outcome.summary).toMatch(/^mirrored 1 number, 20180101-20180103 \(3 days\), into dev\/bounds: 9 calls \(9 inserted, 0 duplicates\)\n/);
    expect(await callsHere()).toBe(9);
  });
});

/** The source's waits, in a time that moves only when told: each wait is recorded and takes none. */
function fakeTime(): SourceTime & { readonly sleptMs: () => number } {
  let slept = 0;
  return {
    now: () => NOW_MS,
    sleep: (ms) => {
      slept += ms;
      return Promise.resolve();
    },
    sleptMs: () => slept,
  };
}

const NOW_MS = Date.UTC(2018, 1, 7, 15, 0, 0);

/** A run in this process, in fake time: what it wrote on standard error (a log's lines, one a wait), and what it waited. */
function runInFakeTime(from: string, changes: Partial<MirrorRequest['sourceOptions']> = {}) {
  const stderr: string[] = [];
  const time = fakeTime();
  // A clock that never moves: a line when each wait begins, none while it lasts.
  const progress = mirrorProgress({ write: (text) => stderr.push(text) > 0 }, () => 0);
  const outcome = mirror(mirrorRequest(from, { maxWaitMs: 3_600_000, ...changes }), new AdminClient(target.url, ADMIN_TOKEN), progress, () => undefined, time);
  return { outcome, stderr, sleptMs: time.sleptMs };
}

/** The first `times` requests for `report` answered `failure`, the others as the figures make them. */
function failing(report: string, times: number, failure: (index: number) => Answer): FakeSourceOptions {
  let failed = 0;
  return {
    answer: (asked) => {
      if (asked.report !== report || failed === times) return undefined;
      failed += 1;
      return failure(failed - 1);
    },
  };
}

/** How many times the source was asked for the report. */
const asked = (source: FakeServer, report: string) => source.requests.filter((line) => askedOf(line.split(' ')[1] ?? '').report === report).length;

describe('ivr-reporting mirror sends a request again after a failure of the source', () => {
  test('a 503 three times, with Retry-After in seconds and as an HTTP date, is waited out as it says, each wait shown, and the run completes', async () => {
    const retryAfter = ['2', '2', new Date(NOW_MS + 3000).toUTCString()];
    const source = await fakeSource(failing('events', 3, (index) => ({ status: 503, headers: { 'Retry-After': retryAfter[index] ?? '' }, body: { error: 'down for maintenance' } })));
    const run = runInFakeTime(source.url);
    const outcome = await run.outcome;
    // The login, the volume report, then the events report four times.
    expect(run.stderr).toEqual([
      'mirror: 3 requests to the source, waiting 2 s to retry after its 503 (1 of 5)\n',
      'mirror: 4 requests to the source, waiting 2 s to retry after its 503 (2 of 5)\n',
      'mirror: 5 requests to the source, waiting 3 s to retry after its 503 (3 of 5)\n',
      `mirror: writing 9 calls into ${INTO} at ${target.url}\n`,
    ]);
    expect(run.sleptMs()).toBe(7000);
    expect(asked(source, 'events')).toBe(4);
    expect(outcome.summary).toMatch(/^mirrored 1 number, 20180101-20180103 \(3 days\), into dev\/bounds: 9 calls \(9 inserted, 0 duplicates\)\n/);
    expect(outcome.summary).toContain('\n12 data requests to the source (and 1 login)');
    expect(await callsHere()).toBe(9);
  });

  test('a 502 then a 504 without Retry-After are waited out 1 s, then 2 s: the wait doubles', async () => {
    const source = await fakeSource(failing('geographic', 2, (index) => ({ status: index === 0 ? 502 : 504, body: { error: 'bad gateway' } })));
    const run = runInFakeTime(source.url);
    await run.outcome;
    expect(run.stderr).toEqual([
      'mirror: 6 requests to the source, waiting 1 s to retry after its 502 (1 of 5)\n',
      'mirror: 7 requests to the source, waiting 2 s to retry after its 504 (2 of 5)\n',
      `mirror: writing 9 calls into ${INTO} at ${target.url}\n`,
    ]);
    expect(run.sleptMs()).toBe(3000);
    expect(await callsHere()).toBe(9);
  });

  test('a 500 on every try stops the run after 5 retries, 1 + 2 + 4 + 8 + 16 s of waits, naming the failure, and writes nothing', async () => {
    const source = await fakeSource({ answer: ({ report }) => (report === 'performance' ? { status: 500, body: { error: 'unknown error' } } : undefined) });
    const run = runInFakeTime(source.url);
    await expect(run.outcome).rejects.toThrow(
      new CliError(
        `the source ${source.url} (dev/demo) refused the request for ${PHONE} over 20180101-20180103 (500): "unknown error"; still after 5 retries, over 31 s of waits: run again later`,
      ),
    );
    expect(run.stderr).toEqual([1, 2, 4, 8, 16].map((wait, index) => `mirror: ${4 + index} requests to the source, waiting ${wait} s to retry after its 500 (${index + 1} of 5)\n`));
    expect(asked(source, 'performance')).toBe(6);
    expect(await callsHere()).toBe(0);
  });

  test('a failure the wait left cannot cover stops the run at once, with exit code 1: --max-wait-minutes 0 waits for none', async () => {
    const source = await fakeSource({ answer: ({ report }) => (report === 'volume' ? { status: 503, headers: { 'Retry-After': '1' }, body: { error: 'down for maintenance' } } : undefined) });
    expect(await refusal(mirrorArgs(source.url, RANGE, '--max-wait-minutes', '0'))).toBe(
      `the source ${source.url} (dev/demo) refused the request for ${PHONE} over 20180101-20180103 (503): "down for maintenance"; ` +
        "sending it again after 1 s more would take the request's waits past --max-wait-minutes: run again later, or allow a longer wait",
    );
    expect(asked(source, 'volume')).toBe(1);
  });

  test('a 429 after waits for failures is waited out only within what the request has left of --max-wait-minutes', async () => {
    const source = await fakeSource(
      failing('events', 2, (index): Answer =>
        index === 0
          ? { status: 503, headers: { 'Retry-After': '3' }, body: { error: 'down for maintenance' } }
          : { status: 429, headers: { 'Retry-After': '3', 'X-Error-Code': 'IVR_RATE_LIMITED' }, body: { error: 'rate limit exceeded' } },
      ),
    );
    const run = runInFakeTime(source.url, { maxWaitMs: 5000 });
    await expect(run.outcome).rejects.toThrow(
      new CliError(
        `the source's rate limit for ${PHONE} over 20180101-20180103: waiting 3 s more, after 3 s of waits to send the request again after failures, ` +
          'would take it past --max-wait-minutes; run again later, or allow a longer wait',
      ),
    );
    expect(run.sleptMs()).toBe(3000);
  });

  test('a connection lost while a report is read is a failure too; the run completes', async () => {
    const source = await fakeSource(failing('profile', 2, () => (response: ServerResponse) => response.socket?.destroy()));
    const run = runInFakeTime(source.url);
    await run.outcome;
    expect(run.stderr).toEqual([
      'mirror: 5 requests to the source, waiting 1 s to retry after UND_ERR_SOCKET (1 of 5)\n',
      'mirror: 6 requests to the source, waiting 2 s to retry after UND_ERR_SOCKET (2 of 5)\n',
      `mirror: writing 9 calls into ${INTO} at ${target.url}\n`,
    ]);
    // By day three times, then by week over the month, by week and by month over the range.
    expect(asked(source, 'profile')).toBe(6);
    expect(await callsHere()).toBe(9);
  });

  test("a login's lost connection is not sent again: a POST", async () => {
    const source = await fakeSource(failing('auth', 1, () => (response: ServerResponse) => response.socket?.destroy()));
    expect(await refusal(mirrorArgs(source.url))).toBe(`cannot reach the source at ${source.url}: UND_ERR_SOCKET`);
    expect(source.requests).toEqual(['POST /api/auth']);
  });

  test.each([
    [403, 'forbidden'],
    [404, 'not found'],
    [501, 'not implemented'],
  ])('a %i is not sent again', async (status, error) => {
    const source = await fakeSource({ answer: ({ report }) => (report === 'volume' ? { status, body: { error } } : undefined) });
    expect(await refusal(mirrorArgs(source.url))).toBe(`the source ${source.url} (dev/demo) refused the request for ${PHONE} over 20180101-20180103 (${status}): "${error}"`);
    expect(asked(source, 'volume')).toBe(1);
  });
});

/** A source that takes at most two days at once, and refuses more in the words given (with this server's code, or none). */
function takingTwoDays(error: string, headers: Readonly<Record<string, string>> = {}): FakeSourceOptions {
  return { answer: ({ days }) => (days.length > 2 ? { status: 400, headers, body: { error } } : undefined) };
}

const RANGE_TOO_LONG = { 'X-Error-Code': 'IVR_RANGE_TOO_LONG' };

describe('ivr-reporting mirror and the span a source accepts', () => {
  test.each([
    ['with this server\'s code', RANGE_TOO_LONG],
    ['without a code', {}],
  ])('a source that refuses a range too long in words of its own (%s) is read in spans of --span-days', async (_name, headers) => {
    const source = await fakeSource(takingTwoDays('range exceeds the maximum of 2 days', headers));
    const run = await runCli(mirrorArgs(source.url, RANGE, '--span-days', '2'));
    expect(run.stderr).toBe(`mirror: writing 9 calls into ${INTO} at ${target.url}\n`);
    expect(run.code).toBe(0);
    const ranges = new Set(source.requests.filter((line) => line.startsWith('GET ')).map((line) => /\/(\d{8}\/\d{8})\//.exec(line)?.[1]));
    // The caller profile by week and by month asked again from the last period a span may cut: this fake
    // answers them day by day, so from the second day.
    expect([...ranges]).toEqual(['20180101/20180102', '20180103/20180103', '20180102/20180103']);
    expect(await callsHere()).toBe(9);
  });

  test('without --span-days, a refusal in words of its own says to pass it, with the code or without', async () => {
    const coded = await fakeSource(takingTwoDays('range exceeds the maximum of 2 days', RANGE_TOO_LONG));
    expect(await refusal(mirrorArgs(coded.url))).toBe(
      'the source refused 3 days at once ("range exceeds the maximum of 2 days") without saying how many it takes: pass --span-days',
    );
    const uncoded = await fakeSource(takingTwoDays('date range too long'));
    expect(await refusal(mirrorArgs(uncoded.url))).toBe(
      `the source ${uncoded.url} (dev/demo) refused the request for ${PHONE} over 20180101-20180103 (400): "date range too long"; ` +
        'if it takes fewer than 3 days at once, pass --span-days',
    );
  });

  test('a --span-days the source still refuses, in words of its own, is refused asking for a smaller one', async () => {
    const source = await fakeSource(takingTwoDays('range exceeds the maximum of 2 days', RANGE_TOO_LONG));
    expect(await refusal(mirrorArgs(source.url, RANGE, '--span-days', '3'))).toBe(
      'the source refused 3 days at once ("range exceeds the maximum of 2 days") without saying how many it takes: pass a smaller --span-days',
    );
  });
});
