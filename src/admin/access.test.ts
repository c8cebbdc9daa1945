import request from 'supertest';
import { loadConfig } from '../configuration';
import { ConfigError } from '../config/config-error';
import type { RunningServer } from '../listen';
import { FakeClock } from '../../test/support/fake-clock';
import { serve } from '../../test/support/http';
import { buildTestApp } from '../../test/support/test-app';
import { ADMIN_TOKEN, admin, BEARER, startAdminServer, type AdminServer } from '../../test/support/admin';

const UNAUTHORIZED = { error: 'missing or wrong admin token; send Authorization: Bearer <ADMIN_TOKEN>' };
const CHALLENGE = 'Bearer realm="ivr-reporting admin"';

let running: AdminServer | undefined;
let plain: RunningServer | undefined;

afterEach(async () => {
  await running?.server.close();
  await plain?.close();
  running = undefined;
  plain = undefined;
});

function expectUnauthorized(response: request.Response): void {
  expect(response.status).toBe(401);
  expect(response.headers['www-authenticate']).toBe(CHALLENGE);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.body).toEqual(UNAUTHORIZED);
}

describe('admin API switch', () => {
  test('answers 404 on every /admin path when ADMIN_TOKEN is not set, token or not', async () => {
    plain = await serve(buildTestApp({}).app);
    for (const pending of [
      request(plain.url).get('/admin/accounts').set('Authorization', BEARER),
      request(plain.url).put('/admin/accounts/dev/alice').set('Authorization', BEARER).send({ password: 'pw' }),
      request(plain.url).post('/admin/calls').set('Content-Type', 'application/x-ndjson').send('{}'),
      request(plain.url).get('/admin'),
    ]) {
      const response = await pending;
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `no resource at ${new URL(response.request.url).pathname}` });
    }
  });

  test('refuses an ADMIN_TOKEN shorter than 16 characters, naming the variable without repeating the token', () => {
    expect(() => loadConfig({ ADMIN_TOKEN: 'short' })).toThrow(
      new ConfigError('invalid configuration: ADMIN_TOKEN (value not shown): must be at least 16 characters'),
    );
  });

  test('reads ADMIN_TOKEN and ADMIN_RATE_LIMIT, with a generous default limit', () => {
    expect(loadConfig({})).toMatchObject({ admin: { token: undefined }, rateLimits: { admin: 90_000 } });
    expect(loadConfig({ ADMIN_TOKEN: ADMIN_TOKEN, ADMIN_RATE_LIMIT: '10' })).toMatchObject({
      admin: { token: ADMIN_TOKEN },
      rateLimits: { admin: 10 },
    });
  });
});

describe('admin token', () => {
  beforeEach(async () => {
    running = await startAdminServer();
  });

  test('accepts the token as a Bearer credential', async () => {
    const response = await admin(running!.url).get('/admin/accounts');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ accounts: [] });
  });

  test('returns 401 with a Bearer challenge when no token is sent', async () => {
    expectUnauthorized(await request(running!.url).get('/admin/accounts'));
  });

  test('returns 401 for a wrong token, a token one character short, and another scheme', async () => {
    const url = running!.url;
    expectUnauthorized(await request(url).get('/admin/accounts').set('Authorization', 'Bearer wrong-token-0123456789'));
    expectUnauthorized(await request(url).get('/admin/accounts').set('Authorization', `Bearer ${ADMIN_TOKEN.slice(0, -1)}`));
    expectUnauthorized(await request(url).get('/admin/accounts').set('Authorization', `Basic ${ADMIN_TOKEN}`));
  });

  test('checks the token before anything else, so an unknown path without it is 401 too', async () => {
    expectUnauthorized(await request(running!.url).get('/admin/nothing-here'));
    expect((await admin(running!.url).get('/admin/nothing-here')).body).toEqual({ error: 'no resource at /admin/nothing-here' });
  });

  test('answers in JSON even when Accept asks for XML', async () => {
    const response = await request(running!.url).get('/admin/accounts').set('Accept', 'application/xml');
    expectUnauthorized(response);
  });

  test('answers 405 with Allow for a method a route does not serve', async () => {
    const calls = await admin(running!.url).get('/admin/calls');
    expect(calls.status).toBe(405);
    expect(calls.headers.allow).toBe('POST');
    expect(calls.body).toEqual({ error: 'method GET is not allowed here; use POST' });
    const accounts = await admin(running!.url).post('/admin/accounts');
    expect(accounts.status).toBe(405);
    expect(accounts.headers.allow).toBe('GET, HEAD');
    const account = await admin(running!.url).post('/admin/accounts/dev/alice');
    expect(account.headers.allow).toBe('GET, HEAD, PUT, DELETE');
    const phone = await admin(running!.url).get('/admin/accounts/dev/alice/phones/15550001');
    expect(phone.headers.allow).toBe('PUT, DELETE');
  });
});

describe('admin rate limit group', () => {
  const WINDOW_START = Date.UTC(2018, 1, 7, 15, 0, 0);

  test('counts every admin request per client address, token or not, and answers 429 past ADMIN_RATE_LIMIT', async () => {
    const testApp = buildTestApp({ ADMIN_TOKEN, ADMIN_RATE_LIMIT: '3' }, new FakeClock(WINDOW_START + 60_000));
    plain = await serve(testApp.app);
    const first = await request(plain.url).get('/admin/accounts');
    expect(first.status).toBe(401);
    expect([first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining'], first.headers['x-ratelimit-reset']]).toEqual([
      '3',
      '2',
      String((WINDOW_START + 900_000) / 1000),
    ]);
    expect((await admin(plain.url).get('/admin/accounts')).headers['x-ratelimit-remaining']).toBe('1');
    expect((await admin(plain.url).get('/admin/accounts')).headers['x-ratelimit-remaining']).toBe('0');
    const refused = await admin(plain.url).get('/admin/accounts');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('840');
    expect(refused.body).toEqual({ error: 'rate limit exceeded; retry after the time in Retry-After' });
  });

  test('is a group of its own: admin requests leave the reporting groups untouched', async () => {
    const testApp = buildTestApp({ ADMIN_TOKEN, ADMIN_RATE_LIMIT: '1' });
    plain = await serve(testApp.app);
    await admin(plain.url).get('/admin/accounts');
    const auth = await request(plain.url).post('/api/auth').type('form').send({ tool: 'dev' });
    expect(auth.headers['x-ratelimit-remaining']).toBe('14');
  });
});
