import request from 'supertest';
import { hashPassword } from '../../accounts/password-hash';
import { passwordHasher, type PasswordHasher } from '../../accounts/password-hasher';
import { composeApp } from '../../composition-root';
import { loadConfig } from '../../configuration';
import type { RunningServer } from '../../listen';
import { createLogger } from '../../logger';
import type { Store } from '../../storage/store';
import { FakeClock } from '../../../test/support/fake-clock';
import { serve } from '../../../test/support/http';
import { addAccount } from '../../../test/support/test-app';
import { createTestStore } from '../../../test/support/test-store';

/** The scrypt line of a default start, counting the password checks that reach it. */
class CountingHasher implements PasswordHasher {
  checks = 0;
  private readonly scrypt = passwordHasher({ concurrency: 1, mostWaiting: 64 });

  hash(password: string, signal?: AbortSignal): Promise<string> {
    return this.scrypt.hash(password, signal);
  }

  verify(password: string, stored: string, signal?: AbortSignal): Promise<boolean> {
    this.checks += 1;
    return this.scrypt.verify(password, stored, signal);
  }
}

let store: Store;
let clock: FakeClock;
let hasher: CountingHasher;
let server: RunningServer | undefined;

async function start(env: NodeJS.ProcessEnv = {}): Promise<void> {
  const app = composeApp(loadConfig({ AUTH_RATE_LIMIT: '1000', ...env }), { store, clock, logger: createLogger('silent'), passwords: hasher });
  server = await serve(app);
}

beforeEach(async () => {
  store = createTestStore();
  clock = new FakeClock();
  hasher = new CountingHasher();
  await addAccount(store, { tool: 'dev', login: 'alice', password: 'secret-password', hashing: 'scrypt' });
});

afterEach(() => server?.close());

/** A login's status and the password checks scrypt made for it. */
async function login(password: string, as: { tool?: string; login?: string } = {}): Promise<{ status: number; hashed: number }> {
  const before = hasher.checks;
  const response = await request(server!.url)
    .post('/api/auth')
    .type('form')
    .send({ tool: as.tool ?? 'dev', login: as.login ?? 'alice', password });
  return { status: response.status, hashed: hasher.checks - before };
}

const HASHED_OK = { status: 200, hashed: 1 };
const CACHED_OK = { status: 200, hashed: 0 };
const HASHED_REFUSED = { status: 401, hashed: 1 };

describe('POST /api/auth with successful password checks remembered (AUTH_CACHE_SECONDS)', () => {
  test('checks the right password with scrypt once, then by its digest', async () => {
    await start();
    expect(await login('secret-password')).toEqual(HASHED_OK);
    expect(await login('secret-password')).toEqual(CACHED_OK);
    expect(await login('secret-password')).toEqual(CACHED_OK);
  });

  test('refuses a wrong password after a remembered success with the catalogue 401, hashed, and keeps the right one remembered', async () => {
    await start();
    await login('secret-password');
    const before = hasher.checks;
    const refused = await request(server!.url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'wrong-password' });
    expect(hasher.checks - before).toBe(1);
    expect(refused.status).toBe(401);
    expect(refused.headers['x-error-code']).toBe('IVR_INVALID_LOGIN');
    expect(refused.headers['www-authenticate']).toBe('Form realm="IVR reporting API"');
    expect(refused.body).toEqual({ error: 'invalid login or password, or the account is inactive' });
    expect(await login('wrong-password')).toEqual(HASHED_REFUSED);
    expect(await login('secret-password')).toEqual(CACHED_OK);
  });

  test('remembers nothing of a login under another tool or of an unknown login: each is hashed and refused', async () => {
    await start();
    await login('secret-password');
    expect(await login('secret-password', { tool: 'fuse' })).toEqual(HASHED_REFUSED);
    expect(await login('secret-password', { login: 'mallory' })).toEqual(HASHED_REFUSED);
    expect(await login('secret-password', { login: 'mallory' })).toEqual(HASHED_REFUSED);
  });

  test('does not answer from what it remembers once the account has a new password', async () => {
    await start();
    await login('secret-password');
    await store.accounts.update('dev:alice', { passwordHash: await hashPassword('new-password') });
    expect(await login('secret-password')).toEqual(HASHED_REFUSED);
    expect(await login('new-password')).toEqual(HASHED_OK);
    expect(await login('new-password')).toEqual(CACHED_OK);
  });

  test('does not answer from what it remembers once the account was created again with the same password', async () => {
    await start();
    await login('secret-password');
    await addAccount(store, { tool: 'dev', login: 'alice', password: 'secret-password', hashing: 'scrypt' });
    expect(await login('secret-password')).toEqual(HASHED_OK);
  });

  test("does not answer from what it remembers once the account's credentials were revoked", async () => {
    await start();
    await login('secret-password');
    await store.accounts.update('dev:alice', { revokeCredentials: true });
    expect(await login('secret-password')).toEqual(HASHED_OK);
    expect(await login('secret-password')).toEqual(CACHED_OK);
  });

  test('refuses an inactive account with the right password every time, each refusal hashed like a wrong password', async () => {
    await start();
    await login('secret-password');
    await store.accounts.update('dev:alice', { active: false });
    expect(await login('secret-password')).toEqual(HASHED_REFUSED);
    expect(await login('secret-password')).toEqual(HASHED_REFUSED);
    await store.accounts.update('dev:alice', { active: true });
    expect(await login('secret-password')).toEqual(HASHED_OK);
  });

  test('hashes again once AUTH_CACHE_SECONDS have passed since the scrypt check, however often the password was used meanwhile', async () => {
    await start({ AUTH_CACHE_SECONDS: '60' });
    await login('secret-password');
    clock.advance(59_000);
    expect(await login('secret-password')).toEqual(CACHED_OK);
    clock.advance(2_000);
    expect(await login('secret-password')).toEqual(HASHED_OK);
    expect(await login('secret-password')).toEqual(CACHED_OK);
  });

  test('hashes every login with AUTH_CACHE_SECONDS=0', async () => {
    await start({ AUTH_CACHE_SECONDS: '0' });
    expect(await login('secret-password')).toEqual(HASHED_OK);
    expect(await login('secret-password')).toEqual(HASHED_OK);
    expect(await login('secret-password')).toEqual(HASHED_OK);
  });

  test('remembers AUTH_CACHE_MAX_ENTRIES accounts at most, the least recently used forgotten first', async () => {
    await addAccount(store, { tool: 'dev', login: 'bob', password: 'bob-password', hashing: 'scrypt' });
    await addAccount(store, { tool: 'fuse', login: 'carol', password: 'carol-password', hashing: 'scrypt' });
    await start({ AUTH_CACHE_MAX_ENTRIES: '2' });
    expect(await login('secret-password')).toEqual(HASHED_OK);
    expect(await login('bob-password', { login: 'bob' })).toEqual(HASHED_OK);
    expect(await login('secret-password')).toEqual(CACHED_OK);
    expect(await login('carol-password', { tool: 'fuse', login: 'carol' })).toEqual(HASHED_OK);
    expect(await login('secret-password')).toEqual(CACHED_OK);
    expect(await login('bob-password', { login: 'bob' })).toEqual(HASHED_OK);
  });
});
