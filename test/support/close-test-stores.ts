import { closeTestStores } from './test-store';

// Each test's PostgreSQL stores go when it ends, so their connections never pile up across a file.
afterEach(closeTestStores);
