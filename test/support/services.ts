import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DatabasePooler } from '../../src/storage/postgres/pooler';
import { DEPENDENCY_TIMEOUT_SECONDS } from './dependency-timeout';
import { deploymentDocAllowed, serviceUrl } from './service-urls';

/**
 * The throwaway PostgreSQL and Redis that .ci/run starts (TEST_DATABASE_URL, TEST_REDIS_URL). Without
 * them the suites that need them are skipped; the global set-up says so once, and fails the run under
 * CI=true, where the real path must be proven.
 */
export const testDatabaseUrl = serviceUrl(process.env, 'TEST_DATABASE_URL');
export const testRedisUrl = serviceUrl(process.env, 'TEST_REDIS_URL');
/** A streaming replica of TEST_DATABASE_URL: what is written there arrives here, a little later. */
export const testReplicaUrl = serviceUrl(process.env, 'TEST_DATABASE_REPLICA_URL');
/** PgBouncer in transaction mode in front of TEST_DATABASE_URL, for any database name. */
export const testPgbouncerUrl = serviceUrl(process.env, 'TEST_PGBOUNCER_URL');

export const describeWithPostgres = testDatabaseUrl === undefined ? describe.skip : describe;
export const describeWithRedis = testRedisUrl === undefined ? describe.skip : describe;
export const describeWithReplica = testDatabaseUrl === undefined || testReplicaUrl === undefined ? describe.skip : describe;
export const describeWithPgbouncer = testDatabaseUrl === undefined || testPgbouncerUrl === undefined ? describe.skip : describe;
export const describeWithPostgresAndRedis =
  testDatabaseUrl === undefined || testRedisUrl === undefined ? describe.skip : describe;
/** The machine's own packaged PostgreSQL and Redis may be set up and torn down, and a release built and installed (TEST_DEPLOYMENT_DOC=true). */
export const describeOnDeploymentMachine = deploymentDocAllowed(process.env) ? describe : describe.skip;

export interface TestSchema {
  /** DATABASE_URL whose connections use only this schema (or database, behind PgBouncer). */
  readonly url: string;
  /** DATABASE_POOLER for that URL. */
  readonly pooler: DatabasePooler;
  /** The same schema on the replica (TEST_DATABASE_REPLICA_URL), once it arrives there; undefined without one. */
  readonly replicaUrl: string | undefined;
  /** Where the schema is, reached directly, never through PgBouncer: for the tests' own statements. */
  readonly direct: { readonly databaseUrl: string; readonly schema: string };
  drop(): Promise<void>;
}

/** `url` with its connections' search path set to `schema`. */
export function inSchema(url: string, schema: string): string {
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  return withSchema.toString();
}

async function withAdminClient<T>(work: (client: Client) => Promise<T>, url = testDatabaseUrl): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty schema of the test database, so test files and tests never see each other's rows; in the
 * PgBouncer jest project (test/support/use-pgbouncer.ts), a database of its own behind PgBouncer instead.
 */
export async function createTestSchema(): Promise<TestSchema> {
  if (process.env.TEST_THROUGH_PGBOUNCER === 'true') return createPgbouncerTestDatabase();
  if (testDatabaseUrl === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${randomBytes(8).toString('hex')}`;
  await withAdminClient((client) => client.query(`CREATE SCHEMA ${schema}`));
  return {
    url: inSchema(testDatabaseUrl, schema),
    replicaUrl: testReplicaUrl === undefined ? undefined : inSchema(testReplicaUrl, schema),
    direct: { databaseUrl: testDatabaseUrl, schema },
    pooler: 'none',
    drop: () => withAdminClient((client) => client.query(`DROP SCHEMA ${schema} CASCADE`)).then(() => undefined),
  };
}

/** Databases behind PgBouncer that a finished test emptied, for the next test of the same file. */
const emptiedDatabases: string[] = [];

/**
 * An empty database of the test server, reached through PgBouncer in transaction mode: a schema's
 * search_path, a startup option, does not pass PgBouncer 1.18, and a SET would stay on a server connection
 * other clients share. Its statement_timeout is set as docs/deployment.md tells operators to. Once done
 * with, it is emptied (its public schema made again, quicker than a new database) for the file's next test,
 * and dropped after the file (dropPgbouncerTestDatabases).
 */
export async function createPgbouncerTestDatabase(): Promise<TestSchema> {
  if (testDatabaseUrl === undefined || testPgbouncerUrl === undefined) throw new Error('TEST_DATABASE_URL or TEST_PGBOUNCER_URL is not set');
  const database = emptiedDatabases.pop() ?? (await createDatabase());
  const url = new URL(testPgbouncerUrl);
  url.pathname = `/${database}`;
  const direct = new URL(testDatabaseUrl);
  direct.pathname = `/${database}`;
  return {
    url: url.toString(),
    pooler: 'transaction',
    replicaUrl: undefined,
    direct: { databaseUrl: direct.toString(), schema: 'public' },
    drop: async () => {
      await withAdminClient((client) => client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public'), direct.toString());
      emptiedDatabases.push(database);
    },
  };
}

async function createDatabase(): Promise<string> {
  const database = `test_${randomBytes(8).toString('hex')}`;
  await withAdminClient(async (client) => {
    // template0 takes no connections, so no one's session on template1 can make the copy fail.
    await client.query(`CREATE DATABASE ${database} TEMPLATE template0`);
    await client.query(`ALTER DATABASE ${database} SET statement_timeout = ${DEPENDENCY_TIMEOUT_SECONDS * 1000}`);
  });
  return database;
}

/** Drops the databases createPgbouncerTestDatabase made, WITH (FORCE): PgBouncer keeps its server connections open. */
export async function dropPgbouncerTestDatabases(): Promise<void> {
  for (const database of emptiedDatabases.splice(0)) {
    await withAdminClient((client) => client.query(`DROP DATABASE ${database} WITH (FORCE)`));
  }
}

/** A unique key prefix per test, so tests that share one Redis never see each other's keys. */
export function uniqueRedisPrefix(): string {
  return `test-${randomBytes(8).toString('hex')}:`;
}

async function queried<Row extends object>(url: string, text: string, values: unknown[] = []): Promise<Row> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows[0] as Row;
  } finally {
    await client.end();
  }
}

/** The longest wait for a replica to replay what its primary wrote: far past any lag a healthy replica has. */
const CATCH_UP_BOUND_MS = 60_000;

/**
 * Resolves once the replica at `replicaUrl` has replayed everything its primary at `primaryUrl` had written
 * when called. No event says so: the replay position is polled, within a generous bound.
 */
export async function replicaCaughtUp(primaryUrl: string, replicaUrl: string): Promise<void> {
  const { lsn } = await queried<{ lsn: string }>(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS lsn');
  const client = new Client({ connectionString: replicaUrl });
  await client.connect();
  try {
    await replayedUpTo(client, lsn);
  } finally {
    await client.end();
  }
}

/** Resolves once the replica `client` is connected to has replayed the primary's WAL up to `lsn`. */
export async function replayedUpTo(client: Client, lsn: string): Promise<void> {
  const deadline = Date.now() + CATCH_UP_BOUND_MS;
  for (;;) {
    const { rows } = await client.query<{ replayed: boolean }>('SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS replayed', [lsn]);
    if (rows[0]?.replayed === true) return;
    if (Date.now() > deadline) throw new Error(`the replica did not replay up to ${lsn} within ${CATCH_UP_BOUND_MS / 1000} s`);
    await client.query('SELECT pg_sleep(0.01)');
  }
}
