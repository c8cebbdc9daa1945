import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Pool } from 'pg';
import { callRecordSchema, type CallRecord } from '../../domain/call-record';
import { createLogger } from '../../logger';
import { epochDayOf } from '../../time/calendar';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';
import { openPostgresStore } from './postgres-store';
import type { Store } from '../store';
import { dailyTotals } from '../../../test/support/day-totals';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../../test/support/services';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../../../test/support/dependency-timeout';

let schema: TestSchema;
const opened: Store[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  await schema.drop();
});

async function open(): Promise<Store> {
  const store = await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS);
  opened.push(store);
  return store;
}

async function query<Row extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new Client({ connectionString: schema.url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The partitions of calls, by name, with their bounds as PostgreSQL writes them. */
const partitions = () =>
  query<{ name: string; bound: string }>(
    `SELECT child.relname AS name, pg_get_expr(child.relpartbound, child.oid) AS bound
     FROM pg_inherits JOIN pg_class child ON child.oid = pg_inherits.inhrelid
     WHERE pg_inherits.inhparent = 'calls'::regclass ORDER BY child.relname`,
  );

const range = (from: string, to: string) => `FOR VALUES FROM ('${Date.parse(from)}') TO ('${Date.parse(to)}')`;

const call = (callId: string, startedAt: string, caller?: string): CallRecord =>
  callRecordSchema.parse({ call_id: callId, phone: '15550001', started_at: startedAt, log_events: 1, loops: 0, form_items: 0, caller });

async function withAlice(store: Store): Promise<void> {
  await store.accounts.save({ id: 'dev:alice', tool: 'dev', login: 'alice', passwordHash: 'x', active: true, timeZone: 'UTC', credentialGeneration: 0 });
  await store.phones.assign('15550001', 'dev:alice');
}

const winter = [epochDayOf({ year: 2017, month: 12, day: 1 }), epochDayOf({ year: 2018, month: 3, day: 31 })] as const;

describeWithPostgres('PostgreSQL calls by month', () => {
  test('makes the partition of each month a batch needs, and of the months asked for ahead, once', async () => {
    schema = await createTestSchema();
    const store = await open();
    await withAlice(store);
    expect(await partitions()).toEqual([]);
    await store.calls.add([call('a', '2018-01-31T23:59:59Z'), call('b', '2018-02-01T00:00:00Z')]);
    await store.calls.prepareMonths(Date.parse('2018-02-07T15:00:00Z'), Date.parse('2018-04-01T00:00:00Z'));
    expect(await partitions()).toEqual([
      { name: 'calls_2018_01', bound: range('2018-01-01T00:00:00Z', '2018-02-01T00:00:00Z') },
      { name: 'calls_2018_02', bound: range('2018-02-01T00:00:00Z', '2018-03-01T00:00:00Z') },
      { name: 'calls_2018_03', bound: range('2018-03-01T00:00:00Z', '2018-04-01T00:00:00Z') },
      { name: 'calls_2018_04', bound: range('2018-04-01T00:00:00Z', '2018-05-01T00:00:00Z') },
    ]);
    expect(await query('SELECT tableoid::regclass::text AS partition, call_id FROM calls ORDER BY call_id')).toEqual([
      { partition: 'calls_2018_01', call_id: 'a' },
      { partition: 'calls_2018_02', call_id: 'b' },
    ]);
    expect(await query(`SELECT indexdef FROM pg_indexes WHERE tablename = 'calls_2018_03'`)).toEqual([
      { indexdef: expect.stringMatching(/ON .*calls_2018_03 USING btree \(phone, started_at\)$/) },
    ]);
  });

  test('of instances importing calls of the same new months at once, each call is stored once, in one partition a month', async () => {
    schema = await createTestSchema();
    const stores = [await open(), await open(), await open()];
    await withAlice(stores[0] as Store);
    const calls = Array.from({ length: 12 }, (_, month) => call(`c${month}`, new Date(Date.UTC(2019, month, 15)).toISOString()));
    const results = await Promise.all(stores.map((store, index) => store.calls.add(index % 2 === 0 ? calls : [...calls].reverse())));
    expect(results.map((result) => result.inserted).reduce((sum, inserted) => sum + inserted)).toBe(12);
    expect((await partitions()).map((partition) => partition.name)).toEqual(calls.map((_, month) => `calls_2019_${String(month + 1).padStart(2, '0')}`));
  });

  test('drops whole months, keeps their call ids and rollups, and an instance that knew a dropped month makes it again', async () => {
    schema = await createTestSchema();
    const [dropping, importing] = [await open(), await open()];
    await withAlice(dropping);
    await importing.calls.add([call('jan', '2018-01-15T12:00:00Z', '6175550123'), call('feb', '2018-02-15T12:00:00Z', '6175550124')]);
    const before = await dailyTotals(importing, ['15550001'], ...winter);
    expect(await dropping.calls.dropRawCallsBefore(Date.parse('2018-02-01T00:00:00Z'), false)).toEqual([
      { firstMonth: '2018-01', lastMonth: '2018-01', calls: 1 },
    ]);
    expect((await partitions()).map((partition) => partition.name)).toEqual(['calls_2018_02']);
    expect(await query('SELECT call_id FROM call_ids ORDER BY call_id')).toEqual([{ call_id: 'feb' }, { call_id: 'jan' }]);
    expect(await dailyTotals(dropping, ['15550001'], ...winter)).toEqual(before);

    // The importing instance still takes January for made: its insert finds no partition, and it makes it again.
    expect(await importing.calls.add([call('jan', '2018-01-15T12:00:00Z'), call('jan-2', '2018-01-20T12:00:00Z')])).toEqual({
      inserted: 1,
      duplicates: 1,
      unknownPhone: [],
    });
    expect((await partitions()).map((partition) => partition.name)).toEqual(['calls_2018_01', 'calls_2018_02']);
    expect(await query('SELECT dropped_before FROM retention_horizon')).toEqual([{ dropped_before: String(Date.parse('2018-02-01T00:00:00Z')) }]);
  });

  test('a month dropped while a rebuild runs waits for it, so the rebuild keeps the rows of its days', async () => {
    schema = await createTestSchema();
    const [rebuilding, dropping] = [await open(), await open()];
    await withAlice(rebuilding);
    await rebuilding.calls.add([call('jan', '2018-01-15T12:00:00Z'), call('feb', '2018-02-15T12:00:00Z')]);
    const before = await dailyTotals(rebuilding, ['15550001'], ...winter);

    // A row lock that the rebuild's DELETE of daily rollups waits for, once it has read the horizon.
    const holder = new Client({ connectionString: schema.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM daily_rollups WHERE phone = '15550001' FOR UPDATE`);
      const xid = ((await holder.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0] as { xid: string }).xid;
      const rebuild = rebuilding.accounts.update('dev:alice', { timeZone: 'Europe/London' });
      await waitForLockWait(`SELECT 1 FROM pg_locks WHERE locktype = 'transactionid' AND transactionid::text = $1 AND NOT granted`, [xid]);
      const drop = dropping.calls.dropRawCallsBefore(Date.parse('2018-02-01T00:00:00Z'), false);
      await waitForLockWait(`SELECT 1 FROM pg_locks WHERE locktype = 'relation' AND relation = 'calls'::regclass AND mode = 'AccessExclusiveLock' AND NOT granted`);
      await holder.query('COMMIT');
      await rebuild;
      expect(await drop).toEqual([{ firstMonth: '2018-01', lastMonth: '2018-01', calls: 1 }]);
    } finally {
      await holder.end();
    }
    expect(await dailyTotals(rebuilding, ['15550001'], ...winter)).toEqual(before);
  });
});

/**
 * Resolves once a lock of this schema is waited for, as `waiting` (a query of pg_locks) finds it. No event
 * tells it, so it is read until it does, within a generous bound.
 */
async function waitForLockWait(waiting: string, values: unknown[] = []): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if ((await query(waiting, values)).length > 0) return;
    await sleep(50);
  }
  throw new Error(`no lock wait within 30 s: ${waiting}`);
}

/** Calls of three months in a version-9 database, as version 9's ingest left them: the rows and their daily rollups. */
const POPULATED_CALLS = 30_000;

async function createPopulatedVersion9Database(url: string): Promise<void> {
  const pool = new Pool({ connectionString: url });
  try {
    await migrate(pool, createLogger('silent'), MIGRATIONS.filter((migration) => migration.version <= 9));
    await pool.query(
      `INSERT INTO accounts (id, tool, login, password_hash, active, time_zone, credential_generation)
       VALUES ('dev:alice', 'dev', 'alice', 'x', true, 'UTC', 0)`,
    );
    await pool.query(`INSERT INTO phones (phone, account_id) VALUES ('15550001', 'dev:alice'), ('15550002', 'dev:alice')`);
    // One call every ~4 minutes from 1 December 2017 on, over the two numbers, some with a caller.
    await pool.query(
      `INSERT INTO calls (call_id, phone, started_at, log_events, loops, form_items, caller, region, duration_ms)
       SELECT 'call-' || n, CASE WHEN n % 3 = 0 THEN '15550002' ELSE '15550001' END, $1::bigint + n::bigint * 259000, n % 7, n % 2, n % 5,
         CASE WHEN n % 4 = 0 THEN '617555' || lpad((n % 1000)::text, 4, '0') END, CASE WHEN n % 4 = 0 THEN 'US-MA' END, n % 60 * 1000
       FROM generate_series(1, $2::integer) AS n`,
      [Date.parse('2017-12-01T00:00:00Z'), POPULATED_CALLS],
    );
    const byDay = `FROM calls GROUP BY phone, floor(started_at / 86400000.0)::integer`;
    await pool.query(
      `INSERT INTO daily_rollups (phone, day, calls, log_events, loops, form_items, duration_ms)
       SELECT phone, floor(started_at / 86400000.0)::integer, count(*), sum(log_events), sum(loops), sum(form_items), sum(duration_ms) ${byDay}`,
    );
    await pool.query(
      `INSERT INTO account_daily_rollups (account_id, day, calls, log_events, loops, form_items, duration_ms, transfers, transfer_ms,
         js_errors, fetch_errors, page_loads, page_load_ms)
       SELECT 'dev:alice', day, sum(calls), sum(log_events), sum(loops), sum(form_items), sum(duration_ms), 0, 0, 0, 0, 0, 0
       FROM daily_rollups GROUP BY day`,
    );
    await pool.query(
      `INSERT INTO caller_days (phone, day, caller)
       SELECT DISTINCT phone, floor(started_at / 86400000.0)::integer, caller FROM calls WHERE caller IS NOT NULL`,
    );
  } finally {
    await pool.end();
  }
}

/** Every row of calls, in call-id order, as one digest, and how many there are. */
const callsDigest = () =>
  query<{ calls: string; digest: string }>(`SELECT count(*) AS calls, md5(string_agg(row_to_json(c)::text, ',' ORDER BY c.call_id)) AS digest FROM calls c`);

describeWithPostgres('migration 010 on a populated database', () => {
  test('attaches every call as one partition, keeps duplicates refused and reports unchanged, and lets retention drop it whole', async () => {
    schema = await createTestSchema();
    await createPopulatedVersion9Database(schema.url);
    const before = await callsDigest();
    const rollupsBefore = await query('SELECT * FROM daily_rollups ORDER BY phone, day');
    expect(before[0]?.calls).toBe(String(POPULATED_CALLS));

    // Instances starting together: one migrates, the other waits for it and finds it done.
    const [alice] = await Promise.all([open(), open()]);
    expect(await callsDigest()).toEqual(before);
    expect(await query('SELECT DISTINCT tableoid::regclass::text AS partition FROM calls')).toEqual([{ partition: 'calls_before_2018_03' }]);
    expect(await partitions()).toEqual([{ name: 'calls_before_2018_03', bound: `FOR VALUES FROM (MINVALUE) TO ('${Date.parse('2018-03-01T00:00:00Z')}')` }]);
    expect(await query('SELECT count(*) AS ids FROM call_ids')).toEqual([{ ids: String(POPULATED_CALLS) }]);
    expect(await query('SELECT * FROM daily_rollups ORDER BY phone, day')).toEqual(rollupsBefore);

    const totalCalls = async () => (await dailyTotals(alice, { ownedBy: 'dev:alice' }, ...winter)).reduce((sum, totals) => sum + totals.calls, 0);
    expect(await totalCalls()).toBe(POPULATED_CALLS);
    const callersBefore = await alice.calls.distinctCallers(['15550001', '15550002'], [{ first: winter[0], last: winter[1] }]);
    expect(callersBefore).toEqual([250]);

    // Old ids are still duplicates; a new call of an old month goes into the old table, one of a later month into its own.
    expect(await alice.calls.add([call('call-1', '2017-12-01T00:04:19Z'), call('new-old', '2018-01-10T00:00:00Z'), call('new', '2018-03-10T00:00:00Z')])).toEqual({
      inserted: 2,
      duplicates: 1,
      unknownPhone: [],
    });
    expect(await query(`SELECT tableoid::regclass::text AS partition, call_id FROM calls WHERE call_id LIKE 'new%' ORDER BY call_id`)).toEqual([
      { partition: 'calls_2018_03', call_id: 'new' },
      { partition: 'calls_before_2018_03', call_id: 'new-old' },
    ]);

    // A rebuild reads both: the same calls, a day later each in Tokyo's days or not, all counted.
    await alice.accounts.update('dev:alice', { timeZone: 'Asia/Tokyo' });
    expect(await totalCalls()).toBe(POPULATED_CALLS + 2);

    // The old table goes whole once its last month is before the cut-off, and not before.
    expect(await alice.calls.dropRawCallsBefore(Date.parse('2018-02-01T00:00:00Z'), false)).toEqual([]);
    expect(await alice.calls.dropRawCallsBefore(Date.parse('2018-03-01T00:00:00Z'), false)).toEqual([
      { firstMonth: undefined, lastMonth: '2018-02', calls: POPULATED_CALLS + 1 },
    ]);
    expect(await totalCalls()).toBe(POPULATED_CALLS + 2);
    expect(await alice.calls.add([call('call-2', '2017-12-01T00:08:38Z')])).toEqual({ inserted: 0, duplicates: 1, unknownPhone: [] });
  });
});
