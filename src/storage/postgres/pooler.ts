import { Client, type ClientConfig, type Pool, type PoolConfig } from 'pg';
import type { Logger } from 'pino';
import type { StorageSettings } from '../settings';

export type DatabasePooler = StorageSettings['databasePooler'];

/** A query's config with its statement name dropped; a query given as text has none. */
const unnamed = (config: unknown): unknown => (typeof config === 'object' && config !== null && 'name' in config ? { ...config, name: undefined } : config);

/**
 * pg's Client with every statement unnamed. pg parses a named statement once per connection and then only
 * binds it; behind a transaction pooler the connection's next transaction may run on another server, which
 * does not have it ("prepared statement does not exist") or has one of that name from another client
 * ("already exists"). PgBouncer before 1.21 (Debian bookworm has 1.18) does not track them; the unnamed
 * statement lives within one Parse/Bind/Execute/Sync, which the pooler never splits.
 */
class UnnamedStatementClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((config: unknown, ...rest: unknown[]) => query(unnamed(config), ...rest)) as Client['query'];
  }
}

/**
 * What the pool is given for each pooler, decided once at start. Without one, the statement bound goes to
 * PostgreSQL as a startup parameter and statements are named (parsed and planned once per connection).
 * Behind a transaction pooler neither can be: PgBouncer refuses the startup parameter (it would apply to a
 * server connection that other clients share), and names do not follow the transaction to its server.
 */
export function poolerOptions(pooler: DatabasePooler, timeoutMs: number): Pick<PoolConfig, 'statement_timeout' | 'Client'> {
  return pooler === 'transaction' ? { Client: UnnamedStatementClient } : { statement_timeout: timeoutMs };
}

/**
 * Behind a transaction pooler, what stops a statement on the server (one whose client gave up after
 * DEPENDENCY_TIMEOUT_SECONDS, say, still holding its locks) is the role's or the database's
 * statement_timeout, which the operator sets (docs/deployment.md): warns when it is missing or longer.
 */
export async function checkStatementBound(pool: Pool, logger: Logger, timeoutMs: number): Promise<void> {
  const { rows } = await pool.query<{ setting: string }>(`SELECT setting FROM pg_settings WHERE name = 'statement_timeout'`);
  const statementTimeoutMs = Number(rows[0]?.setting);
  if (statementTimeoutMs > 0 && statementTimeoutMs <= timeoutMs) return;
  logger.warn(
    { statementTimeoutMs, dependencyTimeoutMs: timeoutMs },
    'behind a transaction pooler, PostgreSQL bounds statements only by the statement_timeout of the role or database, which is not set within DEPENDENCY_TIMEOUT_SECONDS',
  );
}
