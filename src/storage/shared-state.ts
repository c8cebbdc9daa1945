import type { Redis } from 'ioredis';
import { markingFailures } from './dependency-error';
import { redisRateLimits } from './redis/rate-limits';
import { redisSurveySessions } from './redis/survey-sessions';
import type { Store } from './store';

/** Keys of this server in a Redis that may hold other things. */
export const REDIS_KEY_PREFIX = 'ivr-reporting:';

/** The StoreDependency name of Redis, in GET /readyz and the metrics. */
const REDIS = 'redis';

/**
 * The store with its short-lived, shared state (rate-limit counters and survey sessions) in Redis and
 * everything else where it was. Closing it closes both.
 */
export function withRedisSharedState(store: Store, redis: Redis, prefix = REDIS_KEY_PREFIX): Store {
  return {
    ...store,
    rateLimits: markingFailures(REDIS, redisRateLimits(redis, prefix)),
    surveySessions: markingFailures(REDIS, redisSurveySessions(redis, prefix)),
    // PING: answered at once while connected; refused at once while the client reconnects (no offline queue).
    dependencies: [...store.dependencies, { name: REDIS, check: () => redis.ping().then(() => undefined) }],
    close: async () => {
      await store.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
