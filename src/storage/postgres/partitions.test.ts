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
import { queryOnce, waitForLockWait } from '../../../test/support/lock-waits';

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

const query = <Row extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<Row[]> => queryOnce<Row>(schema.url, text, values);

/** The partitions of `table` (calls unless named), by name, with their bounds as PostgreSQL writes them. */
const partitions = (table = 'calls') =>
  query<{ name: string; bound: string }>(
    `SELECT child.relname AS name, pg_get_expr(child.relpartbound, child.oid) AS bound
     FROM pg_inherits JOIN pg_class child ON child.oid = pg_inherits.inhrelid
     WHERE pg_inherits.inhparent = $1::regclass ORDER BY child.relname`,
    [table],
  );

/** The rollups of numbers, each partitioned by month (not region_days, which keeps only what was stored before migration 012, nor the accounts' days). */
const ROLLUP_TABLES = ['daily_rollups', 'caller_days', 'form_item_days'];

/** The days of the UTC months from `from` (YYYY-MM) to the one before `to`, as a rollup partition's bound. */
const dayRange = (from: string, to: string) => `FOR VALUES FROM (${Date.parse(`${from}-01T00:00:00Z`) / 86_400_000}) TO (${Date.parse(`${to}-01T00:00:00Z`) / 86_400_000})`;

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
    // pg_indexes of this test's schema only: it reads the definition of every index it lists, and another
    // file's schema may be dropped meanwhile ("could not open relation with OID").
    expect(await query(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'calls_2018_03'`)).toEqual([
      { indexdef: expect.stringMatching(/ON .*calls_2018_03 USING btree \(phone, started_at\)$/) },
    ]);
  });

  test('makes the partitions of every rollup for the months of its calls and the month either side, where local days can fall', async () => {
    schema = await createTestSchema();
    const store = await open();
    await withAlice(store);
    await store.accounts.update('dev:alice', { timeZone: 'Asia/Tokyo' });
    for (const table of ROLLUP_TABLES) expect(await partitions(table)).toEqual([]);
    // The last second of January in UTC is 1 February in Tokyo.
    await store.calls.add([call('a', '2018-01-31T23:59:59Z', '6175550123')]);
    await store.calls.prepareMonths(Date.parse('2018-03-07T15:00:00Z'), Date.parse('2018-03-08T00:00:00Z'));
    for (const table of ROLLUP_TABLES) {
      expect(await partitions(table)).toEqual(
        ['2017-12', '2018-01', '2018-02', '2018-03', '2018-04'].map((month, index, months) => ({
          name: `${table}_${month.replace('-', '_')}`,
          bound: dayRange(month, months[index + 1] ?? '2018-05'),
        })),
      );
    }
    expect(
      await query(
        `SELECT tableoid::regclass::text AS partition FROM daily_rollups UNION ALL SELECT tableoid::regclass::text FROM caller_days
         UNION ALL SELECT tableoid::regclass::text FROM account_daily_rollups`,
      ),
    ).toEqual(['daily_rollups_2018_02', 'caller_days_2018_02', 'account_daily_rollups'].map((partition) => ({ partition })));
    expect(await query('SELECT count(*)::integer AS rows FROM region_days')).toEqual([{ rows: 0 }]);
    expect(await query(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'caller_days_2018_02'`)).toEqual([
      { indexdef: expect.stringMatching(/^CREATE UNIQUE INDEX .* ON .*caller_days_2018_02 USING btree \(phone, day, caller\)$/) },
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
      await waitForLockWait(schema.url, `SELECT 1 FROM pg_locks WHERE locktype = 'transactionid' AND transactionid::text = $1 AND NOT granted`, [xid]);
      const drop = dropping.calls.dropRawCallsBefore(Date.parse('2018-02-01T00:00:00Z'), false);
      await waitForLockWait(schema.url, `SELECT 1 FROM pg_locks WHERE locktype = 'relation' AND relation = 'calls'::regclass AND mode = 'AccessExclusiveLock' AND NOT granted`);
      await holder.query('COMMIT');
      await rebuild;
      expect(await drop).toEqual([{ firstMonth: '2018-01', lastMonth: '2018-01', calls: 1 }]);
    } finally {
      await holder.end();
    }
    expect(await dailyTotals(rebuilding, ['15550001'], ...winter)).toEqual(before);
  });
});

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

async function migrateTo(url: string, version: number): Promise<void> {
  const pool = new Pool({ connectionString: url });
  try {
    await migrate(pool, createLogger('silent'), MIGRATIONS.filter((migration) => migration.version <= version));
  } finally {
    await pool.end();
  }
}

/** Every row of a table, in the order of its key, as one digest, and how many there are. */
const tableDigest = (table: string, key: string) =>
  query<{ rows: string; digest: string }>(`SELECT count(*) AS rows, md5(string_agg(row_to_json(t)::text, ',' ORDER BY ${key})) AS digest FROM ${table} t`);

const ROLLUP_KEYS: Record<string, string> = {
  daily_rollups: 'phone, day',
  caller_days: 'phone, day, caller',
  form_item_days: 'phone, day, form_item_id',
};

describeWithPostgres('migration 012 on a populated database', () => {
  test('attaches each rollup that has rows as one partition and drops the empty ones, keeping every row and report, and later months go to partitions of their own', async () => {
    schema = await createTestSchema();
    await createPopulatedVersion9Database(schema.url);
    await migrateTo(schema.url, 11);
    await query(
      `INSERT INTO region_days (phone, day, region, calls)
       SELECT phone, floor(started_at / 86400000.0)::integer, region, count(*) FROM calls WHERE region IS NOT NULL GROUP BY 1, 2, 3`,
    );
    const before = Object.fromEntries(await Promise.all(ROLLUP_TABLES.map(async (table) => [table, await tableDigest(table, ROLLUP_KEYS[table] as string)])));
    expect(before['daily_rollups'][0].rows).toBe('180');
    const regionsBefore = await tableDigest('region_days', 'phone, day, region');
    const phones = ['15550001', '15550002'];
    const placed = [{ region: 'US-MA', calls: POPULATED_CALLS / 4 }];

    const [alice] = await Promise.all([open(), open()]);
    for (const table of ['daily_rollups', 'form_item_days']) expect(await tableDigest(table, ROLLUP_KEYS[table] as string)).toEqual(before[table]);
    // The callers keep their rows, with no region or count: their calls are counted in region_days, which stays as it was.
    expect(await query('SELECT count(*) AS rows FROM caller_days WHERE region IS NULL AND calls IS NULL')).toEqual([{ rows: before['caller_days'][0].rows }]);
    expect(await tableDigest('region_days', 'phone, day, region')).toEqual(regionsBefore);
    expect(await alice.calls.regionTotals(phones, ...winter)).toEqual(placed);
    // The populated rollups hold days up to 28 February 2018; form_item_days was empty.
    for (const table of ['daily_rollups', 'caller_days']) {
      expect(await partitions(table)).toEqual([{ name: `${table}_before_2018_03`, bound: `FOR VALUES FROM (MINVALUE) TO (${epochDayOf({ year: 2018, month: 3, day: 1 })})` }]);
    }
    for (const table of ['region_days', 'form_item_days', 'account_daily_rollups']) expect(await partitions(table)).toEqual([]);
    expect(await query(`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'caller_days_before_2018_03'`)).toEqual([{ indexname: 'caller_days_before_2018_03_pkey' }]);

    const totals = await dailyTotals(alice, { ownedBy: 'dev:alice' }, ...winter);
    expect(totals.reduce((sum, day) => sum + day.calls, 0)).toBe(POPULATED_CALLS);
    expect(await alice.calls.distinctCallers(['15550001', '15550002'], [{ first: winter[0], last: winter[1] }])).toEqual([250]);

    // A call of an old day is added to the old partitions; one of March to March's.
    expect(await alice.calls.add([call('feb', '2018-02-10T00:00:00Z', '6175550999'), call('mar', '2018-03-10T00:00:00Z', '6175550999')])).toEqual({
      inserted: 2,
      duplicates: 0,
      unknownPhone: [],
    });
    expect(await query(`SELECT tableoid::regclass::text AS partition, day FROM daily_rollups WHERE day >= $1 AND calls > 0 ORDER BY day`, [epochDayOf({ year: 2018, month: 3, day: 1 })])).toEqual([
      { partition: 'daily_rollups_2018_03', day: epochDayOf({ year: 2018, month: 3, day: 10 }) },
    ]);
    expect(await query(`SELECT tableoid::regclass::text AS partition, region, calls FROM caller_days WHERE calls IS NOT NULL ORDER BY day`)).toEqual([
      { partition: 'caller_days_before_2018_03', region: 'US-MA', calls: '1' },
      { partition: 'caller_days_2018_03', region: 'US-MA', calls: '1' },
    ]);
    expect(await alice.calls.regionTotals(phones, ...winter)).toEqual([{ region: 'US-MA', calls: POPULATED_CALLS / 4 + 2 }]);
    expect((await dailyTotals(alice, { ownedBy: 'dev:alice' }, ...winter)).reduce((sum, day) => sum + day.calls, 0)).toBe(POPULATED_CALLS + 2);

    // A rebuild deletes and writes the days of every partition: in Tokyo's days, every call still counted once.
    await alice.accounts.update('dev:alice', { timeZone: 'Asia/Tokyo' });
    expect((await dailyTotals(alice, { ownedBy: 'dev:alice' }, ...winter)).reduce((sum, day) => sum + day.calls, 0)).toBe(POPULATED_CALLS + 2);
    expect(await alice.calls.distinctCallers(['15550001', '15550002'], [{ first: winter[0], last: winter[1] }])).toEqual([251]);
    // Its days moved from region_days to the callers' rows.
    expect(await query('SELECT count(*)::integer AS rows FROM region_days')).toEqual([{ rows: 0 }]);
    expect(await alice.calls.regionTotals(phones, ...winter)).toEqual([{ region: 'US-MA', calls: POPULATED_CALLS / 4 + 2 }]);
  });
});
