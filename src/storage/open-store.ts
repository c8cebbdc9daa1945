import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { createMemoryStore } from './memory/memory-store';
import { openPostgresStore } from './postgres/postgres-store';
import { connectRedis } from './redis/redis-client';
import { withRedisSharedState } from './shared-state';
import type { Store } from './store';

/**
 * The store the configuration asks for: STORE picks where the data lives, and REDIS_URL, when set,
 * moves the short-lived shared state (rate-limit counters, survey sessions) to Redis. Throws
 * DependencyUnavailableError, naming the service, when PostgreSQL or Redis cannot be reached.
 */
export async function openStore(config: Config, logger: Logger): Promise<Store> {
  const store =
    config.store === 'postgres' && config.databaseUrl !== undefined
      ? await openPostgresStore(config.databaseUrl, logger, config.dependencyTimeoutSeconds)
      : createMemoryStore();
  if (config.redisUrl === undefined) return store;
  try {
    return withRedisSharedState(store, await connectRedis(config.redisUrl, logger, config.dependencyTimeoutSeconds));
  } catch (error) {
    await store.close();
    throw error;
  }
}
