import { dropKeptSchemas } from './migrated-schemas';
import { closeTestStores } from './test-store';

// Each test's PostgreSQL stores go when it ends, so their connections never pile up across a file.
afterEach(closeTestStores);
// The schemas kept for a next test go with the file.
afterAll(dropKeptSchemas);
