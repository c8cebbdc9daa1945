import { testDatabaseUrl } from './services';

// Without a test database (and outside CI), the suites simply run on memory once more.
if (testDatabaseUrl !== undefined) process.env.TEST_STORE = 'postgres';
