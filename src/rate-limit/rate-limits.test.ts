import request from 'supertest';
import type { RunningServer } from '../listen';
import { FakeClock } from '../../test/support/fake-clock';
import { serve } from '../../test/support/http';
import { addAccount, buildTestApp, type TestApp } from '../../test/support/test-app';
import { authenticate, type Credentials } from '../../test/support/reporting';

const WINDOW_START = Date.UTC(2018, 1, 7, 15, 0, 0);
const RATE_LIMITED = { error: 'rate limit exceeded; retry after the time in Retry-After' };
const EVENTS = '/api/events/20180201/20180201/day/ALL';

let testApp: TestApp;
let server: RunningServer;

async function setUp(env: NodeJS.ProcessEnv = {}, now = WINDOW_START): Promise<void> {
  testApp = buildTestApp(env, new FakeClock(now));
  server = await serve(testApp.app);
  await addAccount(testApp.store, { phones: ['15550001'] });
  await addAccount(testApp.store, { login: 'bob', phones: ['15550002'] });
}

afterEach(() => server.close());

const badAuth = (forwardedFor?: string) => {
  const pending = request(server.url).post('/api/auth').type('form').send({ tool: 'excel' });
  return forwardedFor === undefined ? pending : pending.set('X-Forwarded-For', forwardedFor);
};

function limitHeaders(response: request.Response): [string, string, string] {
  return [
    response.headers['x-ratelimit-limit'] as string,
    response.headers['x-ratelimit-remaining'] as string,
    response.headers['x-ratelimit-reset'] as string,
  ];
}

describe('authentication limit group', () => {
  test('shows the maximum minus one on the first response of a window and the window end as reset', async () => {
    await setUp({}, WINDOW_START + 450_000);
    const response = await badAuth();
    expect(limitHeaders(response)).toEqual(['15', '14', String((WINDOW_START + 900_000) / 1000)]);
  });

  test('counts every request, failed or not, and refuses the 16th in a window with 429', async () => {
    await setUp({}, WINDOW_START + 60_500);
    const remaining: string[] = [];
    for (let attempt = 0; attempt < 15; attempt += 1) {
      remaining.push(limitHeaders(await badAuth())[1]);
    }
    expect(remaining).toEqual(['14', '13', '12', '11', '10', '9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    const refused = await request(server.url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });
    expect(refused.status).toBe(429);
    expect(refused.headers['x-error-code']).toBe('IVR_RATE_LIMITED');
    expect(refused.body).toEqual(RATE_LIMITED);
    expect(refused.headers['retry-after']).toBe('840');
    const [, left, reset] = limitHeaders(refused);
    expect(left).toBe('0');
    expect(Number(reset) % 900).toBe(0);
    expect(Number(reset)).toBe((WINDOW_START + 900_000) / 1000);
  });

  test('opens a new window at the next quarter hour', async () => {
    await setUp({ AUTH_RATE_LIMIT: '1' }, WINDOW_START + 899_000);
    expect((await badAuth()).status).toBe(400);
    expect((await badAuth()).status).toBe(429);
    testApp.clock.set(WINDOW_START + 900_000);
    const response = await badAuth();
    expect(response.status).toBe(400);
    expect(limitHeaders(response)).toEqual(['1', '0', String((WINDOW_START + 1_800_000) / 1000)]);
  });

  test('counts per client address', async () => {
    await setUp({ AUTH_RATE_LIMIT: '2', TRUST_PROXY: 'true' });
    await badAuth('203.0.113.1');
    await badAuth('203.0.113.1');
    expect((await badAuth('203.0.113.1')).status).toBe(429);
    expect((await badAuth('203.0.113.2')).status).toBe(400);
  });

  test('answers 429 in XML when Accept asks for XML', async () => {
    await setUp({ AUTH_RATE_LIMIT: '1' });
    await badAuth();
    const response = await badAuth().set('Accept', 'application/xml');
    expect(response.status).toBe(429);
    expect(response.text).toBe(`<?xml version="1.0" encoding="UTF-8"?><result><error>${RATE_LIMITED.error}</error></result>`);
  });

  test('counts another method on /api/auth in a window of its own, not in the group', async () => {
    await setUp({ AUTH_RATE_LIMIT: '1' });
    const notAllowed = await request(server.url).get('/api/auth');
    expect(notAllowed.status).toBe(405);
    expect(limitHeaders(notAllowed)).toEqual(['1', '0', String((WINDOW_START + 900_000) / 1000)]);
    expect((await badAuth()).status).toBe(400);
  });

  test('follows RATE_LIMIT_WINDOW_SECONDS for the window length', async () => {
    await setUp({ RATE_LIMIT_WINDOW_SECONDS: '60' }, WINDOW_START + 61_000);
    expect(limitHeaders(await badAuth())[2]).toBe(String((WINDOW_START + 120_000) / 1000));
  });
});

describe('data limit group', () => {
  const data = ({ login, password }: Credentials, path = EVENTS) => request(server.url).get(path).auth(login, password);

  test('counts per account, across credential pairs, and refuses the request past the limit', async () => {
    await setUp({ DATA_RATE_LIMIT: '3' });
    const first = await authenticate(server.url);
    const second = await authenticate(server.url);
    const bob = await authenticate(server.url, { login: 'bob' });
    expect(limitHeaders(await data(first))).toEqual(['3', '2', String((WINDOW_START + 900_000) / 1000)]);
    expect((await data(second)).headers['x-ratelimit-remaining']).toBe('1');
    expect((await data(first, '/api/events/20180201/20180101/day/ALL')).status).toBe(400);
    const refused = await data(second);
    expect(refused.status).toBe(429);
    expect(refused.headers['x-error-code']).toBe('IVR_RATE_LIMITED');
    expect(refused.headers['retry-after']).toBe('900');
    expect(refused.body).toEqual(RATE_LIMITED);
    expect(limitHeaders(await data(bob))).toEqual(['3', '2', String((WINDOW_START + 900_000) / 1000)]);
  });

  test('gives exactly 150 non-429 answers to 200 simultaneous requests of one account', async () => {
    await setUp();
    const credentials = await authenticate(server.url);
    const responses = await Promise.all(Array.from({ length: 200 }, () => data(credentials)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 429)).toHaveLength(150);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
    const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers['x-ratelimit-remaining']));
    expect(new Set(remaining).size).toBe(150);
    expect(Math.min(...remaining)).toBe(0);
  });
});

describe('requests tied to no account', () => {
  const reset = String((WINDOW_START + 900_000) / 1000);
  const data = ({ login, password }: Credentials, path = EVENTS) => request(server.url).get(path).auth(login, password);

  test('a data request without credentials gets 401 with the headers of its address window, at the data limit', async () => {
    await setUp({ DATA_RATE_LIMIT: '3' });
    const response = await request(server.url).get(EVENTS);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Basic realm="IVR reporting API"');
    expect(limitHeaders(response)).toEqual(['3', '2', reset]);
    expect(response.body).toEqual({
      error: 'missing, invalid or expired credentials, or the account is inactive; authenticate at /api/auth',
    });
  });

  test('wrong credentials are counted per address and never touch the account window', async () => {
    await setUp({ DATA_RATE_LIMIT: '3' });
    const credentials = await authenticate(server.url);
    const wrong = await data({ login: credentials.login, password: 'f'.repeat(32) });
    expect(wrong.status).toBe(401);
    expect(limitHeaders(wrong)).toEqual(['3', '2', reset]);
    const unknown = await data({ login: 'a'.repeat(32), password: 'b'.repeat(32) });
    expect(limitHeaders(unknown)).toEqual(['3', '1', reset]);
    const accepted = await data(credentials);
    expect(accepted.status).toBe(200);
    expect(limitHeaders(accepted)).toEqual(['3', '2', reset]);
  });

  test('refuses the request past the limit of its address window with 429 and Retry-After', async () => {
    await setUp({ DATA_RATE_LIMIT: '2', TRUST_PROXY: 'true' });
    const anonymous = (address: string) => request(server.url).get(EVENTS).set('X-Forwarded-For', address);
    expect((await anonymous('203.0.113.1')).status).toBe(401);
    expect((await anonymous('203.0.113.1')).status).toBe(401);
    const refused = await anonymous('203.0.113.1');
    expect(refused.status).toBe(429);
    expect(refused.headers['x-error-code']).toBe('IVR_RATE_LIMITED');
    expect(refused.headers['retry-after']).toBe('900');
    expect(refused.headers['www-authenticate']).toBeUndefined();
    expect(refused.body).toEqual(RATE_LIMITED);
    expect(limitHeaders(refused)).toEqual(['2', '0', reset]);
    expect(limitHeaders(await anonymous('203.0.113.2'))).toEqual(['2', '1', reset]);
  });

  test('another method on a data resource gets 405 with Allow and the headers of its address window', async () => {
    await setUp({ DATA_RATE_LIMIT: '3' });
    const response = await request(server.url).post(EVENTS);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(limitHeaders(response)).toEqual(['3', '2', reset]);
    expect(response.body).toEqual({ error: 'method POST is not allowed here; use GET or HEAD' });
  });

  test('an unknown path under /api/ gets 404 with the headers of its address window', async () => {
    await setUp({ DATA_RATE_LIMIT: '3' });
    const response = await request(server.url).get('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(limitHeaders(response)).toEqual(['3', '2', reset]);
    expect(response.body).toEqual({ error: 'no resource at /api/nothing-here' });
  });

  test('a path part that is not valid percent-encoding gets 400 with the headers of its address window', async () => {
    await setUp({ DATA_RATE_LIMIT: '3' });
    const response = await request(server.url).get('/api/events/%E0%A4%A/20180101/day/ALL');
    expect(response.status).toBe(400);
    expect(limitHeaders(response)).toEqual(['3', '2', reset]);
    expect(response.body).toEqual({ error: 'path part %E0%A4%A is not valid percent-encoded UTF-8' });
  });

  test('the unidentified windows of the two groups are counted apart', async () => {
    await setUp({ AUTH_RATE_LIMIT: '5', DATA_RATE_LIMIT: '7' });
    await request(server.url).get(EVENTS);
    expect(limitHeaders(await request(server.url).get('/api/auth'))).toEqual(['5', '4', reset]);
    expect(limitHeaders(await request(server.url).get(EVENTS))).toEqual(['7', '5', reset]);
  });

  test('answers outside /api/ carry no rate-limit headers', async () => {
    await setUp();
    const response = await request(server.url).get('/no-such-page');
    expect(response.status).toBe(404);
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
