import { once } from 'node:events';
import request from 'supertest';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/logger';
import type { RunningServer } from '../../src/server';
import { createMemoryStore } from '../../src/storage/memory/memory-store';
import { openPostgresStore } from '../../src/storage/postgres/postgres-store';
import { connectRedis } from '../../src/storage/redis/redis-client';
import { withRedisSharedState } from '../../src/storage/shared-state';
import type { Store } from '../../src/storage/store';
import { FakeClock } from '../support/fake-clock';
import { serve } from '../support/http';
import {
  createTestSchema,
  describeWithPostgres,
  describeWithRedis,
  testRedisUrl,
  uniqueRedisPrefix,
  type TestSchema,
} from '../support/services';
import { proxyForUrl, type TcpProxy } from '../support/tcp-proxy';
import { addAccount } from '../support/test-app';

const UNKNOWN_ERROR = { error: 'unknown error' };
const EVENTS = '/api/events/20180201/20180201/day/ALL';

let proxy: TcpProxy;
let store: Store;
let running: RunningServer;
let schema: TestSchema | undefined;

afterEach(async () => {
  running.server.closeAllConnections();
  await running.close();
  proxy.thaw();
  await proxy.restore().catch(() => undefined);
  await store.close();
  await proxy.close();
  await schema?.drop();
  schema = undefined;
});

async function serveOn(storeInUse: Store): Promise<string> {
  store = storeInUse;
  running = await serve(createApp({ config: loadConfig({}), store, clock: new FakeClock(), logger: createLogger('silent') }));
  await addAccount(store, { phones: ['15550001'] });
  return running.url;
}

/** The URL of `target` through a new TCP proxy (kept in `proxy`), so the test can cut or freeze it. */
async function throughProxy(target: string): Promise<string> {
  const through = await proxyForUrl(target);
  proxy = through.proxy;
  return through.url;
}

const authenticate = (url: string) =>
  request(url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });

describeWithPostgres('PostgreSQL lost while the server runs', () => {
  test('answers 500 unknown error at once, then serves again by itself when the database is back', async () => {
    schema = await createTestSchema();
    const base = await serveOn(await openPostgresStore(await throughProxy(schema.url), createLogger('silent')));
    expect((await authenticate(base)).status).toBe(200);

    await proxy.cut();
    const lost = await authenticate(base);
    expect(lost.status).toBe(500);
    expect(lost.body).toEqual(UNKNOWN_ERROR);

    // The pool dropped the connections it lost; the next request opens a fresh one.
    await proxy.restore();
    expect((await authenticate(base)).status).toBe(200);
  });
});

// DEPENDENCY_TIMEOUT_SECONDS=1: each wait for a frozen dependency ends after a second.
describeWithPostgres('PostgreSQL frozen (connections open, nothing answered) while the server runs', () => {
  test('answers 500 unknown error once the dependency timeout has passed, then serves again when it answers', async () => {
    schema = await createTestSchema();
    const base = await serveOn(await openPostgresStore(await throughProxy(schema.url), createLogger('silent'), 1));
    expect((await authenticate(base)).status).toBe(200);

    proxy.freeze();
    const frozen = await authenticate(base);
    expect(frozen.status).toBe(500);
    expect(frozen.body).toEqual(UNKNOWN_ERROR);

    proxy.thaw();
    expect((await authenticate(base)).status).toBe(200);
  });
});

describeWithRedis('Redis frozen (connection open, nothing answered) while the server runs', () => {
  test('refuses authentication with 500 once the dependency timeout has passed, then counts again when it answers', async () => {
    const redis = await connectRedis(await throughProxy(testRedisUrl as string), createLogger('silent'), 1);
    const base = await serveOn(withRedisSharedState(createMemoryStore(), redis, uniqueRedisPrefix()));
    expect((await authenticate(base)).headers['x-ratelimit-remaining']).toBe('14');

    proxy.freeze();
    const frozen = await authenticate(base);
    expect(frozen.status).toBe(500);
    expect(frozen.body).toEqual(UNKNOWN_ERROR);

    // The hit sent while Redis was frozen reaches it on thaw: refused or not, it was an attempt.
    proxy.thaw();
    const counted = await authenticate(base);
    expect(counted.status).toBe(200);
    expect(counted.headers['x-ratelimit-remaining']).toBe('12');
  });
});

describeWithRedis('Redis lost while the server runs', () => {
  test('refuses authentication with 500, lets data requests through uncounted, and counts again when Redis is back', async () => {
    const redis = await connectRedis(await throughProxy(testRedisUrl as string), createLogger('silent'));
    const base = await serveOn(withRedisSharedState(createMemoryStore(), redis, uniqueRedisPrefix()));
    const { login, password } = (await authenticate(base)).body as { login: string; password: string };
    expect((await request(base).get(EVENTS).auth(login, password)).headers['x-ratelimit-remaining']).toBe('149');

    await proxy.cut();
    const lostAuth = await authenticate(base);
    expect(lostAuth.status).toBe(500);
    expect(lostAuth.body).toEqual(UNKNOWN_ERROR);
    const uncounted = await request(base).get(EVENTS).auth(login, password);
    expect(uncounted.status).toBe(200);
    expect(uncounted.headers['x-ratelimit-remaining']).toBeUndefined();

    // The client reconnects by itself in the background; 'ready' is when it serves commands again.
    const reconnected = once(redis, 'ready');
    await proxy.restore();
    await reconnected;
    const counted = await request(base).get(EVENTS).auth(login, password);
    expect(counted.status).toBe(200);
    expect(counted.headers['x-ratelimit-remaining']).toBe('148');
    expect((await authenticate(base)).status).toBe(200);
  });
});
