import type { Logger } from 'pino';
import { DependencyUnavailableError, markingFailures } from '../dependency-error';
import type { Store } from '../store';
import { postgresAccounts } from './accounts';
import { postgresCalls } from './calls';
import { postgresCredentials } from './credentials';
import { checkSchema, migrate } from './migrate';
import { postgresPhones } from './phones';
import { createPool } from './pool';
import { checkStatementBound, type DatabasePooler } from './pooler';
import { postgresRateLimits } from './rate-limits';
import { postgresScenarios } from './scenarios';
import { postgresSurveySessions } from './survey-sessions';

/** The StoreDependency name of the database, in GET /readyz and the metrics. */
const STORE = 'store';

/**
 * The durable store: everything in PostgreSQL, shared by every instance on the same database. Brings the
 * schema up to date before it resolves; throws DependencyUnavailableError when the database cannot be
 * reached or migrated. `pooler` says what DATABASE_URL leads to (DATABASE_POOLER).
 */
export async function openPostgresStore(connectionString: string, logger: Logger, timeoutSeconds: number, pooler: DatabasePooler = 'none'): Promise<Store> {
  const pool = createPool(connectionString, logger, timeoutSeconds * 1000, pooler);
  try {
    await migrate(pool, logger);
    if (pooler === 'transaction') await checkStatementBound(pool, logger, timeoutSeconds * 1000);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DependencyUnavailableError('PostgreSQL (DATABASE_URL)', error);
  }
  return {
    accounts: markingFailures(STORE, postgresAccounts(pool)),
    phones: markingFailures(STORE, postgresPhones(pool)),
    credentials: markingFailures(STORE, postgresCredentials(pool)),
    calls: markingFailures(STORE, postgresCalls(pool)),
    rateLimits: markingFailures(STORE, postgresRateLimits(pool)),
    surveySessions: markingFailures(STORE, postgresSurveySessions(pool)),
    scenarios: markingFailures(STORE, postgresScenarios(pool)),
    dependencies: [{ name: STORE, check: () => checkSchema(pool) }],
    close: () => pool.end(),
  };
}
