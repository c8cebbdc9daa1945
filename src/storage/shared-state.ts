import type { Redis } from 'ioredis';
import { redisRateLimits } from './redis/rate-limits';
import { redisSurveySessions } from './redis/survey-sessions';
import type { Store } from './store';

/** Keys of this server in a Redis that may hold other things. */
export const REDIS_KEY_PREFIX = 'ivr-reporting:';

/**
 * The store with its short-lived, shared state (rate-limit counters and survey sessions) in Redis and
 * everything else where it was. Closing it closes both.
 */
export function withRedisSharedState(store: Store, redis: Redis, prefix = REDIS_KEY_PREFIX): Store {
  return {
    ...store,
    rateLimits: redisRateLimits(redis, prefix),
    surveySessions: redisSurveySessions(redis, prefix),
    close: async () => {
      await store.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
