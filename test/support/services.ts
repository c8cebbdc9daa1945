import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { serviceUrl } from './service-urls';

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

export interface TestSchema {
  /** DATABASE_URL whose connections use only this schema. */
  readonly url: string;
  drop(): Promise<void>;
}

async function withAdminClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty schema of the test database, so test files and tests never see each other's rows. */
export async function createTestSchema(): Promise<TestSchema> {
  if (testDatabaseUrl === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${randomBytes(8).toString('hex')}`;
  await withAdminClient((client) => client.query(`CREATE SCHEMA ${schema}`));
  const url = new URL(testDatabaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: () => withAdminClient((client) => client.query(`DROP SCHEMA ${schema} CASCADE`)).then(() => undefined),
  };
}

/** A unique key prefix per test, so tests that share one Redis never see each other's keys. */
export function uniqueRedisPrefix(): string {
  return `test-${randomBytes(8).toString('hex')}:`;
}
