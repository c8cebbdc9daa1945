/** @type {import('jest').Config} */
const base = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // Transpile only, file by file (tsconfig's isolatedModules): `npm run typecheck` checks the types once for the whole tree.
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
        // As tsc emits for module node16: CommonJS, with import() left a real dynamic import.
        module: { type: 'commonjs', ignoreDynamic: true },
      },
    ],
  },
  setupFilesAfterEnv: ['<rootDir>/test/support/close-test-stores.ts'],
};

/** Whether a service of .ci/services.sh is there (an empty variable is none, as in test/support/service-urls.ts). */
const hasService = (variable) => (process.env[variable] ?? '') !== '';

/** The HTTP suites of the reporting and admin APIs once more, on PostgreSQL (see test/support/use-postgres-store.ts). */
const postgresProject = {
  ...base,
  displayName: 'PostgreSQL',
  testMatch: [
    '<rootDir>/src/reporting/auth/authenticate.test.ts',
    '<rootDir>/src/reporting/auth/login-cache.test.ts',
    '<rootDir>/src/reporting/basic-auth/data-credentials.test.ts',
    '<rootDir>/src/reporting/events/events.test.ts',
    '<rootDir>/src/reporting/oracle.test.ts',
    '<rootDir>/src/reporting/resources.test.ts',
    '<rootDir>/src/reporting/report-cache/report-cache.test.ts',
    '<rootDir>/src/rate-limit/rate-limits.test.ts',
    '<rootDir>/src/admin/access.test.ts',
    '<rootDir>/src/admin/accounts/accounts.test.ts',
    '<rootDir>/src/admin/calls/calls-import.test.ts',
    '<rootDir>/src/admin/accounts/phones.test.ts',
    '<rootDir>/src/sandbox/clock/clock.test.ts',
    '<rootDir>/src/sandbox/scenarios/scenarios.test.ts',
    '<rootDir>/src/admin/retention/retention.test.ts',
    '<rootDir>/src/client/client.test.ts',
    '<rootDir>/test/fuzz/http-fuzz.test.ts',
  ],
  setupFilesAfterEnv: ['<rootDir>/test/support/use-postgres-store.ts', ...base.setupFilesAfterEnv],
};

/**
 * The store contract, the migrations and a reporting HTTP suite once more, through PgBouncer in transaction
 * mode, each store in a database of its own (see test/support/use-pgbouncer.ts).
 */
const pgbouncerProject = {
  ...base,
  displayName: 'PgBouncer',
  testMatch: [
    '<rootDir>/src/storage/postgres/postgres-store.test.ts',
    '<rootDir>/src/storage/postgres/postgres-redis-store.test.ts',
    '<rootDir>/src/storage/postgres/migrations.test.ts',
    '<rootDir>/src/reporting/events/events.test.ts',
  ],
  setupFilesAfterEnv: ['<rootDir>/test/support/use-postgres-store.ts', '<rootDir>/test/support/use-pgbouncer.ts', ...base.setupFilesAfterEnv],
};

module.exports = {
  // Builds dist/ once for the suites that spawn the server or the tool, and says which suites are skipped.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  // Most suites wait on sockets, child processes and PostgreSQL; two workers keep both cores busy.
  maxWorkers: 2,
  // Besides jest's own output, where the time went: `npm run test:timings` prints it.
  reporters: ['default', ['<rootDir>/test/support/timings-reporter.cjs', { outputFile: `${__dirname}/.ci/tmp/test-timings.json` }]],
  // A safety net only: no test waits on a timer, and none takes more than a few seconds even on a loaded machine.
  testTimeout: 60_000,
  // A project that runs suites again on a service exists only where the service does: on a machine without
  // it a file runs once, and the global set-up names what would run the rest.
  projects: [
    { ...base, displayName: 'memory' },
    ...(hasService('TEST_DATABASE_URL') ? [postgresProject] : []),
    ...(hasService('TEST_DATABASE_URL') && hasService('TEST_PGBOUNCER_URL') ? [pgbouncerProject] : []),
  ],
};
