import { Client } from 'pg';
import { createLogger } from '../../src/logger';
import { MIGRATIONS } from '../../src/storage/postgres/migrations';
import { openPostgresStore } from '../../src/storage/postgres/postgres-store';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/services';

const EVERY_VERSION = MIGRATIONS.map((migration) => migration.version);

let schema: TestSchema;

afterEach(() => schema.drop());

async function appliedMigrations(url: string): Promise<number[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    return rows.map((row) => row.version);
  } finally {
    await client.end();
  }
}

describeWithPostgres('PostgreSQL migrations', () => {
  test('applied by instances starting together on an empty database, run once and leave both working', async () => {
    schema = await createTestSchema();
    const logger = createLogger('silent');
    const stores = await Promise.all([openPostgresStore(schema.url, logger), openPostgresStore(schema.url, logger)]);
    expect(await appliedMigrations(schema.url)).toEqual(EVERY_VERSION);
    expect(await Promise.all(stores.map((store) => store.accounts.list()))).toEqual([[], []]);
    await Promise.all(stores.map((store) => store.close()));
  });

  test('are not applied again at the next start', async () => {
    schema = await createTestSchema();
    const logger = createLogger('silent');
    await (await openPostgresStore(schema.url, logger)).close();
    await (await openPostgresStore(schema.url, logger)).close();
    expect(await appliedMigrations(schema.url)).toEqual(EVERY_VERSION);
  });
});
