import pino from 'pino';
import { Client } from 'pg';
import { callRecordSchema } from '../domain/call-record';
import { createLogger } from '../logger';
import { createMemoryStore } from '../storage/memory/memory-store';
import { openPostgresStore } from '../storage/postgres/postgres-store';
import type { Store } from '../storage/store';
import { FakeClock } from '../../test/support/fake-clock';
import { LogLines } from '../../test/support/log-lines';
import { createTestSchema, describeWithPostgres } from '../../test/support/services';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../../test/support/dependency-timeout';
import { dailyTotals } from '../../test/support/day-totals';
import { epochDayOf } from '../time/calendar';
import { startMaintenance } from './maintenance';

const call = (callId: string, startedAt: string) =>
  callRecordSchema.parse({ call_id: callId, phone: '15550001', started_at: startedAt, log_events: 0, loops: 0, form_items: 0 });

async function storeWithCalls(): Promise<Store> {
  const store = createMemoryStore();
  await store.accounts.save({ id: 'dev:alice', tool: 'dev', login: 'alice', passwordHash: 'x', active: true, timeZone: 'UTC', credentialGeneration: 0 });
  await store.phones.assign('15550001', 'dev:alice');
  await store.calls.add([call('dec', '2017-12-20T12:00:00Z'), call('jan-1', '2018-01-10T12:00:00Z'), call('jan-2', '2018-01-11T12:00:00Z')]);
  return store;
}

describe("the server's upkeep of raw calls", () => {
  test('drops at start the months past RETENTION_MONTHS by the clock, each logged with its months and calls, and the next months at a later round', async () => {
    const store = await storeWithCalls();
    const logs = new LogLines();
    const clock = new FakeClock(Date.parse('2018-02-07T15:00:00Z'));
    const maintenance = await startMaintenance({ store, clock, logger: pino(logs), months: 1 });
    const dropped = (line: Record<string, unknown>) => line.msg === 'raw calls dropped by retention';
    expect(logs.lines.filter(dropped).map(({ firstMonth, lastMonth, calls }) => ({ firstMonth, lastMonth, calls }))).toEqual([
      { firstMonth: '2017-12', lastMonth: '2017-12', calls: 1 },
    ]);
    await maintenance.stop();

    clock.set(Date.parse('2018-03-01T00:00:00Z'));
    await (await startMaintenance({ store, clock, logger: pino(logs), months: 1 })).stop();
    expect(logs.lines.filter(dropped).map(({ lastMonth, calls }) => [lastMonth, calls])).toEqual([
      ['2017-12', 1],
      ['2018-01', 2],
    ]);
    expect(await store.calls.dropRawCallsBefore(Date.parse('2018-03-01T00:00:00Z'), true)).toEqual([]);
  });

  test('without RETENTION_MONTHS keeps every call', async () => {
    const store = await storeWithCalls();
    const clock = new FakeClock(Date.parse('2030-01-01T00:00:00Z'));
    await (await startMaintenance({ store, clock, logger: createLogger('silent'), months: undefined })).stop();
    expect((await store.calls.dropRawCallsBefore(clock.now(), true)).map((part) => part.calls)).toEqual([1, 2]);
  });
});

describeWithPostgres("the server's upkeep of raw calls on PostgreSQL", () => {
  test("makes the partitions of the current month and the next three by the app's clock, again as it moves", async () => {
    const schema = await createTestSchema();
    const store = await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS);
    const client = new Client({ connectionString: schema.url });
    await client.connect();
    try {
      const partitions = async () =>
        (await client.query<{ name: string }>(`SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'calls'::regclass ORDER BY 1`)).rows.map(
          (row) => row.name,
        );
      const clock = new FakeClock(Date.parse('2018-11-30T23:00:00Z'));
      await (await startMaintenance({ store, clock, logger: createLogger('silent'), months: 2 })).stop();
      expect(await partitions()).toEqual(['calls_2018_11', 'calls_2018_12', 'calls_2019_01', 'calls_2019_02']);
      clock.set(Date.parse('2019-02-01T00:00:00Z'));
      await (await startMaintenance({ store, clock, logger: createLogger('silent'), months: 2 })).stop();
      expect(await partitions()).toEqual(['calls_2018_12', 'calls_2019_01', 'calls_2019_02', 'calls_2019_03', 'calls_2019_04', 'calls_2019_05']);
    } finally {
      await client.end();
      await store.close();
      await schema.drop();
    }
  });

  test('sets a retention horizon later than any the system clock allows back at start, logged, so that a time-zone change moves the calls after it', async () => {
    const schema = await createTestSchema();
    const store = await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS);
    const client = new Client({ connectionString: schema.url });
    await client.connect();
    try {
      await store.accounts.save({ id: 'dev:alice', tool: 'dev', login: 'alice', passwordHash: 'x', active: true, timeZone: 'UTC', credentialGeneration: 0 });
      await store.phones.assign('15550001', 'dev:alice');
      const minute = (index: number) => String(index % 60).padStart(2, '0');
      await store.calls.add(Array.from({ length: 100 }, (_, index) => call(`late-${index}`, `2026-11-25T02:${minute(index)}:${minute(Math.floor(index / 60))}Z`)));
      // What retention by a sandbox's clock moved a year on recorded before it read the system's.
      await client.query('INSERT INTO retention_horizon (dropped_before) VALUES ($1)', [Date.parse('2027-11-01T00:00:00Z')]);
      const logs = new LogLines();
      const clock = new FakeClock(Date.parse('2026-11-27T20:00:00Z'));
      await (await startMaintenance({ store, clock, logger: pino(logs), months: 1 })).stop();
      expect(logs.lines.filter((line) => line.level === 40).map(({ msg, horizon, setTo }) => ({ msg, horizon, setTo }))).toEqual([
        { msg: 'retention horizon later than retention can reach by the system clock: set back', horizon: '2027-11-01T00:00:00.000Z', setTo: '2026-10-01T00:00:00.000Z' },
      ]);
      expect((await client.query('SELECT dropped_before FROM retention_horizon')).rows).toEqual([{ dropped_before: String(Date.parse('2026-10-01T00:00:00Z')) }]);

      await store.accounts.update('dev:alice', { timeZone: 'America/New_York' });
      const [november24, november25] = [epochDayOf({ year: 2026, month: 11, day: 24 }), epochDayOf({ year: 2026, month: 11, day: 25 })];
      expect((await dailyTotals(store, ['15550001'], november24, november25)).map((totals) => [totals.day, totals.calls])).toEqual([[november24, 100]]);
    } finally {
      await client.end();
      await store.close();
      await schema.drop();
    }
  });
});
