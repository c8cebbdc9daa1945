import request from 'supertest';
import type { RunningServer } from '../../listen';
import { serve } from '../../../test/support/http';
import { addAccount, buildTestApp, type TestApp } from '../../../test/support/test-app';
import { authenticate, type Credentials } from '../../../test/support/reporting';

const UNAUTHORIZED = {
  error: 'missing, invalid or expired credentials, or the account is inactive; authenticate at /api/auth',
};
const CHALLENGE = 'Basic realm="IVR reporting API"';
const PATH = '/api/events/20180201/20180201/day/ALL';
const HOUR = 3_600_000;

let testApp: TestApp;
let server: RunningServer;
let credentials: Credentials;

beforeEach(async () => {
  testApp = buildTestApp({ CREDENTIAL_TTL_SECONDS: '86400' });
  server = await serve(testApp.app);
  await addAccount(testApp.store, { phones: ['15550001'] });
  credentials = await authenticate(server.url);
});

afterEach(() => server.close());

const withCredentials = ({ login, password }: Credentials) => request(server.url).get(PATH).auth(login, password);

function expectUnauthorized(response: request.Response): void {
  expect(response.status).toBe(401);
  expect(response.headers['www-authenticate']).toBe(CHALLENGE);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.body).toEqual(UNAUTHORIZED);
}

describe('HTTP Basic with temporary credentials', () => {
  test('returns 200 with the credentials from /api/auth', async () => {
    expect((await withCredentials(credentials)).status).toBe(200);
  });

  test('returns 401 with WWW-Authenticate when no credentials are sent', async () => {
    expectUnauthorized(await request(server.url).get(PATH));
  });

  test('returns 401 for an unknown login', async () => {
    expectUnauthorized(await withCredentials({ login: '0'.repeat(32), password: credentials.password }));
  });

  test('returns 401 for a wrong password', async () => {
    expectUnauthorized(await withCredentials({ login: credentials.login, password: '0'.repeat(32) }));
  });

  test.each([
    ['a NUL byte in the login', `${'0'.repeat(31)}\u0000`, '0'.repeat(32)],
    ['a login that is not 32 hex digits', 'alice', '0'.repeat(32)],
    ['a password with a control character', '0'.repeat(32), `\u0007${'0'.repeat(31)}`],
    ['unpaired surrogates', '\ud800'.repeat(32), '\udfff'.repeat(32)],
  ])('returns 401 for %s, on every store', async (_case, login, password) => {
    expectUnauthorized(await withCredentials({ login, password }));
  });

  test('returns 401 for the tool account password instead of the temporary one', async () => {
    expectUnauthorized(await withCredentials({ login: 'alice', password: 'secret-password' }));
  });

  test('returns 401 in XML, with the challenge, when Accept asks for XML', async () => {
    const response = await request(server.url).get(PATH).set('Accept', 'application/xml');
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe(CHALLENGE);
    expect(response.text).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><result><error>${UNAUTHORIZED.error}</error></result>`,
    );
  });

  test('expires the credentials after the idle time to live', async () => {
    testApp.clock.advance(24 * HOUR);
    expectUnauthorized(await withCredentials(credentials));
  });

  test('keeps the credentials alive while they are used (sliding expiry)', async () => {
    for (let hour = 0; hour < 3; hour += 1) {
      testApp.clock.advance(23 * HOUR);
      expect((await withCredentials(credentials)).status).toBe(200);
    }
    testApp.clock.advance(24 * HOUR - 1);
    expect((await withCredentials(credentials)).status).toBe(200);
    testApp.clock.advance(24 * HOUR);
    expectUnauthorized(await withCredentials(credentials));
  });

  test('records a use at most once a minute, so that a client polling reports does not write on every read', async () => {
    const issuedAt = (await testApp.store.credentials.findWithAccount(credentials.login))?.credential.lastUsedAt as number;
    testApp.clock.advance(59_999);
    expect((await withCredentials(credentials)).status).toBe(200);
    expect((await testApp.store.credentials.findWithAccount(credentials.login))?.credential.lastUsedAt).toBe(issuedAt);
    testApp.clock.advance(1);
    expect((await withCredentials(credentials)).status).toBe(200);
    expect((await testApp.store.credentials.findWithAccount(credentials.login))?.credential.lastUsedAt).toBe(issuedAt + 60_000);
  });

  test('with a time to live under a minute, still slides: a use is recorded once a sixtieth of it has passed', async () => {
    testApp = buildTestApp({ CREDENTIAL_TTL_SECONDS: '30' });
    await server.close();
    server = await serve(testApp.app);
    await addAccount(testApp.store, { phones: ['15550001'] });
    const shortLived = await authenticate(server.url);
    const lastUsedAt = async () => (await testApp.store.credentials.findWithAccount(shortLived.login))?.credential.lastUsedAt;
    const issuedAt = (await lastUsedAt()) as number;
    testApp.clock.advance(499);
    expect((await withCredentials(shortLived)).status).toBe(200);
    expect(await lastUsedAt()).toBe(issuedAt);
    testApp.clock.advance(1);
    expect((await withCredentials(shortLived)).status).toBe(200);
    expect(await lastUsedAt()).toBe(issuedAt + 500);
    for (let use = 0; use < 3; use += 1) {
      testApp.clock.advance(29_000);
      expect((await withCredentials(shortLived)).status).toBe(200);
    }
    testApp.clock.advance(30_000);
    expectUnauthorized(await withCredentials(shortLived));
  });

  test('does not extend the credentials on a failed attempt', async () => {
    testApp.clock.advance(23 * HOUR);
    await withCredentials({ login: credentials.login, password: 'f'.repeat(32) });
    testApp.clock.advance(HOUR);
    expectUnauthorized(await withCredentials(credentials));
  });

  test('refuses credentials it accepted a moment ago once they are revoked, or the account deactivated', async () => {
    expect((await withCredentials(credentials)).status).toBe(200);
    await testApp.store.accounts.update('dev:alice', { revokeCredentials: true });
    expectUnauthorized(await withCredentials(credentials));
    const renewed = await authenticate(server.url);
    expect((await withCredentials(renewed)).status).toBe(200);
    const account = await testApp.store.accounts.find('dev:alice');
    await testApp.store.accounts.save({ ...account!, active: false });
    expectUnauthorized(await withCredentials(renewed));
  });

  test('makes the credentials fail at once when the account is deactivated', async () => {
    const account = await testApp.store.accounts.find('dev:alice');
    await testApp.store.accounts.save({ ...account!, active: false });
    expectUnauthorized(await withCredentials(credentials));
  });

  test('stores only a digest of the temporary password', async () => {
    const stored = (await testApp.store.credentials.findWithAccount(credentials.login))?.credential;
    expect(stored?.passwordDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(credentials.password);
  });
});
