/*
 * The "memory" jest project: its suites run on the in-memory store. A jest worker runs files of both
 * projects one after another in one process, and the PostgreSQL project's set-up sets TEST_STORE in that
 * process's environment; without this, a memory file that followed it would run on PostgreSQL instead.
 */
delete process.env.TEST_STORE;
