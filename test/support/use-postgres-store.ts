/*
 * The "PostgreSQL" jest project, which exists only where TEST_DATABASE_URL is set (jest.config.js): the
 * HTTP suites once more, on a PostgreSQL store.
 */
process.env.TEST_STORE = 'postgres';
// A jest worker runs files of several projects in one process: a memory file that came next would run on PostgreSQL.
afterAll(() => {
  delete process.env.TEST_STORE;
});
