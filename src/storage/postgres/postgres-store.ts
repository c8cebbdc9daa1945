import type { Logger } from 'pino';
import { DependencyUnavailableError, markingFailures } from '../dependency-error';
import type { Store } from '../store';
import { postgresAccounts } from './accounts';
import { postgresCalls } from './calls';
import { postgresCredentials } from './credentials';
import { checkSchema, migrate } from './migrate';
import { postgresPhones } from './phones';
import { createPool } from './pool';
import { openReplicaSet } from './replicas';
import { readsOn } from './row-reads';
import { checkStatementBound, type DatabasePooler } from './pooler';
import { postgresRateLimits } from './rate-limits';
import { postgresScenarios } from './scenarios';
import { postgresSurveySessions } from './survey-sessions';

/** The StoreDependency name of the database, in GET /readyz and the metrics. */
const STORE = 'store';

export interface PostgresStoreOptions {
  /** DATABASE_READ_URL: streaming replicas of the database, which answer the reads of reports. */
  readonly replicaUrls?: readonly string[];
  /** DATABASE_READ_POOLER: what each of them leads to, as `pooler` says of DATABASE_URL. */
  readonly replicaPooler?: DatabasePooler;
}

/**
 * The durable store: everything in PostgreSQL, shared by every instance on the same database; with
 * replicas, the reads of reports go to them (replicas.ts). Brings the schema up to date before it
 * resolves; throws DependencyUnavailableError when the database cannot be reached or migrated. A replica
 * that cannot be reached does not stop the start: the primary answers its reads. `pooler` says what
 * DATABASE_URL leads to (DATABASE_POOLER), `replicaPooler` what the replicas' URLs do.
 */
export async function openPostgresStore(
  connectionString: string,
  logger: Logger,
  timeoutSeconds: number,
  pooler: DatabasePooler = 'none',
  { replicaUrls = [], replicaPooler = 'none' }: PostgresStoreOptions = {},
): Promise<Store> {
  const pool = createPool(connectionString, logger, timeoutSeconds * 1000, pooler);
  try {
    await migrate(pool, logger);
    // The role's setting is in the catalog, which the replicas copy: the primary's answer holds for them.
    if (pooler === 'transaction' || (replicaUrls.length > 0 && replicaPooler === 'transaction')) await checkStatementBound(pool, logger, timeoutSeconds * 1000);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DependencyUnavailableError('PostgreSQL (DATABASE_URL)', error);
  }
  const replicas = replicaUrls.length === 0 ? undefined : openReplicaSet(replicaUrls, readsOn(pool), { logger, timeoutMs: timeoutSeconds * 1000, pooler: replicaPooler });
  return {
    accounts: markingFailures(STORE, postgresAccounts(pool)),
    phones: markingFailures(STORE, postgresPhones(pool)),
    credentials: markingFailures(STORE, postgresCredentials(pool)),
    calls: markingFailures(STORE, postgresCalls(pool)),
    rateLimits: markingFailures(STORE, postgresRateLimits(pool)),
    surveySessions: markingFailures(STORE, postgresSurveySessions(pool)),
    scenarios: markingFailures(STORE, postgresScenarios(pool)),
    ...(replicas === undefined ? {} : { replicas: { ...replicas.reads, readingAfter: (seen) => markingFailures(STORE, replicas.reads.readingAfter(seen)) } }),
    dependencies: [{ name: STORE, check: () => checkSchema(pool) }, ...(replicas?.dependencies ?? [])],
    close: async () => {
      await replicas?.close();
      await pool.end();
    },
  };
}
