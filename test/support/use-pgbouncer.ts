import { dropPgbouncerTestDatabases, testPgbouncerUrl } from './services';
import { skipEveryTest } from './skip-every-test';

/*
 * The "PgBouncer" jest project: the store suites, the migrations and a reporting HTTP suite once more,
 * each store in a database of its own reached through PgBouncer in transaction mode (createTestSchema),
 * opened with DATABASE_POOLER=transaction. Without PgBouncer every test of the project is reported as
 * skipped (the global set-up says why).
 */
if (testPgbouncerUrl === undefined) {
  skipEveryTest();
} else {
  process.env.TEST_THROUGH_PGBOUNCER = 'true';
  // A jest worker runs files of every project in one process: the next file must not inherit the route.
  afterAll(async () => {
    delete process.env.TEST_THROUGH_PGBOUNCER;
    await dropPgbouncerTestDatabases();
  });
}
