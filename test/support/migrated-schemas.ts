import { Client, Pool } from 'pg';
import { createLogger } from '../../src/logger';
import { migrate } from '../../src/storage/postgres/migrate';
import { createTestSchema, inSchema, replayedUpTo, testReplicaUrl, type TestSchema } from './services';

/*
 * A PostgreSQL test whose subject is not the migrations gets a schema with every migration applied. A new
 * schema for each test, migrated and dropped, cost about as much as the rest of the test; so a schema a
 * finished test hands back is put back as its migrations left it, and the file's next test gets it.
 */

/** What a migrated schema holds before a test writes to it: its relations, and the rows the migrations wrote. */
interface MigratedState {
  /** `name:kind` of every relation, in name order. */
  readonly relations: string;
  /** Each table the migrations wrote rows into, with those rows as JSON. */
  readonly rows: ReadonlyMap<string, string>;
}

interface KeptSchema {
  readonly schema: TestSchema;
  readonly state: MigratedState;
}

/** The schemas this file's finished tests handed back, put back as migrated. */
const kept: KeptSchema[] = [];

/**
 * One connection per database for this file's own statements, and one to the replica: a new connection's
 * first statements cost tens of milliseconds while its backend loads the catalog. Closed after the file.
 */
const connections = new Map<string, Promise<Client>>();

function connection(url: string): Promise<Client> {
  let client = connections.get(url);
  if (client === undefined) {
    const opening = new Client({ connectionString: url });
    client = opening.connect().then(() => opening);
    connections.set(url, client);
  }
  return client;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
/** The schema as an expression of type regnamespace. */
const namespace = (schema: string) => `'${quoted(schema).replaceAll("'", "''")}'::regnamespace`;

function relationsQuery(schema: string): string {
  return `SELECT coalesce(string_agg(relname::text || ':' || relkind::text, ' ' ORDER BY relname), '') AS relations
    FROM pg_class WHERE relnamespace = ${namespace(schema)}`;
}

async function migratedStateOf(client: Client, schema: string): Promise<MigratedState> {
  const { rows: tables } = await client.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relnamespace = ${namespace(schema)} AND relkind = 'r'`,
  );
  const rows = new Map<string, string>();
  for (const { name } of tables) {
    const { rows: found } = await client.query<{ rows: string | null }>(`SELECT json_agg(t)::text AS rows FROM ${quoted(schema)}.${quoted(name)} t`);
    const json = found[0]?.rows;
    if (json !== undefined && json !== null) rows.set(name, json);
  }
  const { rows: relations } = await client.query<{ relations: string }>(relationsQuery(schema));
  return { relations: relations[0]?.relations ?? '', rows };
}

/** The SQLSTATE restoreStatement raises when the schema is no longer as its migrations made it. */
const SCHEMA_CHANGED = 'IVRSC';
/** PostgreSQL's code for a statement the role may not run: the planner's statistics are a superuser's to delete. */
const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * One message, so one transaction, that puts the schema back as its migrations left it. It drops the
 * partitions made since (of the months a test's calls fell in), then fails with SCHEMA_CHANGED, changing
 * nothing, if the relations differ from the migrations' (a test dropped a month, or made a table). Every
 * table a test wrote to or the planner has counted is truncated, which gives it new, empty files and sets it
 * back to never counted, and its planner statistics are deleted: a new table's plans, not those of the rows
 * a test left. The sequences restart, and the migrations' rows are written again. A table no test touched
 * is left alone: truncating every table costs more than migrating a new schema.
 */
function restoreStatement(client: Client, schema: string, state: MigratedState): string {
  const made = state.relations.split(' ').map((relation) => client.escapeLiteral(relation.slice(0, relation.lastIndexOf(':'))));
  return `DO $restore$
DECLARE
  relation regclass;
BEGIN
  FOR relation IN SELECT oid::regclass FROM pg_class
      WHERE relnamespace = ${namespace(schema)} AND relkind IN ('r', 'p') AND relispartition AND relname::text <> ALL (ARRAY[${made.join(', ')}]::text[]) LOOP
    EXECUTE format('DROP TABLE IF EXISTS %s CASCADE', relation);
  END LOOP;
  IF (${relationsQuery(schema)}) IS DISTINCT FROM ${client.escapeLiteral(state.relations)} THEN
    RAISE EXCEPTION 'the schema is not as its migrations made it' USING ERRCODE = '${SCHEMA_CHANGED}';
  END IF;
  FOR relation IN SELECT oid::regclass FROM pg_class
      WHERE relnamespace = ${namespace(schema)} AND relkind = 'r' AND (reltuples <> -1 OR pg_relation_size(oid) > 0) LOOP
    EXECUTE format('TRUNCATE %s', relation);
    DELETE FROM pg_statistic WHERE starelid IN (SELECT relation UNION SELECT indexrelid FROM pg_index WHERE indrelid = relation);
  END LOOP;
  PERFORM setval(seqrelid, seqstart, false) FROM pg_sequence JOIN pg_class ON pg_class.oid = seqrelid WHERE relnamespace = ${namespace(schema)};
END
$restore$;
${[...state.rows]
  .map(([table, rows]) => {
    const name = `${quoted(schema)}.${quoted(table)}`;
    return `INSERT INTO ${name} SELECT * FROM json_populate_recordset(NULL::${name}, ${client.escapeLiteral(rows)});`;
  })
  .join('\n')}`;
}

async function newMigratedSchema(): Promise<KeptSchema> {
  const schema = await createTestSchema();
  const { databaseUrl, schema: name } = schema.direct;
  const pool = new Pool({ connectionString: inSchema(databaseUrl, name), max: 1 });
  try {
    await migrate(pool, createLogger('silent'));
  } finally {
    await pool.end();
  }
  return { schema, state: await migratedStateOf(await connection(databaseUrl), name) };
}

/**
 * A schema with every migration applied, as a store opening a new schema would leave it: one a finished
 * test of this file handed back, or else a new one (behind PgBouncer in the PgBouncer jest project, a
 * database of its own). Its `drop()` hands it back, put back as migrated, for the file's next test, or
 * drops it when it cannot be put back; with a replica, the replica has replayed that before the next test
 * gets it, since the data versions begin again and a replica still holding the last test's rows would look
 * up to date.
 */
export async function migratedTestSchema(): Promise<TestSchema> {
  const { schema, state } = kept.pop() ?? (await newMigratedSchema());
  const handBack = async () => {
    const client = await connection(schema.direct.databaseUrl);
    try {
      await client.query(restoreStatement(client, schema.direct.schema, state));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== SCHEMA_CHANGED && code !== INSUFFICIENT_PRIVILEGE) throw error;
      return schema.drop();
    }
    if (schema.replicaUrl !== undefined && testReplicaUrl !== undefined) {
      const { rows } = await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      await replayedUpTo(await connection(testReplicaUrl), rows[0]?.lsn as string);
    }
    kept.push({ schema, state });
  };
  return { ...schema, drop: handBack };
}

/** After the file: drops the schemas kept for a next test, and closes this file's connections. */
export async function dropKeptSchemas(): Promise<void> {
  for (const { schema } of kept.splice(0)) await schema.drop();
  const clients = [...connections.values()];
  connections.clear();
  for (const client of clients) await (await client).end();
}
