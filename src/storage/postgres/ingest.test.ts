import { Client } from 'pg';
import { callRecordSchema, type CallRecord } from '../../domain/call-record';
import { createLogger } from '../../logger';
import { epochDayOf } from '../../time/calendar';
import { openPostgresStore } from './postgres-store';
import type { Store } from '../store';
import { dailyTotals } from '../../../test/support/day-totals';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../../../test/support/dependency-timeout';
import { queryOnce, waitForLockWait } from '../../../test/support/lock-waits';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../../test/support/services';

let schema: TestSchema;
let store: Store;

beforeEach(async () => {
  schema = await createTestSchema();
  store = await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS);
  await store.accounts.save({ id: 'dev:alice', tool: 'dev', login: 'alice', passwordHash: 'x', active: true, timeZone: 'UTC', credentialGeneration: 0 });
  await store.phones.assign('15550001', 'dev:alice');
  await store.phones.assign('15550002', 'dev:alice');
});

afterEach(async () => {
  await store.close();
  await schema.drop();
});

const call = (callId: string, phone: string, caller: string): CallRecord =>
  callRecordSchema.parse({ call_id: callId, phone, started_at: '2018-02-10T12:00:00Z', log_events: 2, loops: 0, form_items: 1, caller });

const day = epochDayOf({ year: 2018, month: 2, day: 10 });

const dataVersion = async (): Promise<number> =>
  Number((await queryOnce<{ version: string }>(schema.url, `SELECT version FROM account_data_versions WHERE account_id = 'dev:alice'`))[0]?.version);

describeWithPostgres('PostgreSQL ingest of batches that share an account\'s day', () => {
  test('a batch meets another batch of its account\'s day only in its last statement, after every other row of it is written', async () => {
    await store.calls.add([call('first', '15550001', '6175550100')]);
    const versionBefore = await dataVersion();
    // Another batch of the same account and day, uncommitted: it holds the account's day.
    const holder = new Client({ connectionString: schema.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`UPDATE account_daily_rollups SET calls = calls WHERE account_id = 'dev:alice' AND day = $1`, [day]);
      const xid = ((await holder.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0] as { xid: string }).xid;

      const adding = store.calls.add([call('second', '15550002', '6175550200'), call('third', '15550001', '6175550300')]);
      const waiter = await waitForLockWait<{ pid: number }>(
        schema.url,
        `SELECT pid FROM pg_locks WHERE locktype = 'transactionid' AND transactionid::text = $1 AND NOT granted`,
        [xid],
      );
      const [waiting] = await queryOnce<{ query: string }>(schema.url, 'SELECT query FROM pg_stat_activity WHERE pid = $1', [waiter.pid]);
      expect(waiting?.query.trimStart().startsWith('WITH add_to_account_days AS (')).toBe(true);
      // Its calls, call ids and the rollups of its numbers are written, and held until its commit.
      expect(await holder.query(`SELECT count(*)::integer AS waiting FROM pg_locks WHERE pid = $1 AND mode = 'RowExclusiveLock' AND relation = 'caller_days_2018_02'::regclass`, [waiter.pid])).toMatchObject({
        rows: [{ waiting: 1 }],
      });

      await holder.query('COMMIT');
      expect(await adding).toEqual({ inserted: 2, duplicates: 0, unknownPhone: [] });
    } finally {
      await holder.end();
    }
    expect(await dailyTotals(store, { ownedBy: 'dev:alice' }, day, day)).toEqual([expect.objectContaining({ day, calls: 3, logEvents: 6, formItems: 3 })]);
    expect(await store.calls.distinctCallers({ ownedBy: 'dev:alice' }, [{ first: day, last: day }])).toEqual([3]);
    expect(await dataVersion()).toBe(versionBefore + 1);
  });

  test('batches of the same account\'s days stored at once from several connections sum exactly, and each raises the account\'s data version', async () => {
    const batches = Array.from({ length: 6 }, (_, batch) =>
      Array.from({ length: 50 }, (__, index) => call(`b${batch}-${index}`, index % 2 === 0 ? '15550001' : '15550002', `61755${String(batch * 100 + index).padStart(5, '0')}`)),
    );
    const versionBefore = await dataVersion();
    const results = await Promise.all(batches.map((batch) => store.calls.add(batch)));
    expect(results.every((result) => result.inserted === 50)).toBe(true);
    expect(await dailyTotals(store, { ownedBy: 'dev:alice' }, day, day)).toEqual([expect.objectContaining({ day, calls: 300, logEvents: 600, formItems: 300 })]);
    expect(await dailyTotals(store, ['15550001'], day, day)).toEqual([expect.objectContaining({ day, calls: 150 })]);
    expect(await dataVersion()).toBe(versionBefore + batches.length);
  });
});
