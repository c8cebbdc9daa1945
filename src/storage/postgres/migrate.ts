import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { MIGRATIONS, type Migration } from './migrations';
import { allowLongStatements, longQuery } from './pool';
import { inTransaction } from './transaction';

/**
 * Any fixed number will do, as long as nothing else in the database takes the same advisory lock: it
 * makes instances that start together apply the migrations one after the other instead of racing.
 */
const MIGRATION_LOCK = 5_170_001;

/**
 * Brings the schema up to date in one transaction: either every pending migration is applied and
 * recorded in schema_migrations, or none is.
 */
export async function migrate(pool: Pool, logger: Logger, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  await inTransaction(pool, async (client) => {
    await allowLongStatements(client);
    await longQuery(client, 'SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await longQuery(
      client,
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const applied = await longQuery<{ version: number }>(client, 'SELECT version FROM schema_migrations');
    const done = new Set(applied.rows.map((row) => row.version));
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await longQuery(client, migration.sql);
      await longQuery(client, 'INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      logger.info({ version: migration.version, name: migration.name }, 'database migration applied');
    }
  });
}
