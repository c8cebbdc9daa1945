import type { Redis } from 'ioredis';
import type { RateLimitCounters } from '../store';

/**
 * One key per counted key and window (the aligned window start is part of the name), counted and given
 * an expiry in one atomic script, so every instance on the same Redis shares exact counts and Redis
 * forgets ended windows by itself. The expiry is one window length after the first hit, which is never
 * before the window ends: relative to Redis's clock, because the server's clock may be a test's.
 */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

const DECREMENT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

const SCAN_BATCH = 100;

/** Escapes the characters that SCAN's MATCH reads as a pattern. */
const literalPattern = (text: string) => text.replace(/[*?[\]\\]/g, (character) => `\\${character}`);

export function redisRateLimits(redis: Redis, prefix: string): RateLimitCounters {
  const windowKey = (key: string, windowStart: number) => `${prefix}rate:${key}:${windowStart}`;
  return {
    hit: async (key, windowStart, windowMs) =>
      Number(await redis.eval(HIT, 1, windowKey(key, windowStart), String(windowMs))),
    decrement: async (key, windowStart) => {
      await redis.eval(DECREMENT, 1, windowKey(key, windowStart));
    },
    // Rare (nothing in the server calls it on a request path), so a scan for the key's windows is fine.
    reset: async (key) => {
      const pattern = `${literalPattern(`${prefix}rate:${key}:`)}*`;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_BATCH);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    },
  };
}
