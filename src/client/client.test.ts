import request from 'supertest';
import { admin, startAdminServer, type AdminServer } from '../../test/support/admin';
import { serve } from '../../test/support/http';
import { addCalls, authenticate, call } from '../../test/support/reporting';
import { addAccount, buildTestApp } from '../../test/support/test-app';
import {
  createClient,
  InvalidRequestError,
  NetworkError,
  RateLimitedError,
  ReportingClientError,
  UnauthorizedError,
  UnexpectedResponseError,
  type ClientOptions,
  type RetryOptions,
  type Format,
  type ReportingClient,
  type SeriesParams,
} from './index';

const PHONE = '18005550100';
/** UTC midnights of 2018-02-06 and 2018-02-07: the keys of a daily report over those two days (the account is on UTC). */
const FEB_6 = '1517875200';
const FEB_7 = '1517961600';
const TWO_DAYS: SeriesParams = { start: '20180206', end: '20180207', period: 'day' };
const VOLUME_PATH = '/api/volume/20180206/20180207/day/ALL';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const UNAUTHORIZED_MESSAGE = 'missing, invalid or expired credentials, or the account is inactive; authenticate at /api/auth';
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A request the client sent, and the status it got. */
interface Sent {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | null;
  readonly ifNoneMatch: string | null;
  readonly status: number;
  readonly etag: string | null;
  readonly contentType: string | null;
}

let running: AdminServer | undefined;
let sent: Sent[];

afterEach(async () => {
  await running?.server.close();
  running = undefined;
});

/** A server with the admin API and the sandbox clock, alice's account on it with one number and three calls on 7 February. */
async function startServer(env: NodeJS.ProcessEnv = {}): Promise<AdminServer> {
  running = await startAdminServer({ SANDBOX_CLOCK: 'true', ...env });
  await addAccount(running.testApp.store, { phones: [PHONE] });
  await addCalls(running.testApp.store, [
    call(PHONE, '2018-02-07T10:00:00Z', {
      caller: '+16175550123',
      duration_seconds: 61.5,
      transfers: 1,
      transfer_seconds: 45,
      path: [{ application: 'https://ivr.example.com/start.vxml', page: 'main.vxml', form: 'main_menu', item: 'selection', visits: 2, filled: 1 }],
    }),
    call(PHONE, '2018-02-07T11:00:00Z', { caller: '+442083661177', duration_seconds: 30 }),
    call(PHONE, '2018-02-07T12:00:00Z'),
  ]);
  return running;
}

/** Node's fetch, each request and its answer's status written down in `sent`: 0 for no answer. */
const recordingFetch: typeof fetch = async (input, init) => {
  const headers = new Headers(init?.headers);
  const path = new URL(input instanceof Request ? input.url : input).pathname;
  const response = await fetch(input, init).catch((error: unknown) => {
    sent.push({ method: init?.method ?? 'GET', path, authorization: headers.get('Authorization'), ifNoneMatch: null, status: 0, etag: null, contentType: null });
    throw error;
  });
  sent.push({
    method: init?.method ?? 'GET',
    path,
    authorization: headers.get('Authorization'),
    ifNoneMatch: headers.get('If-None-Match'),
    status: response.status,
    etag: response.headers.get('ETag'),
    contentType: response.headers.get('Content-Type'),
  });
  return response;
};

beforeEach(() => {
  sent = [];
});

function aliceClient<DefaultFormat extends Format = 'json'>(baseUrl: string | URL, options: Partial<ClientOptions<DefaultFormat>> = {}) {
  return createClient<DefaultFormat>({ baseUrl, tool: 'dev', login: 'alice', password: 'secret-password', fetch: recordingFetch, ...options });
}

const statuses = () => sent.map(({ method, path, status }) => `${method} ${path} ${status}`);

/** What the server answers on a request made without the client, with credentials of its own. */
async function answerOf(url: string, path: string, accept = 'application/json') {
  const { login, password } = await authenticate(url);
  return request(url).get(path).auth(login, password).set('Accept', accept);
}

const VOLUME_REPORT = {
  calls: { [FEB_6]: 0, [FEB_7]: 3 },
  call_minutes: { [FEB_6]: 0, [FEB_7]: 1.53 },
  transfers: { [FEB_6]: 0, [FEB_7]: 1 },
  transfer_minutes: { [FEB_6]: 0, [FEB_7]: 0.75 },
};

describe('authentication', () => {
  test('the first call authenticates with the tool account and sends the temporary credentials as HTTP Basic', async () => {
    const server = await startServer();
    expect(await aliceClient(server.url).volume(TWO_DAYS)).toEqual(VOLUME_REPORT);
    expect(statuses()).toEqual(['POST /api/auth 200', `GET ${VOLUME_PATH} 200`]);
    const [login, password] = Buffer.from(String(sent[1]?.authorization).replace(/^Basic /, ''), 'base64').toString().split(':');
    expect(login).toMatch(/^[0-9a-f]{32}$/);
    expect(password).toMatch(/^[0-9a-f]{32}$/);
  });

  test('concurrent first calls share one authentication, and later calls reuse its credentials', async () => {
    const server = await startServer();
    const client = aliceClient(server.url);
    await Promise.all([client.volume(TWO_DAYS), client.events(TWO_DAYS), client.geographic({ start: '20180207', end: '20180207' })]);
    await client.flow({ start: '20180207', end: '20180207' });
    expect(sent.filter(({ method }) => method === 'POST')).toHaveLength(1);
    expect(new Set(sent.filter(({ method }) => method === 'GET').map(({ authorization }) => authorization)).size).toBe(1);
  });

  // The retry still asks with the kept report's ETag, and the report has not changed.
  test.each([
    ['the admin API has expired the credentials', (url: string) => admin(url).post('/admin/accounts/dev/alice/credentials/expire')],
    ['the credentials have gone 25 hours unused on the sandbox clock', (url: string) => admin(url).post('/admin/clock').send({ advance_seconds: 25 * 3600 })],
  ])('authenticates again once %s, and the call succeeds', async (_case, expire) => {
    const server = await startServer();
    const client = aliceClient(server.url);
    await client.volume(TWO_DAYS);
    expect((await expire(server.url)).status).toBe(200);
    expect(await client.volume(TWO_DAYS)).toEqual(VOLUME_REPORT);
    expect(statuses()).toEqual([
      'POST /api/auth 200',
      `GET ${VOLUME_PATH} 200`,
      `GET ${VOLUME_PATH} 401`,
      'POST /api/auth 200',
      `GET ${VOLUME_PATH} 304`,
    ]);
  });

  test('a data request refused again after authenticating afresh is an UnauthorizedError with the status, message and code', async () => {
    const server = await startServer();
    // Every pair the server issues is expired before the client can use it.
    const expiringFetch: typeof fetch = async (input, init) => {
      const response = await recordingFetch(input, init);
      if (init?.method === 'POST') await admin(server.url).post('/admin/accounts/dev/alice/credentials/expire');
      return response;
    };
    const error = await aliceClient(server.url, { fetch: expiringFetch })
      .volume(TWO_DAYS)
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, code: 'IVR_UNAUTHORIZED', message: UNAUTHORIZED_MESSAGE, url: `${server.url}${VOLUME_PATH}` });
    expect((error as UnauthorizedError).requestId).toMatch(REQUEST_ID);
    expect(statuses()).toEqual(['POST /api/auth 200', `GET ${VOLUME_PATH} 401`, 'POST /api/auth 200', `GET ${VOLUME_PATH} 401`]);
  });

  test('a wrong tool password is an UnauthorizedError with IVR_INVALID_LOGIN, and no data request is sent', async () => {
    const server = await startServer();
    const error = await aliceClient(server.url, { password: 'wrong-password' })
      .volume(TWO_DAYS)
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({
      name: 'UnauthorizedError',
      status: 401,
      code: 'IVR_INVALID_LOGIN',
      message: 'invalid login or password, or the account is inactive',
      url: `${server.url}/api/auth`,
    });
    expect(statuses()).toEqual(['POST /api/auth 401']);
  });

  test('a tool password changed since the first call: the 401 leads to one authentication, whose refusal is thrown', async () => {
    const server = await startServer();
    const client = aliceClient(server.url);
    await client.volume(TWO_DAYS);
    expect((await admin(server.url).put('/admin/accounts/dev/alice').send({ password: 'a-new-password' })).status).toBe(200);
    await expect(client.volume(TWO_DAYS)).rejects.toMatchObject({ name: 'UnauthorizedError', status: 401, code: 'IVR_INVALID_LOGIN' });
    expect(statuses()).toEqual(['POST /api/auth 200', `GET ${VOLUME_PATH} 200`, `GET ${VOLUME_PATH} 401`, 'POST /api/auth 401']);
  });

  test('a failed authentication is not kept: the next call authenticates again', async () => {
    const server = await startServer();
    const setActive = (active: boolean) => admin(server.url).put('/admin/accounts/dev/alice').send({ active });
    const client = aliceClient(server.url);
    expect((await setActive(false)).status).toBe(200);
    await expect(client.volume(TWO_DAYS)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await setActive(true)).status).toBe(200);
    expect(await client.volume(TWO_DAYS)).toEqual(VOLUME_REPORT);
    expect(statuses()).toEqual(['POST /api/auth 401', 'POST /api/auth 200', `GET ${VOLUME_PATH} 200`]);
  });
});

describe('reports', () => {
  test.each<[string, (client: ReportingClient) => Promise<unknown>, string]>([
    ['volume', (client) => client.volume(TWO_DAYS), VOLUME_PATH],
    ['events', (client) => client.events({ ...TWO_DAYS, phone: PHONE }), `/api/events/20180206/20180207/day/${PHONE}`],
    ['performance', (client) => client.performance({ ...TWO_DAYS, period: 'week' }), '/api/performance/20180206/20180207/week/ALL'],
    ['callerProfile', (client) => client.callerProfile({ ...TWO_DAYS, period: 'month' }), '/api/profile/20180206/20180207/month/ALL'],
    ['geographic', (client) => client.geographic({ start: '20180201', end: '20180207' }), '/api/profile/20180201/20180207/ALL'],
    ['flow', (client) => client.flow({ start: '20180201', end: '20180207', phone: PHONE }), `/api/path/20180201/20180207/${PHONE}`],
  ])('%s asks for its path and returns the JSON the server sends, parsed', async (_name, report, path) => {
    const server = await startServer();
    const result = await report(aliceClient(server.url));
    expect(sent.at(-1)?.path).toBe(path);
    expect(result).toEqual(JSON.parse((await answerOf(server.url, path)).text));
  });

  test('the diagnostic flow carries the counters of each form item', async () => {
    const server = await startServer();
    expect(await aliceClient(server.url).flow({ start: '20180207', end: '20180207' })).toEqual({
      applications: {
        'https://ivr.example.com/start.vxml': [
          { page: 'main.vxml', form: 'main_menu', item: 'selection', visits: 2, filled: 1, nomatch: 0, noinput: 0, transfer: 0, disconnect: 0 },
        ],
      },
    });
  });

  test('answers in XML, as the text the server sends, when a call asks for it', async () => {
    const server = await startServer();
    const period = (key: string, value: number) => `<period timestamp="${key}">${value}</period>`;
    expect(await aliceClient(server.url).volume({ start: '20180207', end: '20180207', period: 'day' }, { format: 'xml' })).toBe(
      `${XML_DECLARATION}<result><calls>${period(FEB_7, 3)}</calls><call_minutes>${period(FEB_7, 1.53)}</call_minutes>` +
        `<transfers>${period(FEB_7, 1)}</transfers><transfer_minutes>${period(FEB_7, 0.75)}</transfer_minutes></result>`,
    );
  });

  test("answers in XML by default with the client's format xml, and in JSON when a call asks for it", async () => {
    const server = await startServer();
    const client = aliceClient<'xml'>(server.url, { format: 'xml' });
    const xml = await client.geographic({ start: '20180207', end: '20180207' });
    expect(xml).toBe((await answerOf(server.url, '/api/profile/20180207/20180207/ALL', 'application/xml')).text);
    expect(await client.volume(TWO_DAYS, { format: 'json' })).toEqual(VOLUME_REPORT);
  });

  test('a baseUrl given as a URL, with its trailing slash, reaches the same paths', async () => {
    const server = await startServer();
    await aliceClient(new URL(`${server.url}/`)).volume(TWO_DAYS);
    expect(statuses()).toEqual(['POST /api/auth 200', `GET ${VOLUME_PATH} 200`]);
  });
});

describe('entity tags', () => {
  test('asks again with If-None-Match and returns the kept report on 304, as a copy of its own', async () => {
    const server = await startServer();
    const client = aliceClient(server.url);
    const first = await client.volume(TWO_DAYS);
    first.calls[FEB_7] = 1000;
    const second = await client.volume(TWO_DAYS);
    expect(second).toEqual(VOLUME_REPORT);
    const [, firstGet, secondGet] = sent;
    expect(firstGet).toMatchObject({ status: 200, ifNoneMatch: null });
    expect(firstGet?.etag).toMatch(/^".+"$/);
    expect(secondGet).toMatchObject({ status: 304, ifNoneMatch: firstGet?.etag });
  });

  test('keeps JSON and XML apart, and returns a report that changed anew', async () => {
    const server = await startServer();
    const client = aliceClient(server.url);
    await client.volume(TWO_DAYS);
    const xml = await client.volume(TWO_DAYS, { format: 'xml' });
    expect(await client.volume(TWO_DAYS, { format: 'xml' })).toBe(xml);
    await addCalls(server.testApp.store, [call(PHONE, '2018-02-06T09:00:00Z')]);
    expect(await client.volume(TWO_DAYS)).toEqual({ ...VOLUME_REPORT, calls: { [FEB_6]: 1, [FEB_7]: 3 } });
    expect(sent.slice(1).map(({ ifNoneMatch, status }) => [ifNoneMatch === null ? 'unconditional' : 'If-None-Match', status])).toEqual([
      ['unconditional', 200],
      ['unconditional', 200],
      ['If-None-Match', 304],
      ['If-None-Match', 200],
    ]);
  });

  test('keeps at most maxKeptReports reports, dropping the least recently used; 0 keeps none', async () => {
    const server = await startServer();
    const one = aliceClient(server.url, { maxKeptReports: 1 });
    const eventsOfFeb7 = { start: '20180207', end: '20180207', period: 'day' } as const;
    await one.volume(TWO_DAYS);
    await one.events(eventsOfFeb7);
    await one.volume(TWO_DAYS);
    await one.volume(TWO_DAYS);
    const none = aliceClient(server.url, { maxKeptReports: 0 });
    await none.volume(TWO_DAYS);
    await none.volume(TWO_DAYS);
    expect(sent.filter(({ method }) => method === 'GET').map(({ status }) => status)).toEqual([200, 200, 200, 304, 200, 200]);
  });
});

describe('rate limits', () => {
  /** The fake clock's start, 15:00:00 UTC, begins a 900-second window that ends at 15:15:00. */
  const WINDOW_END = new Date('2018-02-07T15:15:00.000Z');
  let slept: number[];

  beforeEach(() => {
    slept = [];
  });

  /** Waiting moves the server's clock instead of the test's time. */
  const sleepOn = (server: AdminServer) => (ms: number) => {
    slept.push(ms);
    server.testApp.clock.advance(ms);
    return Promise.resolve();
  };

  test('waits out a 429 until Retry-After when the wait is within maxRateLimitWaitMs, then succeeds', async () => {
    const server = await startServer({ DATA_RATE_LIMIT: '2' });
    const client = aliceClient(server.url, { maxRateLimitWaitMs: 900_000, sleep: sleepOn(server) });
    const performancePath = '/api/performance/20180206/20180207/day/ALL';
    await client.volume(TWO_DAYS);
    await client.events(TWO_DAYS);
    expect(await client.performance(TWO_DAYS)).toEqual(JSON.parse((await answerOf(server.url, performancePath)).text));
    expect(slept).toEqual([900_000]);
    expect(statuses().slice(-2)).toEqual([`GET ${performancePath} 429`, `GET ${performancePath} 200`]);
  });

  test.each([
    ['a wait beyond maxRateLimitWaitMs', { maxRateLimitWaitMs: 899_999 }],
    ['no maxRateLimitWaitMs (no waiting)', {}],
  ])('%s: a 429 is a RateLimitedError with the reset time, the server message and code', async (_case, options) => {
    const server = await startServer({ DATA_RATE_LIMIT: '2' });
    const client = aliceClient(server.url, { ...options, sleep: sleepOn(server) });
    await client.volume(TWO_DAYS);
    await client.events(TWO_DAYS);
    const error = await client.performance(TWO_DAYS).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({
      status: 429,
      code: 'IVR_RATE_LIMITED',
      message: 'rate limit exceeded; retry after the time in Retry-After',
      retryAfterSeconds: 900,
      resetAt: WINDOW_END,
    });
    expect(slept).toEqual([]);
  });
});

describe("the sandbox's failure scenarios, as a client author uses them", () => {
  let slept: number[];
  beforeEach(() => {
    slept = [];
  });
  const addScenario = (server: AdminServer, rule: Record<string, unknown>) =>
    admin(server.url).post('/admin/scenarios').send(rule).expect(201);
  const recordSleep = (ms: number) => {
    slept.push(ms);
    return Promise.resolve();
  };

  test("three forced 429s of the account's data requests: the client waits each Retry-After out, then succeeds", async () => {
    const server = await startServer();
    await addScenario(server, { target: 'data', tool: 'dev', login: 'alice', status: 429, retry_after_seconds: 2, times: 3 });
    const client = aliceClient(server.url, { maxRateLimitWaitMs: 10_000, sleep: recordSleep });
    expect(await client.volume(TWO_DAYS)).toEqual(VOLUME_REPORT);
    expect(slept).toEqual([2000, 2000, 2000]);
    expect(statuses()).toEqual([
      'POST /api/auth 200',
      `GET ${VOLUME_PATH} 429`,
      `GET ${VOLUME_PATH} 429`,
      `GET ${VOLUME_PATH} 429`,
      `GET ${VOLUME_PATH} 200`,
    ]);
  });

  test('a forced 401 makes the client authenticate again once, and the call succeeds', async () => {
    const server = await startServer();
    const client = aliceClient(server.url);
    await client.volume(TWO_DAYS);
    await addScenario(server, { target: 'volume', status: 401, times: 1 });
    expect(await client.volume(TWO_DAYS)).toEqual(VOLUME_REPORT);
    expect(statuses().slice(2)).toEqual([`GET ${VOLUME_PATH} 401`, 'POST /api/auth 200', `GET ${VOLUME_PATH} 304`]);
  });

  test('a forced 500 is a ServerError with unknown error and IVR_INTERNAL; a forced outage carries its Retry-After', async () => {
    const server = await startServer();
    const client = aliceClient(server.url);
    await addScenario(server, { target: 'data', status: 500, times: 1 });
    await expect(client.volume(TWO_DAYS)).rejects.toMatchObject({ name: 'ServerError', status: 500, code: 'IVR_INTERNAL', message: 'unknown error' });
    await addScenario(server, { target: 'data', status: 503, times: 1 });
    // Without retries: with them, the client would wait Retry-After and ask again ("retries" below).
    await expect(aliceClient(server.url, { retry: false }).volume(TWO_DAYS)).rejects.toMatchObject({
      name: 'ServerError',
      status: 500,
      code: 'IVR_DEPENDENCY_UNAVAILABLE',
      retryAfterSeconds: 5,
    });
    expect(await client.volume(TWO_DAYS)).toEqual(VOLUME_REPORT);
  });

  test('a slow report: the call waits for the delayed answer and returns it', async () => {
    const server = await startServer();
    await addScenario(server, { target: 'volume', delay_ms: 250, times: 1 });
    const started = performance.now();
    expect(await aliceClient(server.url).volume(TWO_DAYS)).toEqual(VOLUME_REPORT);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
  });
});

describe('retries', () => {
  let slept: number[];
  let retries: string[];
  beforeEach(() => {
    slept = [];
    retries = [];
  });
  const addScenario = (server: AdminServer, rule: Record<string, unknown>) =>
    admin(server.url).post('/admin/scenarios').send(rule).expect(201);
  /** The client's waits, written down and not waited; each retry as the hook is told it; jitter at half its ceiling. */
  const observed = (options: Partial<RetryOptions> = {}): Partial<ClientOptions> => ({
    sleep: (ms) => {
      slept.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
    retry: {
      ...options,
      onRetry: ({ attempt, method, url, waitMs, error }) => retries.push(`${attempt} ${method} ${new URL(url).pathname} after ${waitMs} ms: ${error.name}`),
    },
  });

  test('a reset, an empty reply and a cut body: each retried after a back-off that doubles, told to onRetry, and the report is right', async () => {
    const server = await startServer();
    for (const connection of ['reset', 'empty', 'truncated']) await addScenario(server, { target: 'volume', connection, times: 1 });
    const client = aliceClient(server.url, observed({ maxRetries: 3 }));
    expect(await client.volume(TWO_DAYS)).toEqual(VOLUME_REPORT);
    expect(retries).toEqual([
      `1 GET ${VOLUME_PATH} after 100 ms: NetworkError`,
      `2 GET ${VOLUME_PATH} after 200 ms: NetworkError`,
      `3 GET ${VOLUME_PATH} after 400 ms: NetworkError`,
    ]);
    expect(slept).toEqual([100, 200, 400]);
    // The cut body came with its status: it failed as it was read.
    expect(statuses()).toEqual(['POST /api/auth 200', `GET ${VOLUME_PATH} 0`, `GET ${VOLUME_PATH} 0`, `GET ${VOLUME_PATH} 200`, `GET ${VOLUME_PATH} 200`]);
  });

  test('retries spent: the last failure is thrown', async () => {
    const server = await startServer();
    await addScenario(server, { target: 'volume', connection: 'reset', times: 5 });
    const error = await aliceClient(server.url, observed()).volume(TWO_DAYS).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(NetworkError);
    expect(retries).toEqual([`1 GET ${VOLUME_PATH} after 100 ms: NetworkError`, `2 GET ${VOLUME_PATH} after 200 ms: NetworkError`]);
    expect(statuses().filter((line) => line.startsWith('GET'))).toEqual(Array<string>(3).fill(`GET ${VOLUME_PATH} 0`));
  });

  test("an outage's 500 with Retry-After is asked again after it; a 500 without is thrown at once", async () => {
    const server = await startServer();
    await addScenario(server, { target: 'volume', status: 503, retry_after_seconds: 1, times: 1 });
    const client = aliceClient(server.url, observed());
    expect(await client.volume(TWO_DAYS)).toEqual(VOLUME_REPORT);
    expect(retries).toEqual([`1 GET ${VOLUME_PATH} after 1000 ms: ServerError`]);
    await addScenario(server, { target: 'volume', status: 500, times: 1 });
    await expect(client.volume(TWO_DAYS)).rejects.toMatchObject({ name: 'ServerError', status: 500, code: 'IVR_INTERNAL' });
    expect(retries).toHaveLength(1);
  });

  test('a Retry-After beyond maxRetryWaitMs is not waited: the failure is thrown at once', async () => {
    const server = await startServer();
    await addScenario(server, { target: 'volume', status: 503, retry_after_seconds: 16, times: 1 });
    await expect(aliceClient(server.url, observed()).volume(TWO_DAYS)).rejects.toMatchObject({ name: 'ServerError', retryAfterSeconds: 16 });
    expect(slept).toEqual([]);
    expect(retries).toEqual([]);
  });

  test('a login reset after the server read it is not sent again, since the server counted it; the next call signs in', async () => {
    const server = await startServer();
    await addScenario(server, { target: 'auth', connection: 'reset', times: 1 });
    const client = aliceClient(server.url, observed());
    await expect(client.volume(TWO_DAYS)).rejects.toBeInstanceOf(NetworkError);
    expect(retries).toEqual([]);
    expect(await client.volume(TWO_DAYS)).toEqual(VOLUME_REPORT);
    expect(statuses()).toEqual(['POST /api/auth 0', 'POST /api/auth 200', `GET ${VOLUME_PATH} 200`]);
  });

  test('a refused connection is retried, the login too, since it never reached the server', async () => {
    const stopped = await serve(buildTestApp().app);
    await stopped.close();
    await expect(aliceClient(stopped.url, observed()).volume(TWO_DAYS)).rejects.toMatchObject({
      name: 'NetworkError',
      message: `no answer from ${stopped.url}/api/auth: ECONNREFUSED`,
    });
    expect(retries).toEqual(['1 POST /api/auth after 100 ms: NetworkError', '2 POST /api/auth after 200 ms: NetworkError']);
  });

  test('retry: false retries nothing', async () => {
    const server = await startServer();
    await addScenario(server, { target: 'volume', connection: 'empty', times: 1 });
    await expect(aliceClient(server.url, { retry: false }).volume(TWO_DAYS)).rejects.toBeInstanceOf(NetworkError);
    expect(statuses()).toEqual(['POST /api/auth 200', `GET ${VOLUME_PATH} 0`]);
  });

  test.each([
    [{ maxRetries: -1 }, 'retry.maxRetries must be a whole number of at least 0, not -1'],
    [{ maxRetries: 1.5 }, 'retry.maxRetries must be a whole number of at least 0, not 1.5'],
    [{ baseDelayMs: Number.NaN }, 'retry.baseDelayMs must be a number of milliseconds of at least 0, not NaN'],
    [{ maxRetryWaitMs: -5 }, 'retry.maxRetryWaitMs must be a number of milliseconds of at least 0, not -5'],
  ])('retry %j is refused when the client is made', (retry, message) => {
    expect(() => aliceClient('http://127.0.0.1:9', { retry })).toThrow(new RangeError(message));
  });

  test('100 reports through 20% connection faults: every answer right, every retry reported', async () => {
    const server = await startServer({ DATA_RATE_LIMIT: '1000' });
    // Three scenarios drawing apart, 20% of the requests in all; their seeds make the run the same every time.
    await addScenario(server, { target: 'data', connection: 'reset', probability: 0.1, seed: 1 });
    await addScenario(server, { target: 'data', connection: 'empty', probability: 0.05, seed: 2 });
    await addScenario(server, { target: 'data', connection: 'truncated', probability: 0.05, seed: 3 });
    const client = aliceClient(server.url, { ...observed({ maxRetries: 5 }), maxKeptReports: 0 });
    for (let report = 0; report < 100; report += 1) expect(await client.volume(TWO_DAYS)).toEqual(VOLUME_REPORT);
    const { scenarios } = (await admin(server.url).get('/admin/scenarios')).body as { scenarios: { fired: number }[] };
    const faults = scenarios.reduce((sum, { fired }) => sum + fired, 0);
    expect(retries).toHaveLength(faults);
    expect(faults).toBeGreaterThanOrEqual(10);
    expect(statuses().filter((line) => line.startsWith('GET'))).toHaveLength(100 + faults);
  });
});

describe('other failures', () => {
  test.each<Format>(['json', 'xml'])('a bad date is an InvalidRequestError with the message the server sent in %s, and its code', async (format) => {
    const message = 'start "20180230" is not a real date in the form YYYYMMDD (from 19700101)';
    const server = await startServer();
    const error = await aliceClient(server.url)
      .volume({ ...TWO_DAYS, start: '20180230' }, { format })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ name: 'InvalidRequestError', status: 400, code: 'IVR_INVALID_PARAMETER', message });
    expect(sent.at(-1)?.contentType).toBe(`application/${format}; charset=utf-8`);
  });

  test("a number that is not on the account is an InvalidRequestError with IVR_PHONE_NOT_OWNED", async () => {
    const server = await startServer();
    await expect(aliceClient(server.url).volume({ ...TWO_DAYS, phone: '18005550199' })).rejects.toMatchObject({
      name: 'InvalidRequestError',
      status: 400,
      code: 'IVR_PHONE_NOT_OWNED',
      message: 'phone 18005550199 is not on this account',
    });
  });

  test('a server that is not listening is a NetworkError naming the address', async () => {
    const stopped = await serve(buildTestApp().app);
    await stopped.close();
    const error = await aliceClient(stopped.url)
      .volume(TWO_DAYS)
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toBeInstanceOf(ReportingClientError);
    expect(error).toMatchObject({ url: `${stopped.url}/api/auth`, message: `no answer from ${stopped.url}/api/auth: ECONNREFUSED` });
  });

  test('a baseUrl that is not an absolute URL is refused when the client is made', () => {
    expect(() => aliceClient('127.0.0.1:3000/reports')).toThrow(new TypeError('Invalid URL'));
  });

  test('an answer that is not JSON is an UnexpectedResponseError', async () => {
    const htmlEverywhere: typeof fetch = () =>
      Promise.resolve(new Response('<html>welcome</html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', tool: 'dev', login: 'alice', password: 'secret-password', fetch: htmlEverywhere });
    const error = await client.volume(TWO_DAYS).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({
      status: 200,
      url: 'http://127.0.0.1:9/api/auth',
      message: 'the answer of http://127.0.0.1:9/api/auth is not JSON: is http://127.0.0.1:9 an ivr-reporting server?',
    });
  });
});
