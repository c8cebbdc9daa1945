import { Client } from 'pg';
import request from 'supertest';
import { composeApp } from '../composition-root';
import { loadConfig } from '../configuration';
import { createLogger } from '../logger';
import type { RunningServer } from '../listen';
import { createMemoryStore } from '../storage/memory/memory-store';
import { MIGRATIONS } from '../storage/postgres/migrations';
import { openPostgresStore } from '../storage/postgres/postgres-store';
import { connectRedis } from '../storage/redis/redis-client';
import { withRedisSharedState } from '../storage/shared-state';
import type { Store } from '../storage/store';
import { FakeClock } from '../../test/support/fake-clock';
import { serve } from '../../test/support/http';
import { createTestSchema, describeWithPostgres, describeWithRedis, testRedisUrl, uniqueRedisPrefix, type TestSchema } from '../../test/support/services';
import { proxyForUrl, type TcpProxy } from '../../test/support/tcp-proxy';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../../test/support/dependency-timeout';

/*
 * Readiness against the shared test PostgreSQL and Redis, which this file never stops: a schema behind
 * this build's migrations (in a schema of its own), and a dependency that hangs (through a TCP proxy this
 * file freezes). The dedicated instances that are stopped and started are readiness-services.test.ts's.
 */

const NEEDED = Math.max(...MIGRATIONS.map((migration) => migration.version));
const TIMED_OUT = { status: 'unavailable', reason: 'no answer within 1 s (READINESS_TIMEOUT_SECONDS)' };

let running: RunningServer | undefined;
let store: Store | undefined;
let schema: TestSchema | undefined;
let proxy: TcpProxy | undefined;

afterEach(async () => {
  running?.server.closeAllConnections();
  await running?.close();
  proxy?.thaw();
  await store?.close();
  await proxy?.close();
  await schema?.drop();
  running = undefined;
  store = undefined;
  schema = undefined;
  proxy = undefined;
});

async function serveOn(storeInUse: Store, env: NodeJS.ProcessEnv = {}): Promise<string> {
  store = storeInUse;
  running = await serve(composeApp(loadConfig(env), { store, clock: new FakeClock(), logger: createLogger('silent') }));
  return running.url;
}

async function throughProxy(target: string): Promise<string> {
  const through = await proxyForUrl(target);
  proxy = through.proxy;
  return through.url;
}

async function inSchema(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describeWithPostgres('readiness on PostgreSQL', () => {
  test('answers 503 with the versions when the schema lacks a migration of this build, and when it has none', async () => {
    schema = await createTestSchema();
    const url = await serveOn(await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS));
    expect((await request(url).get('/readyz')).body).toEqual({ status: 'ready', checks: { store: { status: 'ready' } } });

    await inSchema(schema.url, `DELETE FROM schema_migrations WHERE version = ${NEEDED}`);
    const behind = await request(url).get('/readyz');
    expect(behind.status).toBe(503);
    expect(behind.body).toEqual({
      status: 'unavailable',
      checks: { store: { status: 'unavailable', reason: `the database schema is at version ${NEEDED - 1}; this build needs version ${NEEDED}` } },
    });

    await inSchema(schema.url, 'DROP TABLE schema_migrations');
    const none = await request(url).get('/readyz');
    expect(none.status).toBe(503);
    expect(none.body).toEqual({
      status: 'unavailable',
      checks: { store: { status: 'unavailable', reason: `the database has no schema; this build needs version ${NEEDED}` } },
    });
  });

  test('answers 503 within READINESS_TIMEOUT_SECONDS while PostgreSQL hangs, and 200 once it answers again', async () => {
    schema = await createTestSchema();
    const url = await serveOn(await openPostgresStore(await throughProxy(schema.url), createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS), { READINESS_TIMEOUT_SECONDS: '1' });
    expect((await request(url).get('/readyz')).status).toBe(200);

    proxy?.freeze();
    const frozen = await request(url).get('/readyz');
    expect(frozen.status).toBe(503);
    expect(frozen.body).toEqual({ status: 'unavailable', checks: { store: TIMED_OUT } });

    proxy?.thaw();
    expect((await request(url).get('/readyz')).status).toBe(200);
  });
});

describeWithRedis('readiness with Redis', () => {
  test('answers 503 within READINESS_TIMEOUT_SECONDS while Redis hangs, and 200 once it answers again', async () => {
    const redis = await connectRedis(await throughProxy(testRedisUrl as string), createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS);
    const url = await serveOn(withRedisSharedState(createMemoryStore(), redis, uniqueRedisPrefix()), { READINESS_TIMEOUT_SECONDS: '1' });
    expect((await request(url).get('/readyz')).body).toEqual({ status: 'ready', checks: { store: { status: 'ready' }, redis: { status: 'ready' } } });

    proxy?.freeze();
    const frozen = await request(url).get('/readyz');
    expect(frozen.status).toBe(503);
    expect(frozen.body).toEqual({ status: 'unavailable', checks: { store: { status: 'ready' }, redis: TIMED_OUT } });

    proxy?.thaw();
    // The PING sent while frozen is answered on thaw; the next probe's own PING is answered at once.
    expect((await request(url).get('/readyz')).status).toBe(200);
  });
});
