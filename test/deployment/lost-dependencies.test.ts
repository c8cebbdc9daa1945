import { once } from 'node:events';
import request from 'supertest';
import { composeApp } from '../../src/composition-root';
import { loadConfig } from '../../src/configuration';
import { createLogger } from '../../src/logger';
import type { RunningServer } from '../../src/listen';
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
import { faultBody, post, svcEval } from '../survey-clients/support';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../support/dependency-timeout';

const UNKNOWN_ERROR = { error: 'unknown error' };
const ADMIN_TOKEN = 'test-admin-token-0123456789';
const DATABASE_UNAVAILABLE = 'the database is unavailable; retry later';
const REDIS_UNAVAILABLE = 'Redis is unavailable; retry later';

/**
 * The reporting API keeps 500 `unknown error` for an outage (docs/specification.md §2.1), with Retry-After
 * to say it is worth retrying; the rest of the server answers 503 naming the dependency.
 */
function expectOutageOnReportingApi(response: request.Response): void {
  expect({ status: response.status, retryAfter: response.headers['retry-after'], code: response.headers['x-error-code'], body: response.body }).toEqual({
    status: 500,
    retryAfter: '5',
    code: 'IVR_DEPENDENCY_UNAVAILABLE',
    body: UNKNOWN_ERROR,
  });
}

function expectUnavailable(response: request.Response, error: string): void {
  expect({ status: response.status, retryAfter: response.headers['retry-after'], code: response.headers['x-error-code'], body: response.body }).toEqual({
    status: 503,
    retryAfter: '5',
    code: 'IVR_DEPENDENCY_UNAVAILABLE',
    body: { error },
  });
}

/** svcEval's answer while its sessions' store is away: a soap:Server fault naming it, which survey systems store as SOAPFault. */
async function expectSurveyFault(base: string, faultstring: string): Promise<void> {
  const answer = await post(base, svcEval(['Do you agree?'], ['yes']));
  expect({ status: answer.status, retryAfter: answer.headers['retry-after'], code: answer.headers['x-error-code'], body: answer.text }).toEqual({
    status: 500,
    retryAfter: '5',
    code: 'IVR_DEPENDENCY_UNAVAILABLE',
    body: faultBody('soap:Server', faultstring),
  });
}
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
  running = await serve(composeApp(loadConfig({ ADMIN_TOKEN }), { store, clock: new FakeClock(), logger: createLogger('silent') }));
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
  test('answers at once that it is unavailable (specification.md §2.1\'s 500 on /api), then serves again by itself when the database is back', async () => {
    schema = await createTestSchema();
    const base = await serveOn(await openPostgresStore(await throughProxy(schema.url), createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS));
    expect((await authenticate(base)).status).toBe(200);

    await proxy.cut();
    expectOutageOnReportingApi(await authenticate(base));
    expectUnavailable(await request(base).get('/admin/accounts').auth(ADMIN_TOKEN, { type: 'bearer' }), DATABASE_UNAVAILABLE);
    expectUnavailable(await request(base).post('/survey/rest').field('question_texts[]', 'Do you agree?').field('answers[]', 'yes'), DATABASE_UNAVAILABLE);
    await expectSurveyFault(base, DATABASE_UNAVAILABLE);

    // The pool dropped the connections it lost; the next request opens a fresh one.
    await proxy.restore();
    expect((await authenticate(base)).status).toBe(200);
  });
});

// DEPENDENCY_TIMEOUT_SECONDS=1: each wait for a frozen dependency ends after a second.
describeWithPostgres('PostgreSQL frozen (connections open, nothing answered) while the server runs', () => {
  test('answers that it is unavailable once the dependency timeout has passed, then serves again when it answers', async () => {
    schema = await createTestSchema();
    const base = await serveOn(await openPostgresStore(await throughProxy(schema.url), createLogger('silent'), 1));
    expect((await authenticate(base)).status).toBe(200);

    proxy.freeze();
    expectOutageOnReportingApi(await authenticate(base));
    expectUnavailable(await request(base).get('/admin/accounts').auth(ADMIN_TOKEN, { type: 'bearer' }), DATABASE_UNAVAILABLE);

    proxy.thaw();
    expect((await authenticate(base)).status).toBe(200);
  });
});

describeWithRedis('Redis frozen (connection open, nothing answered) while the server runs', () => {
  test('refuses authentication as unavailable once the dependency timeout has passed, then counts again when it answers', async () => {
    const redis = await connectRedis(await throughProxy(testRedisUrl as string), createLogger('silent'), 1);
    const base = await serveOn(withRedisSharedState(createMemoryStore(), redis, uniqueRedisPrefix()));
    expect((await authenticate(base)).headers['x-ratelimit-remaining']).toBe('14');

    proxy.freeze();
    expectOutageOnReportingApi(await authenticate(base));

    // The hit sent while Redis was frozen reaches it on thaw: refused or not, it was an attempt.
    proxy.thaw();
    const counted = await authenticate(base);
    expect(counted.status).toBe(200);
    expect(counted.headers['x-ratelimit-remaining']).toBe('12');
  });
});

describeWithRedis('Redis lost while the server runs', () => {
  test('refuses authentication and survey calls as unavailable, lets data requests through uncounted, and counts again when Redis is back', async () => {
    const redis = await connectRedis(await throughProxy(testRedisUrl as string), createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS);
    const base = await serveOn(withRedisSharedState(createMemoryStore(), redis, uniqueRedisPrefix()));
    const { login, password } = (await authenticate(base)).body as { login: string; password: string };
    expect((await request(base).get(EVENTS).auth(login, password)).headers['x-ratelimit-remaining']).toBe('149');

    await proxy.cut();
    expectOutageOnReportingApi(await authenticate(base));
    await expectSurveyFault(base, REDIS_UNAVAILABLE);
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
