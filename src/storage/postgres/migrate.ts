import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { NotReadyError } from '../dependency-error';
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

/** PostgreSQL's code for a table that does not exist. */
const UNDEFINED_TABLE = '42P01';

/**
 * The readiness check: one query, which answers only when the database does, and which tells whether the
 * schema has every migration of this build. A later schema (a newer instance migrated it during a rolling
 * upgrade) is ready: migrations only add. Rejects with NotReadyError when the schema is behind.
 */
export async function checkSchema(pool: Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  const needed = Math.max(0, ...migrations.map((migration) => migration.version));
  let version: number;
  try {
    const { rows } = await pool.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
    version = rows[0]?.version ?? 0;
  } catch (error) {
    if ((error as { code?: unknown }).code === UNDEFINED_TABLE) throw new NotReadyError(`the database has no schema; this build needs version ${needed}`);
    throw error;
  }
  if (version < needed) throw new NotReadyError(`the database schema is at version ${version}; this build needs version ${needed}`);
}
