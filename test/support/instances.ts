import { composeApp } from '../../src/composition-root';
import { loadConfig } from '../../src/configuration';
import { createLogger } from '../../src/logger';
import { openPostgresStore } from '../../src/storage/postgres/postgres-store';
import { connectRedis } from '../../src/storage/redis/redis-client';
import { withRedisSharedState } from '../../src/storage/shared-state';
import type { Store } from '../../src/storage/store';
import type { FakeClock } from './fake-clock';
import { serve } from './http';
import { testRedisUrl } from './services';
import { DEPENDENCY_TIMEOUT_SECONDS } from './dependency-timeout';

export interface Instance {
  readonly url: string;
  readonly store: Store;
  close(): Promise<void>;
}

/**
 * One server as a second instance behind a load balancer would be: its own pool, Redis client and
 * app, on the same PostgreSQL schema and the same Redis key prefix as the others.
 */
export async function startInstance(databaseUrl: string, redisPrefix: string, clock: FakeClock, env: NodeJS.ProcessEnv = {}): Promise<Instance> {
  const logger = createLogger('silent');
  const store = withRedisSharedState(
    await openPostgresStore(databaseUrl, logger, DEPENDENCY_TIMEOUT_SECONDS),
    await connectRedis(testRedisUrl as string, logger, DEPENDENCY_TIMEOUT_SECONDS),
    redisPrefix,
  );
  const running = await serve(composeApp(loadConfig(env), { store, clock, logger }));
  return {
    url: running.url,
    store,
    close: async () => {
      running.server.closeAllConnections();
      await running.close();
      await store.close();
    },
  };
}
