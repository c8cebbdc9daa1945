import type { Redis } from 'ioredis';
import type { SurveySessionRepository } from '../store';

/**
 * Stores a session and keeps the cap, atomically: the session's string expires with it (PX), and a
 * sorted set of ids by expiry tells which sessions are the longest idle. Sessions expired by the
 * caller's clock are deleted with their members (a bounded number per save, so no call waits on a
 * mass expiry; Redis expires the rest by itself); beyond the cap the earliest to expire are popped and
 * deleted. KEYS: session key, index key. ARGV: text, time to live (ms), expiresAt, now, cap, id, key prefix.
 */
const SAVE = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[6])
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[4], 'LIMIT', 0, 1000)
for i = 1, #expired do
  redis.call('DEL', ARGV[7] .. expired[i])
  redis.call('ZREM', KEYS[2], expired[i])
end
local excess = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
if excess > 0 then
  local oldest = redis.call('ZPOPMIN', KEYS[2], excess)
  for i = 1, #oldest, 2 do redis.call('DEL', ARGV[7] .. oldest[i]) end
end
return 0`;

/**
 * Sessions as Redis strings that expire with the session, so Redis alone forgets abandoned surveys. The
 * expiry is relative (PX), measured from the caller's `now`, whose clock may not be Redis's.
 */
export function redisSurveySessions(redis: Redis, prefix: string): SurveySessionRepository {
  const keyPrefix = `${prefix}survey:`;
  const indexKey = `${prefix}survey-sessions-by-expiry`;
  return {
    get: async (id, now) => {
      const text = await redis.get(`${keyPrefix}${id}`);
      if (text === null) return undefined;
      const { stateJson, expiresAt } = JSON.parse(text) as { stateJson: string; expiresAt: number };
      // Redis expires by its own clock; the caller's `now` decides, as with every other store.
      return expiresAt > now ? { id, stateJson, expiresAt } : undefined;
    },
    save: async (session, now, maxSessions) => {
      const key = `${keyPrefix}${session.id}`;
      if (session.expiresAt <= now) {
        await redis.multi().del(key).zrem(indexKey, session.id).exec();
        return;
      }
      const text = JSON.stringify({ stateJson: session.stateJson, expiresAt: session.expiresAt });
      await redis.eval(SAVE, 2, key, indexKey, text, session.expiresAt - now, session.expiresAt, now, maxSessions, session.id, keyPrefix);
    },
    // The index holds every stored session by expiry: those expiring after `now` are live.
    live: (now) => redis.zcount(indexKey, `(${now}`, '+inf'),
  };
}
