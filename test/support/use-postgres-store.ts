import { testDatabaseUrl } from './services';
import { skipEveryTest } from './skip-every-test';

/*
 * The "PostgreSQL" jest project: the HTTP suites once more, on a PostgreSQL store. Without a test
 * database every test of the project is reported as skipped (the global set-up says why); it never runs
 * again on the in-memory store under this name.
 */
if (testDatabaseUrl === undefined) {
  skipEveryTest();
} else {
  process.env.TEST_STORE = 'postgres';
  // A jest worker runs files of both projects in one process: a memory file that came next would run on PostgreSQL.
  afterAll(() => {
    delete process.env.TEST_STORE;
  });
}
