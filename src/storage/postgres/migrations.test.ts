import { createHash } from 'node:crypto';
import { Client, Pool } from 'pg';
import { callRecordSchema, type CallRecordInput } from '../../domain/call-record';
import { createLogger } from '../../logger';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';
import { openPostgresStore } from './postgres-store';
import type { Store } from '../store';
import { dailyTotals, dayTotals } from '../../../test/support/day-totals';
import { epochDayOf } from '../../time/calendar';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../../test/support/services';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../../../test/support/dependency-timeout';

const EVERY_VERSION = MIGRATIONS.map((migration) => migration.version);

let schema: TestSchema;

afterEach(() => schema.drop());

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function appliedMigrations(url: string): Promise<number[]> {
  const { rows } = await withClient(url, (client) => client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version'));
  return rows.map((row) => row.version);
}

// Both on 7 February in New York, both on the 8th in Tokyo.
const C1_STARTED_AT = Date.parse('2018-02-07T15:15:00Z');
const C2_STARTED_AT = Date.parse('2018-02-08T03:30:00Z');

/** A database as version 3 left it: migrations 1-3 only, and rows written the way its code wrote them. */
async function createVersion3Database(url: string): Promise<void> {
  const pool = new Pool({ connectionString: url });
  try {
    await migrate(pool, createLogger('silent'), MIGRATIONS.filter((migration) => migration.version <= 3));
    await pool.query(
      `INSERT INTO accounts (id, tool, login, password_hash, active, time_zone, credential_generation)
       VALUES ('dev:alice', 'dev', 'alice', 'hash-of-alice', true, 'America/New_York', 0)`,
    );
    await pool.query(`INSERT INTO phones (phone, account_id) VALUES ('15550001', 'dev:alice')`);
    await pool.query(
      `INSERT INTO calls (call_id, phone, started_at, log_events, loops, form_items)
       VALUES ('c1', '15550001', $1, 4, 1, 2), ('c2', '15550001', $2, 6, 0, 1)`,
      [C1_STARTED_AT, C2_STARTED_AT],
    );
    await pool.query(`INSERT INTO daily_rollups (phone, day, calls, log_events, loops, form_items) VALUES ('15550001', $1, 2, 10, 1, 3)`, [
      epochDayOf({ year: 2018, month: 2, day: 7 }),
    ]);
  } finally {
    await pool.end();
  }
}

const SELECTION = { application: 'https://ivr.example.com/start.vxml', page: 'main.vxml', form: 'main_menu', item: 'selection' };

/**
 * A database as version 5 left it: a call whose path is a row of call_path, its form item stored under
 * the digest that version computed, and its form-item rollup of 7 February in New York.
 */
async function createVersion5Database(url: string): Promise<void> {
  const pool = new Pool({ connectionString: url });
  try {
    await migrate(pool, createLogger('silent'), MIGRATIONS.filter((migration) => migration.version <= 5));
    await pool.query(
      `INSERT INTO accounts (id, tool, login, password_hash, active, time_zone, credential_generation)
       VALUES ('dev:alice', 'dev', 'alice', 'hash-of-alice', true, 'America/New_York', 0)`,
    );
    await pool.query(`INSERT INTO phones (phone, account_id) VALUES ('15550001', 'dev:alice')`);
    await pool.query(`INSERT INTO calls (call_id, phone, started_at, log_events, loops, form_items) VALUES ('c1', '15550001', $1, 0, 0, 0)`, [C1_STARTED_AT]);
    await pool.query(`INSERT INTO daily_rollups (phone, day, calls, log_events, loops, form_items) VALUES ('15550001', $1, 1, 0, 0, 0)`, [
      epochDayOf({ year: 2018, month: 2, day: 7 }),
    ]);
    const digest = createHash('sha256').update(JSON.stringify([SELECTION.application, SELECTION.page, SELECTION.form, SELECTION.item])).digest();
    const { rows } = await pool.query<{ id: string }>(
      'INSERT INTO form_items (digest, application, page, form, item) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [digest, SELECTION.application, SELECTION.page, SELECTION.form, SELECTION.item],
    );
    const id = (rows[0] as { id: string }).id;
    await pool.query(
      `INSERT INTO call_path (phone, call_id, step, started_at, form_item_id, visits, filled, nomatch, noinput, transfer, disconnect)
       VALUES ('15550001', 'c1', 0, $1, $2, 2, 1, 0, 0, 0, 0)`,
      [C1_STARTED_AT, id],
    );
    await pool.query(
      `INSERT INTO form_item_days (phone, day, form_item_id, visits, filled, nomatch, noinput, transfer, disconnect)
       VALUES ('15550001', $1, $2, 2, 1, 0, 0, 0, 0)`,
      [epochDayOf({ year: 2018, month: 2, day: 7 }), id],
    );
  } finally {
    await pool.end();
  }
}

/**
 * A database as version 6 left it: daily rollups of alice's two numbers on the 7th, one of them also on
 * the 8th, and of a number that was released and belongs to no one.
 */
async function createVersion6Database(url: string): Promise<void> {
  const pool = new Pool({ connectionString: url });
  try {
    await migrate(pool, createLogger('silent'), MIGRATIONS.filter((migration) => migration.version <= 6));
    await pool.query(
      `INSERT INTO accounts (id, tool, login, password_hash, active, time_zone, credential_generation)
       VALUES ('dev:alice', 'dev', 'alice', 'hash-of-alice', true, 'America/New_York', 0)`,
    );
    await pool.query(`INSERT INTO phones (phone, account_id) VALUES ('15550001', 'dev:alice'), ('15550002', 'dev:alice')`);
    const seventh = epochDayOf({ year: 2018, month: 2, day: 7 });
    await pool.query(
      `INSERT INTO daily_rollups (phone, day, calls, log_events, loops, form_items, duration_ms, transfers, transfer_ms, js_errors, fetch_errors, page_loads, page_load_ms)
       VALUES ('15550001', $1, 2, 10, 1, 3, 5000, 1, 2000, 1, 0, 4, 900),
              ('15550002', $1, 1, 5, 0, 1, 1000, 0, 0, 0, 1, 2, 300),
              ('15550002', $2, 3, 7, 2, 2, 0, 0, 0, 0, 0, 0, 0),
              ('15550009', $1, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50)`,
      [seventh, seventh + 1],
    );
  } finally {
    await pool.end();
  }
}

const record = (fields: Pick<CallRecordInput, 'call_id' | 'started_at'> & Partial<CallRecordInput>) =>
  callRecordSchema.parse({ phone: '15550001', log_events: 0, loops: 0, form_items: 0, ...fields });

describeWithPostgres('PostgreSQL migrations', () => {
  test('applied by instances starting together on an empty database, run once and leave both working', async () => {
    schema = await createTestSchema();
    const logger = createLogger('silent');
    const stores = await Promise.all([openPostgresStore(schema.url, logger, DEPENDENCY_TIMEOUT_SECONDS, schema.pooler), openPostgresStore(schema.url, logger, DEPENDENCY_TIMEOUT_SECONDS, schema.pooler)]);
    expect(await appliedMigrations(schema.url)).toEqual(EVERY_VERSION);
    expect(await Promise.all(stores.map((store) => store.accounts.list()))).toEqual([[], []]);
    await Promise.all(stores.map((store) => store.close()));
  });

  test('are not applied again at the next start', async () => {
    schema = await createTestSchema();
    const logger = createLogger('silent');
    await (await openPostgresStore(schema.url, logger, DEPENDENCY_TIMEOUT_SECONDS, schema.pooler)).close();
    await (await openPostgresStore(schema.url, logger, DEPENDENCY_TIMEOUT_SECONDS, schema.pooler)).close();
    expect(await appliedMigrations(schema.url)).toEqual(EVERY_VERSION);
  });

  describe('upgrade a version-3 database in place', () => {
    const seventh = epochDayOf({ year: 2018, month: 2, day: 7 });
    const eighth = seventh + 1;
    let store: Store;

    beforeEach(async () => {
      schema = await createTestSchema();
      await createVersion3Database(schema.url);
      store = await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS, schema.pooler);
    });

    afterEach(() => store.close());

    test('keeping every call and daily rollup as it was, with 0 in the new sums and no callers, regions or form items', async () => {
      expect(await appliedMigrations(schema.url)).toEqual(EVERY_VERSION);
      const stored = await withClient(schema.url, async (client) => ({
        calls: (await client.query('SELECT * FROM calls ORDER BY call_id')).rows,
        rollups: (await client.query('SELECT * FROM daily_rollups')).rows,
      }));
      const version2Fields = {
        caller: null,
        region: null,
        duration_ms: '0',
        transfers: 0,
        transfer_ms: '0',
        js_errors: 0,
        fetch_errors: 0,
        page_loads: 0,
        page_load_ms: '0',
      };
      const version6Fields = { path_form_item_ids: null, path_counters: null };
      expect(stored.calls).toEqual([
        { call_id: 'c1', phone: '15550001', started_at: String(C1_STARTED_AT), log_events: 4, loops: 1, form_items: 2, ...version2Fields, ...version6Fields },
        { call_id: 'c2', phone: '15550001', started_at: String(C2_STARTED_AT), log_events: 6, loops: 0, form_items: 1, ...version2Fields, ...version6Fields },
      ]);
      expect(stored.rollups).toEqual([
        {
          phone: '15550001',
          day: seventh,
          calls: '2',
          log_events: '10',
          loops: '1',
          form_items: '3',
          duration_ms: '0',
          transfers: '0',
          transfer_ms: '0',
          js_errors: '0',
          fetch_errors: '0',
          page_loads: '0',
          page_load_ms: '0',
        },
      ]);
      expect(await dailyTotals(store, ['15550001'], seventh, eighth)).toEqual([
        dayTotals({ day: seventh, calls: 2, logEvents: 10, loops: 1, formItems: 3 }),
      ]);
      expect(await store.calls.distinctCallers(['15550001'], [{ first: seventh, last: eighth }])).toEqual([0]);
      expect(await store.calls.regionTotals(['15550001'], seventh, eighth)).toEqual([]);
      expect(await store.calls.formItemTotals(['15550001'], seventh, eighth, 10)).toEqual([]);
    });

    test('after which version-2 calls are rolled up beside the old ones, an old call id is still a duplicate, and a rebuild re-buckets both', async () => {
      const selection = { application: 'https://ivr.example.com/start.vxml', page: 'main.vxml', form: 'main_menu', item: 'selection' };
      const added = await store.calls.add([
        record({ call_id: 'c1', started_at: new Date(C1_STARTED_AT).toISOString(), log_events: 4, loops: 1, form_items: 2 }),
        record({
          call_id: 'c3',
          started_at: '2018-02-07T12:00:00Z',
          caller: '6175550123',
          duration_seconds: 30,
          path: [{ ...selection, visits: 2, filled: 1 }],
        }),
      ]);
      expect(added).toEqual({ inserted: 1, duplicates: 1, unknownPhone: [] });
      const selectionTotals = { ...selection, visits: 2, filled: 1, nomatch: 0, noinput: 0, transfer: 0, disconnect: 0 };
      expect(await dailyTotals(store, ['15550001'], seventh, eighth)).toEqual([
        dayTotals({ day: seventh, calls: 3, logEvents: 10, loops: 1, formItems: 3, durationMs: 30_000 }),
      ]);
      expect(await store.calls.distinctCallers(['15550001'], [{ first: seventh, last: eighth }])).toEqual([1]);
      expect(await store.calls.regionTotals(['15550001'], seventh, eighth)).toEqual([{ region: 'US-MA', calls: 1 }]);
      expect(await store.calls.formItemTotals(['15550001'], seventh, eighth, 10)).toEqual([selectionTotals]);

      // In Tokyo the version-1 calls fall on the 8th and the new one, 21:00 there, stays on the 7th.
      await store.accounts.update('dev:alice', { timeZone: 'Asia/Tokyo' });
      expect(await dailyTotals(store, ['15550001'], seventh, eighth)).toEqual([
        dayTotals({ day: seventh, calls: 1, durationMs: 30_000 }),
        dayTotals({ day: eighth, calls: 2, logEvents: 10, loops: 1, formItems: 3 }),
      ]);
      const eachDay = [
        { first: seventh, last: seventh },
        { first: eighth, last: eighth },
      ];
      expect(await store.calls.distinctCallers(['15550001'], eachDay)).toEqual([1, 0]);
      expect(await store.calls.regionTotals(['15550001'], seventh, seventh)).toEqual([{ region: 'US-MA', calls: 1 }]);
      expect(await store.calls.regionTotals(['15550001'], eighth, eighth)).toEqual([]);
      expect(await store.calls.formItemTotals(['15550001'], seventh, seventh, 10)).toEqual([selectionTotals]);
      expect(await store.calls.formItemTotals(['15550001'], eighth, eighth, 10)).toEqual([]);
    });
  });

  test('make the rate-limit counters unlogged', async () => {
    schema = await createTestSchema();
    await (await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS, schema.pooler)).close();
    const { rows } = await withClient(schema.url, (client) =>
      client.query<{ relpersistence: string }>(`SELECT relpersistence FROM pg_class WHERE oid = 'rate_limit_windows'::regclass`),
    );
    expect(rows).toEqual([{ relpersistence: 'u' }]);
  });

  test('compare call ids and numbers of calls byte for byte', async () => {
    schema = await createTestSchema();
    await (await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS, schema.pooler)).close();
    const { rows } = await withClient(schema.url, (client) =>
      client.query<{ column_name: string; collation_name: string }>(
        `SELECT column_name, collation_name FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = 'calls' AND column_name IN ('call_id', 'phone') ORDER BY column_name`,
      ),
    );
    expect(rows).toEqual([
      { column_name: 'call_id', collation_name: 'C' },
      { column_name: 'phone', collation_name: 'C' },
    ]);
  });

  test('upgrade a version-6 database with each account\'s daily sums, from the rollups of the numbers it owns', async () => {
    schema = await createTestSchema();
    await createVersion6Database(schema.url);
    const store = await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS, schema.pooler);
    try {
      const seventh = epochDayOf({ year: 2018, month: 2, day: 7 });
      const alice = { ownedBy: 'dev:alice' };
      const days = [
        dayTotals({ day: seventh, calls: 3, logEvents: 15, loops: 1, formItems: 4, durationMs: 6000, transfers: 1, transferMs: 2000, jsErrors: 1, fetchErrors: 1, pageLoads: 6, pageLoadMs: 1200 }),
        dayTotals({ day: seventh + 1, calls: 3, logEvents: 7, loops: 2, formItems: 2 }),
      ];
      expect(await dailyTotals(store, alice, seventh, seventh + 1)).toEqual(days);
      expect(await dailyTotals(store, ['15550001', '15550002'], seventh, seventh + 1)).toEqual(days);
      await store.calls.add([record({ call_id: 'c9', started_at: '2018-02-08T12:00:00-05:00', log_events: 1 })]);
      expect(await dailyTotals(store, alice, seventh + 1, seventh + 1)).toEqual([dayTotals({ day: seventh + 1, calls: 4, logEvents: 8, loops: 2, formItems: 2 })]);
    } finally {
      await store.close();
    }
  });

  describe('upgrade a version-5 database in place', () => {
    const seventh = epochDayOf({ year: 2018, month: 2, day: 7 });
    const eighth = seventh + 1;
    let store: Store;

    beforeEach(async () => {
      schema = await createTestSchema();
      await createVersion5Database(schema.url);
      store = await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS, schema.pooler);
    });

    afterEach(() => store.close());

    test('keeping paths stored in call_path: a new call finds their form item, and a rebuild counts both', async () => {
      await store.calls.add([record({ call_id: 'c2', started_at: '2018-02-07T12:00:00Z', path: [{ ...SELECTION, visits: 1, filled: 1 }] })]);
      const totals = (visits: number, filled: number) => [{ ...SELECTION, visits, filled, nomatch: 0, noinput: 0, transfer: 0, disconnect: 0 }];
      expect(await store.calls.formItemTotals(['15550001'], seventh, seventh, 10)).toEqual(totals(3, 2));
      const formItems = await withClient(schema.url, (client) => client.query('SELECT id FROM form_items'));
      expect(formItems.rowCount).toBe(1);

      // In Tokyo c1 (15:15 UTC) falls on the 8th and c2 (21:00 there) stays on the 7th.
      await store.accounts.update('dev:alice', { timeZone: 'Asia/Tokyo' });
      expect(await store.calls.formItemTotals(['15550001'], seventh, seventh, 10)).toEqual(totals(1, 1));
      expect(await store.calls.formItemTotals(['15550001'], eighth, eighth, 10)).toEqual(totals(2, 1));
    });
  });
});
