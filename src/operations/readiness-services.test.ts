import type { Redis } from 'ioredis';
import request from 'supertest';
import { composeApp } from '../composition-root';
import { loadConfig } from '../configuration';
import { createLogger } from '../logger';
import { createAppMetrics, METRIC_NAMES, type AppMetrics } from './app-metrics';
import type { RunningServer } from '../listen';
import { openPostgresStore } from '../storage/postgres/postgres-store';
import { connectRedis } from '../storage/redis/redis-client';
import { withRedisSharedState } from '../storage/shared-state';
import type { Store } from '../storage/store';
import { FakeClock } from '../../test/support/fake-clock';
import { serve } from '../../test/support/http';
import { addAccount } from '../../test/support/test-app';
import {
  createDedicatedPostgres,
  createDedicatedRedis,
  describeWithServiceBinaries,
  requireServiceBinaries,
  type DedicatedService,
} from '../../test/support/dedicated-services';
import { valueOf } from '../../test/support/operations';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../../test/support/dependency-timeout';

const READY = { status: 'ready', checks: { store: { status: 'ready' }, redis: { status: 'ready' } } };
const CHECK_FAILED = { status: 'unavailable', reason: 'the check failed; the server log has the cause' };

/**
 * The client's next `name` event. Not events.once, which rejects on the 'error' events the client emits
 * for each reconnection refused while Redis is down: how many come depends on the machine's load.
 */
const nextEvent = (redis: Redis, name: 'close' | 'ready') => new Promise<void>((resolve) => redis.once(name, () => resolve()));

/*
 * The server on a PostgreSQL cluster and a Redis server of this suite's own, which it stops and starts:
 * GET /readyz follows them, 503 naming the one that is down, 200 once it is back, and the request that
 * needs the one that is down counts against it in the metrics. Every wait is on an event: pg_ctl's exit,
 * redis-server's exit or its "ready" line, and the Redis client's own close and ready events.
 */
describeWithServiceBinaries('readiness with PostgreSQL and Redis stopped and started', () => {
  let postgres: DedicatedService | undefined;
  let redisServer: DedicatedService | undefined;
  let redis: Redis;
  let store: Store | undefined;
  let running: RunningServer | undefined;
  let metrics: AppMetrics;

  beforeAll(async () => {
    const binaries = requireServiceBinaries();
    [postgres, redisServer] = await Promise.all([createDedicatedPostgres(binaries.postgresBin), createDedicatedRedis(binaries.redisServer)]);
    await Promise.all([postgres.start(), redisServer.start()]);
    const logger = createLogger('silent');
    redis = await connectRedis(redisServer.url, logger, DEPENDENCY_TIMEOUT_SECONDS);
    store = withRedisSharedState(await openPostgresStore(postgres.url, logger, DEPENDENCY_TIMEOUT_SECONDS), redis);
    await addAccount(store);
    metrics = createAppMetrics();
    running = await serve(composeApp(loadConfig({}), { store, clock: new FakeClock(), logger, metrics }));
  });

  afterAll(async () => {
    running?.server.closeAllConnections();
    await running?.close();
    await store?.close();
    await Promise.all([postgres?.destroy(), redisServer?.destroy()]);
  });

  const readyz = () => request((running as RunningServer).url).get('/readyz');
  const login = () =>
    request((running as RunningServer).url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });
  const errorsOf = (dependency: string) => valueOf(metrics, METRIC_NAMES.dependencyErrors, { dependency });

  test('answers 200 while both answer', async () => {
    const response = await readyz();
    expect(response.status).toBe(200);
    expect(response.body).toEqual(READY);
  });

  test('answers 503 naming the store while PostgreSQL is stopped, and 200 once it is started again', async () => {
    await postgres?.stop();
    const down = await readyz();
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'unavailable', checks: { store: CHECK_FAILED, redis: { status: 'ready' } } });
    expect((await login()).status).toBe(500);
    expect(await errorsOf('store')).toBeGreaterThanOrEqual(1);

    await postgres?.start();
    const back = await readyz();
    expect(back.status).toBe(200);
    expect(back.body).toEqual(READY);
    expect((await login()).status).toBe(200);
  });

  test('answers 503 naming Redis while it is stopped, and 200 once it is started and the client has reconnected', async () => {
    const closed = nextEvent(redis, 'close');
    await redisServer?.stop();
    await closed;
    const down = await readyz();
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'unavailable', checks: { store: { status: 'ready' }, redis: CHECK_FAILED } });
    // The authentication limit group counts in Redis and fails closed.
    expect((await login()).status).toBe(500);
    expect(await errorsOf('redis')).toBe(1);

    const reconnected = nextEvent(redis, 'ready');
    await redisServer?.start();
    await reconnected;
    const back = await readyz();
    expect(back.status).toBe(200);
    expect(back.body).toEqual(READY);
    expect((await login()).status).toBe(200);
  });
});
