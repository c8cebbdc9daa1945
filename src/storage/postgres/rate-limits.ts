import type { Pool } from 'pg';
import type { RateLimitCounters } from '../store';

/**
 * Counters in PostgreSQL, for deployments without Redis: one row per key and window, counted by an
 * upsert, which the database serialises per row, so concurrent hits never share a count.
 */
export function postgresRateLimits(pool: Pool): RateLimitCounters {
  let latestWindowStart = Number.NEGATIVE_INFINITY;

  return {
    hit: async (key, windowStart, windowMs) => {
      if (windowStart > latestWindowStart) {
        // Once per window and instance: rows of ended windows are never read again.
        latestWindowStart = windowStart;
        await pool.query('DELETE FROM rate_limit_windows WHERE window_end <= $1', [windowStart]);
      }
      // Named, so that each connection parses and plans it once: every request runs it.
      const { rows } = await pool.query<{ count: number }>({
        name: 'hit-rate-limit',
        text: `INSERT INTO rate_limit_windows (key, window_start, window_end, count) VALUES ($1, $2, $3, 1)
               ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_windows.count + 1 RETURNING count`,
        values: [key, windowStart, windowStart + windowMs],
      });
      return (rows[0] as { count: number }).count;
    },
    decrement: async (key, windowStart) => {
      await pool.query('UPDATE rate_limit_windows SET count = count - 1 WHERE key = $1 AND window_start = $2 AND count > 0', [
        key,
        windowStart,
      ]);
    },
    reset: async (key) => {
      await pool.query('DELETE FROM rate_limit_windows WHERE key = $1', [key]);
    },
  };
}
