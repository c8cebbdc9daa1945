import { dropKeptSchemas } from './migrated-schemas';
import { dropPgbouncerTestDatabases } from './services';

/*
 * The "PgBouncer" jest project, which exists only where TEST_DATABASE_URL and TEST_PGBOUNCER_URL are set
 * (jest.config.js): the store suites, the migrations and a reporting HTTP suite once more, each store in a
 * database of its own reached through PgBouncer in transaction mode (createTestSchema), opened with
 * DATABASE_POOLER=transaction.
 */
process.env.TEST_THROUGH_PGBOUNCER = 'true';
// A jest worker runs files of every project in one process: the next file must not inherit the route.
afterAll(async () => {
  delete process.env.TEST_THROUGH_PGBOUNCER;
  // The databases kept for a next test first, whichever set-up file's afterAll runs first.
  await dropKeptSchemas();
  await dropPgbouncerTestDatabases();
});
