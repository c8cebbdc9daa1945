import { EventEmitter, once } from 'node:events';
import request from 'supertest';
import { loadConfig } from '../configuration';
import { ConfigError } from '../config/config-error';
import { createLogger } from '../logger';
import { readiness } from './readiness';
import { shutdownState } from './shutdown-state';
import { NotReadyError } from '../storage/dependency-error';
import { createMemoryStore } from '../storage/memory/memory-store';
import type { Store, StoreDependency } from '../storage/store';
import { buildOperationsApp } from '../../test/support/operations';

const JSON_TYPE = 'application/json; charset=utf-8';
const CHECK_FAILED = 'the check failed; the server log has the cause';

/** The in-memory store with these dependencies instead of its own. */
function storeWith(...dependencies: StoreDependency[]): Store {
  return { ...createMemoryStore(), dependencies };
}

/** A dependency whose checks the test settles; `asked` is emitted each time it is checked. */
function controlledDependency(name: string) {
  const events = new EventEmitter();
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  let calls = 0;
  const dependency: StoreDependency = {
    name,
    check: () =>
      new Promise<void>((resolve, reject) => {
        calls += 1;
        pending.push({ resolve, reject });
        events.emit('asked');
      }),
  };
  return {
    dependency,
    calls: () => calls,
    /** Resolves at the next check. */
    asked: () => once(events, 'asked'),
    pass: () => pending.splice(0).forEach(({ resolve }) => resolve()),
    fail: (error: Error) => pending.splice(0).forEach(({ reject }) => reject(error)),
  };
}

describe('GET /healthz', () => {
  test('answers 200 with {"status":"ok"}, uncached, while the process serves', async () => {
    const { app } = buildOperationsApp();
    const response = await request(app).get('/healthz');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(JSON_TYPE);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.text).toBe('{"status":"ok"}');
  });

  test('answers HEAD with the headers alone, and other methods with 405 and Allow', async () => {
    const { app } = buildOperationsApp();
    const head = await request(app).head('/healthz');
    expect(head.status).toBe(200);
    expect(head.text).toBeUndefined();
    const post = await request(app).post('/healthz');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(post.body).toEqual({ error: 'method POST is not allowed here; use GET or HEAD' });
  });

  test('stays 200 while a dependency is down: it reports the process, not the store', async () => {
    const { app } = buildOperationsApp({}, storeWith({ name: 'store', check: () => Promise.reject(new Error('down')) }));
    expect((await request(app).get('/healthz')).status).toBe(200);
    expect((await request(app).get('/readyz')).status).toBe(503);
  });
});

describe('GET /readyz', () => {
  test('answers 200 on the in-memory store, naming its one check', async () => {
    const { app } = buildOperationsApp();
    const response = await request(app).get('/readyz');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(JSON_TYPE);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.text).toBe('{"status":"ready","checks":{"store":{"status":"ready"}}}');
  });

  test('answers 503 naming the check that failed, without its cause, which goes to the log once per change', async () => {
    const redis = controlledDependency('redis');
    const { app, logs } = buildOperationsApp({}, storeWith({ name: 'store', check: () => Promise.resolve() }, redis.dependency));

    for (let probe = 0; probe < 2; probe += 1) {
      const asked = redis.asked();
      const answered = request(app).get('/readyz').then((response) => response);
      await asked;
      redis.fail(new Error('connect ECONNREFUSED 10.1.2.3:6379'));
      const response = await answered;
      expect(response.status).toBe(503);
      expect(response.headers['content-type']).toBe(JSON_TYPE);
      expect(response.body).toEqual({
        status: 'unavailable',
        checks: { store: { status: 'ready' }, redis: { status: 'unavailable', reason: CHECK_FAILED } },
      });
      expect(response.text).not.toContain('10.1.2.3');
    }
    const failures = logs.lines.filter((line) => line.msg === 'readiness check failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: 40, check: 'redis', reason: CHECK_FAILED, err: { message: 'connect ECONNREFUSED 10.1.2.3:6379' } });

    const asked = redis.asked();
    const pending = request(app).get('/readyz').then((response) => response);
    await asked;
    redis.pass();
    const back = await pending;
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ status: 'ready', checks: { store: { status: 'ready' }, redis: { status: 'ready' } } });
    expect(logs.lines.filter((line) => line.msg === 'readiness check passes again')).toEqual([
      expect.objectContaining({ level: 30, check: 'redis' }),
    ]);
  });

  test('shows why a dependency that answers is not fit to serve (NotReadyError)', async () => {
    const { app } = buildOperationsApp(
      {},
      storeWith({ name: 'store', check: () => Promise.reject(new NotReadyError('the database schema is at version 5; this build needs version 6')) }),
    );
    const response = await request(app).get('/readyz');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      status: 'unavailable',
      checks: { store: { status: 'unavailable', reason: 'the database schema is at version 5; this build needs version 6' } },
    });
  });

  test('stays 200 while only an optional dependency (a read replica) is down, showing it unavailable and optional', async () => {
    const { app } = buildOperationsApp(
      {},
      storeWith(
        { name: 'store', check: () => Promise.resolve() },
        { name: 'replica-1', optional: true, check: () => Promise.reject(new Error('connect ECONNREFUSED 10.1.2.4:5432')) },
        { name: 'replica-2', optional: true, check: () => Promise.resolve() },
      ),
    );
    const response = await request(app).get('/readyz');
    expect([response.status, response.body]).toEqual([
      200,
      {
        status: 'ready',
        checks: {
          store: { status: 'ready' },
          'replica-1': { status: 'unavailable', reason: CHECK_FAILED, optional: true },
          'replica-2': { status: 'ready', optional: true },
        },
      },
    ]);
  });

  test('answers 503 once READINESS_TIMEOUT_SECONDS have passed when a check never answers', async () => {
    const hung = controlledDependency('store');
    const { app } = buildOperationsApp({ READINESS_TIMEOUT_SECONDS: '1' }, storeWith(hung.dependency));
    const started = Date.now();
    const response = await request(app).get('/readyz');
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      status: 'unavailable',
      checks: { store: { status: 'unavailable', reason: 'no answer within 1 s (READINESS_TIMEOUT_SECONDS)' } },
    });
    hung.pass();
  });

  test('answers 503 naming the server once it shuts down, its dependencies still checked, while /healthz and the API answer as before', async () => {
    const { app, shutdown } = buildOperationsApp();
    expect((await request(app).get('/readyz')).status).toBe(200);
    shutdown.begin();
    const response = await request(app).get('/readyz');
    expect(response.status).toBe(503);
    expect(response.headers['content-type']).toBe(JSON_TYPE);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.text).toBe('{"status":"unavailable","checks":{"store":{"status":"ready"},"server":{"status":"unavailable","reason":"the server is shutting down"}}}');
    expect((await request(app).get('/healthz')).status).toBe(200);
    const auth = await request(app).post('/api/auth').type('form').send({ tool: 'dev', login: 'nobody', password: 'nothing' });
    expect(auth.status).toBe(401);
  });

  test('asks each dependency once for probes that arrive while its check is under way', async () => {
    const store = controlledDependency('store');
    const ready = readiness([store.dependency], { timeoutSeconds: 60, logger: createLogger('silent'), shutdown: shutdownState() });
    const reports = Promise.all([ready(), ready(), ready()]);
    await store.asked();
    expect(store.calls()).toBe(1);
    store.pass();
    expect((await reports).map((report) => report.status)).toEqual(['ready', 'ready', 'ready']);

    // Once answered, the next probe checks anew.
    const next = ready();
    await store.asked();
    expect(store.calls()).toBe(2);
    store.fail(new Error('gone'));
    expect(await next).toEqual({ status: 'unavailable', checks: { store: { status: 'unavailable', reason: CHECK_FAILED } } });
  });
});

describe('the probes', () => {
  test('are outside every rate-limit group and authentication', async () => {
    const { app } = buildOperationsApp({
      AUTH_RATE_LIMIT: '1',
      DATA_RATE_LIMIT: '1',
      SURVEY_RATE_LIMIT: '1',
      ADMIN_TOKEN: 'operations-admin-token-0123',
      ADMIN_RATE_LIMIT: '1',
    });
    for (let probe = 0; probe < 5; probe += 1) {
      for (const path of ['/healthz', '/readyz']) {
        const response = await request(app).get(path);
        expect(response.status).toBe(200);
        expect(response.headers['x-ratelimit-limit']).toBeUndefined();
        expect(response.headers['www-authenticate']).toBeUndefined();
      }
    }
  });

  test('stay out of the access log, and have no request id, while the other requests have both', async () => {
    const { app, logs } = buildOperationsApp();
    const health = await request(app).get('/healthz');
    const ready = await request(app).get('/readyz');
    const missing = await request(app).get('/nowhere');
    expect(health.headers['x-request-id']).toBeUndefined();
    expect(ready.headers['x-request-id']).toBeUndefined();
    // The access line of a request is written when its answer ends: the probes' would have come first.
    const accessLine = await logs.waitFor('request completed');
    expect(accessLine.req).toMatchObject({ url: '/nowhere', id: missing.headers['x-request-id'] });
    expect(logs.lines.filter((line) => line.msg === 'request completed')).toHaveLength(1);
  });
});

describe('SHUTDOWN_DRAIN_SECONDS', () => {
  test('is 0 unless set, a whole number of seconds up to an hour', () => {
    expect(loadConfig({}).operations.shutdownDrainSeconds).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '3600' }).operations.shutdownDrainSeconds).toBe(3600);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '3601' })).toThrow(
      new ConfigError('invalid configuration: SHUTDOWN_DRAIN_SECONDS="3601": must be a whole number from 0 to 3600'),
    );
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(
      new ConfigError('invalid configuration: SHUTDOWN_DRAIN_SECONDS="-1": must be a whole number from 0 to 3600'),
    );
  });
});

describe('READINESS_TIMEOUT_SECONDS', () => {
  test('is 2 s unless set, a whole number of seconds from 1 to 60', () => {
    expect(loadConfig({}).operations.readinessTimeoutSeconds).toBe(2);
    expect(loadConfig({ READINESS_TIMEOUT_SECONDS: '60' }).operations.readinessTimeoutSeconds).toBe(60);
    expect(() => loadConfig({ READINESS_TIMEOUT_SECONDS: '0' })).toThrow(
      new ConfigError('invalid configuration: READINESS_TIMEOUT_SECONDS="0": must be a whole number from 1 to 60'),
    );
  });
});
