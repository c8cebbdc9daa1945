/** @type {import('jest').Config} */
const base = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // Transpile only (tsconfig's isolatedModules): `npm run typecheck` checks the types once for the whole tree.
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  },
  setupFilesAfterEnv: ['<rootDir>/test/support/close-test-stores.ts'],
};

module.exports = {
  testTimeout: 20000,
  projects: [
    { ...base, displayName: 'memory' },
    {
      ...base,
      // The HTTP suites of the reporting and admin APIs once more, on PostgreSQL (see test/support/test-store.ts).
      displayName: 'PostgreSQL',
      testMatch: [
        '<rootDir>/test/reporting/authenticate.test.ts',
        '<rootDir>/test/reporting/data-credentials.test.ts',
        '<rootDir>/test/reporting/events.test.ts',
        '<rootDir>/test/reporting/rate-limits.test.ts',
        '<rootDir>/test/admin/access.test.ts',
        '<rootDir>/test/admin/accounts.test.ts',
        '<rootDir>/test/admin/calls-import.test.ts',
        '<rootDir>/test/admin/phones.test.ts',
      ],
      setupFilesAfterEnv: ['<rootDir>/test/support/use-postgres-store.ts', ...base.setupFilesAfterEnv],
    },
  ],
};
