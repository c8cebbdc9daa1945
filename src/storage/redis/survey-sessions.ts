import type { Redis } from 'ioredis';
import type { SurveySessionRepository } from '../store';

/**
 * Sessions as Redis strings that expire with the session, so Redis alone forgets abandoned surveys. The
 * expiry is relative (PX), measured from the caller's `now`, whose clock may not be Redis's.
 */
export function redisSurveySessions(redis: Redis, prefix: string): SurveySessionRepository {
  const sessionKey = (id: string) => `${prefix}survey:${id}`;
  return {
    get: async (id, now) => {
      const text = await redis.get(sessionKey(id));
      if (text === null) return undefined;
      const { stateJson, expiresAt } = JSON.parse(text) as { stateJson: string; expiresAt: number };
      // Redis expires by its own clock; the caller's `now` decides, as with every other store.
      return expiresAt > now ? { id, stateJson, expiresAt } : undefined;
    },
    save: async (session, now) => {
      if (session.expiresAt <= now) {
        await redis.del(sessionKey(session.id));
        return;
      }
      const text = JSON.stringify({ stateJson: session.stateJson, expiresAt: session.expiresAt });
      await redis.set(sessionKey(session.id), text, 'PX', session.expiresAt - now);
    },
  };
}
