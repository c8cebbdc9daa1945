import { Pool } from 'pg';
import type { Logger } from 'pino';

/**
 * Bounds on every wait, so a lost database turns requests into errors within seconds instead of
 * hanging them; the pool opens fresh connections once the database is back.
 */
const CONNECT_TIMEOUT_MS = 5_000;
const QUERY_TIMEOUT_MS = 30_000;
const MAX_CONNECTIONS = 10;

export function createPool(connectionString: string, logger: Logger): Pool {
  const pool = new Pool({
    connectionString,
    max: MAX_CONNECTIONS,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
  });
  // An idle connection that the server drops must not crash the process: the pool discards it.
  pool.on('error', (error) => logger.warn({ err: error }, 'an idle PostgreSQL connection failed'));
  return pool;
}
