import { createLogger } from '../../src/logger';
import { openPostgresStore } from '../../src/storage/postgres/postgres-store';
import { createTestSchema, describeWithPostgres } from '../support/services';
import { describeStoreContract } from './store-contract';

describeWithPostgres('PostgreSQL', () => {
  describeStoreContract('PostgreSQL', async () => {
    const schema = await createTestSchema();
    const store = await openPostgresStore(schema.url, createLogger('silent'));
    return { ...store, close: () => store.close().then(() => schema.drop()) };
  });
});
