import { Pool, type PoolClient, type QueryConfig, type QueryResult, type QueryResultRow } from 'pg';
import type { Logger } from 'pino';
import { poolerOptions, type DatabasePooler } from './pooler';

const MAX_CONNECTIONS = 10;

/**
 * Migrations (which may wait for another instance's) and the rollup rebuild of a moved number or a new
 * time zone read a whole history: long by nature, they get a bound of their own instead of the request's.
 */
const LONG_OPERATION_MS = 600_000;

/**
 * Every wait on the database is bounded by DEPENDENCY_TIMEOUT_SECONDS: taking a connection from the pool
 * or opening one, and each query, on the server (statement_timeout; behind a transaction pooler, the
 * role's, see pooler.ts) and in this process (query_timeout, which also covers a server that stopped
 * answering altogether). Past it the request fails with a 500; the pool opens fresh connections when the
 * database answers again.
 */
export function createPool(connectionString: string, logger: Logger, timeoutMs: number, pooler: DatabasePooler = 'none'): Pool {
  const pool = new Pool({
    connectionString,
    max: MAX_CONNECTIONS,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    ...poolerOptions(pooler, timeoutMs),
  });
  // An idle connection that the server drops must not crash the process: the pool discards it.
  pool.on('error', (error) => logger.warn({ err: error }, 'an idle PostgreSQL connection failed'));
  return pool;
}

/** Lifts the request bound for the rest of this transaction, for the long operations above. */
export async function allowLongStatements(client: PoolClient): Promise<void> {
  await client.query(`SET LOCAL statement_timeout = ${LONG_OPERATION_MS}`);
}

/**
 * A query of a long operation, inside a transaction that called allowLongStatements. pg reads a
 * query's own query_timeout before the pool's, though @types/pg does not declare it.
 */
export function longQuery<Row extends QueryResultRow>(client: PoolClient, text: string, values: unknown[] = []): Promise<QueryResult<Row>> {
  const query: QueryConfig & { query_timeout: number } = { text, values, query_timeout: LONG_OPERATION_MS };
  return client.query<Row>(query);
}
