import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/logger';
import { openPostgresStore } from '../../src/storage/postgres/postgres-store';
import { connectRedis } from '../../src/storage/redis/redis-client';
import { withRedisSharedState } from '../../src/storage/shared-state';
import type { Store } from '../../src/storage/store';
import type { FakeClock } from './fake-clock';
import { serve } from './http';
import { testRedisUrl } from './services';

export interface Instance {
  readonly url: string;
  readonly store: Store;
  close(): Promise<void>;
}

/**
 * One server as a second instance behind a load balancer would be: its own pool, Redis client and
 * app, on the same PostgreSQL schema and the same Redis key prefix as the others.
 */
export async function startInstance(databaseUrl: string, redisPrefix: string, clock: FakeClock): Promise<Instance> {
  const logger = createLogger('silent');
  const store = withRedisSharedState(
    await openPostgresStore(databaseUrl, logger),
    await connectRedis(testRedisUrl as string, logger),
    redisPrefix,
  );
  const running = await serve(createApp({ config: loadConfig({}), store, clock, logger }));
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
