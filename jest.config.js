/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // Transpile only (tsconfig's isolatedModules): `npm run typecheck` checks the types once for the whole tree.
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  },
  testTimeout: 20000,
};
