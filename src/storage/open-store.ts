import type { Logger } from 'pino';
import { createMemoryStore } from './memory/memory-store';
import { openPostgresStore } from './postgres/postgres-store';
import { connectRedis } from './redis/redis-client';
import type { StorageSettings } from './settings';
import { withRedisSharedState } from './shared-state';
import type { Store } from './store';

/**
 * The store the configuration asks for: STORE picks where the data lives (DATABASE_READ_URL adds
 * replicas that answer the reads of reports), and REDIS_URL, when set, moves the short-lived shared
 * state (rate-limit counters, survey sessions) to Redis. Throws DependencyUnavailableError, naming the
 * service, when PostgreSQL or Redis cannot be reached.
 */
export async function openStore(settings: StorageSettings, logger: Logger): Promise<Store> {
  const store =
    settings.store === 'postgres' && settings.databaseUrl !== undefined
      ? await openPostgresStore(settings.databaseUrl, logger, settings.dependencyTimeoutSeconds, settings.databasePooler, {
          replicaUrls: settings.databaseReadUrls,
          replicaPooler: settings.databaseReadPooler,
        })
      : createMemoryStore();
  if (settings.redisUrl === undefined) return store;
  try {
    return withRedisSharedState(store, await connectRedis(settings.redisUrl, logger, settings.dependencyTimeoutSeconds));
  } catch (error) {
    await store.close();
    throw error;
  }
}
