import type { Logger } from 'pino';
import { DEFAULT_DEPENDENCY_TIMEOUT_SECONDS } from '../../config/config';
import { DependencyUnavailableError } from '../dependency-error';
import type { Store } from '../store';
import { postgresAccounts } from './accounts';
import { postgresCalls } from './calls';
import { postgresCredentials } from './credentials';
import { migrate } from './migrate';
import { postgresPhones } from './phones';
import { createPool } from './pool';
import { postgresRateLimits } from './rate-limits';
import { postgresSurveySessions } from './survey-sessions';

/**
 * The durable store: everything in PostgreSQL, shared by every instance on the same database. Brings the
 * schema up to date before it resolves; throws DependencyUnavailableError when the database cannot be
 * reached or migrated.
 */
export async function openPostgresStore(connectionString: string, logger: Logger, timeoutSeconds = DEFAULT_DEPENDENCY_TIMEOUT_SECONDS): Promise<Store> {
  const pool = createPool(connectionString, logger, timeoutSeconds * 1000);
  try {
    await migrate(pool, logger);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DependencyUnavailableError('PostgreSQL (DATABASE_URL)', error);
  }
  return {
    accounts: postgresAccounts(pool),
    phones: postgresPhones(pool),
    credentials: postgresCredentials(pool),
    calls: postgresCalls(pool),
    rateLimits: postgresRateLimits(pool),
    surveySessions: postgresSurveySessions(pool),
    close: () => pool.end(),
  };
}
