import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import request from 'supertest';
import { callRecordSchema, type CallRecord } from '../../domain/call-record';
import { createLogger } from '../../logger';
import { METRIC_NAMES } from '../../operations/app-metrics';
import { epochDayOf } from '../../time/calendar';
import { openPostgresStore } from './postgres-store';
import { openReplicaSet, REPLICA_RETRY_MS, type ReplicaSet } from './replicas';
import { readsOn } from './row-reads';
import type { Store } from '../store';
import { daysWithCalls, dayTotals } from '../../../test/support/day-totals';
import { createTestSchema, describeWithReplica, replicaCaughtUp, testDatabaseUrl, type TestSchema } from '../../../test/support/services';
import { proxyForUrl, startTcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy';
import { addAccount } from '../../../test/support/test-app';
import { buildOperationsApp, credentialsFrom, valueOf } from '../../../test/support/operations';
import { LogLines } from '../../../test/support/log-lines';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../../../test/support/dependency-timeout';
import {
  createDedicatedPostgres,
  createDedicatedReplica,
  describeWithServiceBinaries,
  requireServiceBinaries,
  type DedicatedService,
} from '../../../test/support/dedicated-services';

const ALICE = 'dev:alice';
const PHONE = '15550001';
const FEBRUARY = [epochDayOf({ year: 2018, month: 2, day: 1 }), epochDayOf({ year: 2018, month: 2, day: 28 })] as const;

let nextCall = 0;
const calls = (count: number, day = '07'): CallRecord[] =>
  Array.from({ length: count }, () => {
    nextCall += 1;
    return callRecordSchema.parse({
      call_id: `replica-call-${nextCall}`,
      phone: PHONE,
      started_at: `2018-02-${day}T10:00:00Z`,
      caller: `+1212555${String(1000 + (nextCall % 3)).padStart(4, '0')}`,
      log_events: 1,
      loops: 0,
      form_items: 0,
    });
  });

/** The replica URL with an application name of this test's own, which its connections show in pg_stat_activity. */
function named(url: string, applicationName: string): string {
  const withName = new URL(url);
  withName.searchParams.set('application_name', applicationName);
  return withName.toString();
}

async function firstRow<Row extends object>(url: string, text: string, values: unknown[] = []): Promise<Row | undefined> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows[0];
  } finally {
    await client.end();
  }
}

/** The last statement a connection of this application name ran on the server at `url`, if it has one there. */
const lastStatementOf = (url: string, applicationName: string): Promise<{ query: string } | undefined> =>
  firstRow<{ query: string }>(url, 'SELECT query FROM pg_stat_activity WHERE application_name = $1', [applicationName]);

describeWithReplica('reports read from a PostgreSQL read replica (TEST_DATABASE_REPLICA_URL)', () => {
  let schema: TestSchema;
  let store: Store;
  const applicationName = `replica-test-${randomBytes(6).toString('hex')}`;

  beforeEach(async () => {
    schema = await createTestSchema();
    store = await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS, 'none', {
      replicaUrls: [named(schema.replicaUrl as string, applicationName)],
    });
    await addAccount(store, { phones: [PHONE] });
    await store.calls.add(calls(3));
  });

  afterEach(async () => {
    await store.close();
    await schema.drop();
  });

  test('answers every read of a report from the replica once it holds the data version the account acknowledged', async () => {
    await replicaCaughtUp(schema.url, schema.replicaUrl as string);
    const { dataVersion } = await store.accounts.reportBasis(ALICE, undefined);
    const reads = store.replicas!.readingAfter({ accountId: ALICE, dataVersion });

    expect(daysWithCalls(await reads.dailyTotals({ ownedBy: ALICE }, ...FEBRUARY))).toEqual([dayTotals({ day: FEBRUARY[0] + 6, calls: 3, logEvents: 3 })]);
    expect(await reads.distinctCallers([PHONE], [{ first: FEBRUARY[0], last: FEBRUARY[1] }])).toEqual([3]);
    expect(await reads.regionTotals([PHONE], ...FEBRUARY)).toEqual([{ region: 'US-NY', calls: 3 }]);
    expect(await reads.formItemTotals([PHONE], ...FEBRUARY, 10)).toEqual([]);
    // Four reads, and the account's numbers once more for the callers of every number.
    expect(await reads.distinctCallers({ ownedBy: ALICE }, [{ first: FEBRUARY[0], last: FEBRUARY[1] }])).toEqual([3]);
    expect(store.replicas!.counts()).toEqual([{ replica: 'replica-1', outcome: 'answered', count: 6 }]);
    // What only the replica can show: its own connection, whose last statement was the read with its version check.
    expect((await lastStatementOf(schema.replicaUrl as string, applicationName))?.query).toContain('replica_seen_version');
    expect(await lastStatementOf(testDatabaseUrl as string, applicationName)).toBeUndefined();
  });

  test('reads from the primary what a replica that lacks the data version answers, so a report shows what was just written', async () => {
    await replicaCaughtUp(schema.url, schema.replicaUrl as string);
    // A version the account has not reached anywhere: the replica is behind it whatever it replayed.
    const { dataVersion } = await store.accounts.reportBasis(ALICE, undefined);
    const reads = store.replicas!.readingAfter({ accountId: ALICE, dataVersion: dataVersion + 1 });
    expect(await reads.regionTotals([PHONE], ...FEBRUARY)).toEqual([{ region: 'US-NY', calls: 3 }]);
    expect(store.replicas!.counts()).toEqual([{ replica: 'replica-1', outcome: 'behind', count: 1 }]);
  });

  test('keeps the order of the rows a statement sorts (distinct callers per span) through the version check', async () => {
    await store.calls.add(calls(1, '20'));
    await replicaCaughtUp(schema.url, schema.replicaUrl as string);
    const { dataVersion } = await store.accounts.reportBasis(ALICE, undefined);
    const reads = store.replicas!.readingAfter({ accountId: ALICE, dataVersion });
    const spans = [
      { first: FEBRUARY[0] + 19, last: FEBRUARY[0] + 19 },
      { first: FEBRUARY[0], last: FEBRUARY[1] },
      { first: FEBRUARY[0] + 10, last: FEBRUARY[0] + 12 },
      { first: FEBRUARY[0] + 6, last: FEBRUARY[0] + 6 },
    ];
    expect(await reads.distinctCallers([PHONE], spans)).toEqual([1, 3, 0, 3]);
    expect(store.replicas!.counts()).toEqual([{ replica: 'replica-1', outcome: 'answered', count: 1 }]);
  });

  test('shows the replica in GET /readyz as an optional check, and counts its reads in the metrics', async () => {
    await replicaCaughtUp(schema.url, schema.replicaUrl as string);
    const { app, metrics } = buildOperationsApp({ REPORT_CACHE_BYTES: '0' }, store);
    const readiness = await request(app).get('/readyz');
    expect([readiness.status, readiness.body]).toEqual([200, { status: 'ready', checks: { store: { status: 'ready' }, 'replica-1': { status: 'ready', optional: true } } }]);
    const credentials = await credentialsFrom(app);
    const events = await request(app).get('/api/events/20180207/20180207/day/ALL').auth(credentials.login, credentials.password);
    expect([events.status, events.body.calls]).toEqual([200, { [String(Date.UTC(2018, 1, 7) / 1000)]: 3 }]);
    expect(await valueOf(metrics, METRIC_NAMES.replicaReads, { replica: 'replica-1', outcome: 'answered' })).toBe(1);
  });
});

describeWithReplica('a read replica that stops answering', () => {
  let schema: TestSchema;
  let primary: Pool;
  let proxy: TcpProxy;
  /** The replica's URL through the proxy. */
  let proxiedUrl: string;
  let replicas: ReplicaSet;
  let logs: LogLines;
  let now = 0;

  beforeEach(async () => {
    schema = await createTestSchema();
    const store = await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS);
    await addAccount(store, { phones: [PHONE] });
    await store.calls.add(calls(2));
    await store.close();
    await replicaCaughtUp(schema.url, schema.replicaUrl as string);
    primary = new Pool({ connectionString: schema.url });
    const proxied = await proxyForUrl(schema.replicaUrl as string);
    proxy = proxied.proxy;
    proxiedUrl = proxied.url;
    logs = new LogLines();
    // One second: the shortest DEPENDENCY_TIMEOUT_SECONDS, so that a frozen replica holds the read no longer.
    replicas = openReplicaSet([proxied.url], readsOn(primary), { logger: createLogger('info', logs), timeoutMs: 1_000, now: () => now });
  });

  afterEach(async () => {
    proxy.thaw();
    await replicas.close();
    await proxy.close();
    await primary.end();
    await schema.drop();
  });

  const reads = () => replicas.reads.readingAfter({ accountId: ALICE, dataVersion: 1 });
  const regions = [{ region: 'US-NY', calls: 2 }];

  test('a replica that hangs: the read waits at most the dependency timeout, then the primary answers it; the replica is left aside, then tried again', async () => {
    expect(await reads().regionTotals([PHONE], ...FEBRUARY)).toEqual(regions);
    proxy.freeze();
    expect(await reads().regionTotals([PHONE], ...FEBRUARY)).toEqual(regions);
    // Left aside: the next read goes to the primary at once, not through another timeout.
    expect(await reads().regionTotals([PHONE], ...FEBRUARY)).toEqual(regions);
    proxy.thaw();
    now += REPLICA_RETRY_MS;
    expect(await reads().regionTotals([PHONE], ...FEBRUARY)).toEqual(regions);
    expect(replicas.reads.counts()).toEqual([
      { replica: 'replica-1', outcome: 'answered', count: 2 },
      { replica: 'replica-1', outcome: 'failed', count: 1 },
      { replica: 'none', outcome: 'set-aside', count: 1 },
    ]);
    await logs.waitFor('a read replica answers again');
    expect(logs.lines.map((line) => [line.msg, line.replica])).toEqual([
      ['a read replica failed: the primary answers its reads until it answers again', 'replica-1'],
      ['a read replica answers again', 'replica-1'],
    ]);
  });

  test('a replica that refuses connections: the primary answers at once, and GET /readyz stays ready, showing the replica unavailable', async () => {
    await proxy.cut();
    expect(await reads().regionTotals([PHONE], ...FEBRUARY)).toEqual(regions);
    expect(replicas.reads.counts()).toEqual([{ replica: 'replica-1', outcome: 'failed', count: 1 }]);
    const store = await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS, 'none', { replicaUrls: [proxiedUrl] });
    try {
      const { app } = buildOperationsApp({}, store);
      const readiness = await request(app).get('/readyz');
      expect([readiness.status, readiness.body]).toEqual([
        200,
        {
          status: 'ready',
          checks: { store: { status: 'ready' }, 'replica-1': { status: 'unavailable', reason: 'the check failed; the server log has the cause', optional: true } },
        },
      ]);
    } finally {
      await store.close();
    }
  });

  test('takes several replicas in turn, and leaves out the one that failed', async () => {
    const second = await proxyForUrl(schema.replicaUrl as string);
    const both = openReplicaSet([proxiedUrl, second.url], readsOn(primary), {
      logger: createLogger('silent'),
      timeoutMs: 1_000,
      now: () => now,
    });
    try {
      const read = () => both.reads.readingAfter({ accountId: ALICE, dataVersion: 1 }).regionTotals([PHONE], ...FEBRUARY);
      for (let index = 0; index < 4; index += 1) expect(await read()).toEqual(regions);
      await proxy.cut();
      for (let index = 0; index < 4; index += 1) expect(await read()).toEqual(regions);
      expect(both.reads.counts()).toEqual([
        { replica: 'replica-1', outcome: 'answered', count: 2 },
        { replica: 'replica-1', outcome: 'failed', count: 1 },
        { replica: 'replica-2', outcome: 'answered', count: 5 },
      ]);
    } finally {
      await both.close();
      await second.proxy.close();
    }
  });
});

describeWithServiceBinaries('a replica behind its primary (a dedicated pair, the WAL stream through a proxy the test holds)', () => {
  let primary: DedicatedService;
  let replica: DedicatedService;
  let walStream: TcpProxy;

  beforeAll(async () => {
    const { postgresBin } = requireServiceBinaries();
    primary = await createDedicatedPostgres(postgresBin);
    await primary.start();
    const address = new URL(primary.url);
    walStream = await startTcpProxy(address.hostname, Number(address.port));
    replica = await createDedicatedReplica(postgresBin, walStream.address);
    await replica.start();
  });

  afterAll(async () => {
    walStream?.thaw();
    await replica?.destroy();
    await walStream?.close();
    await primary?.destroy();
  });

  test('a report right after an import shows the import, read from the primary while the replica has not replayed it, then from the replica again', async () => {
    const store = await openPostgresStore(primary.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS, 'none', { replicaUrls: [replica.url] });
    try {
      const { app, metrics } = buildOperationsApp({ REPORT_CACHE_BYTES: '0', ADMIN_TOKEN: 'an-admin-token-of-16+' }, store);
      await addAccount(store, { phones: [PHONE] });
      await store.calls.add(calls(2));
      await replicaCaughtUp(primary.url, replica.url);
      const credentials = await credentialsFrom(app);
      const volume = () => request(app).get('/api/volume/20180207/20180207/day/ALL').auth(credentials.login, credentials.password);
      const day = String(Date.UTC(2018, 1, 7) / 1000);
      expect((await volume()).body.calls).toEqual({ [day]: 2 });

      walStream.freeze();
      const imported = await request(app)
        .post('/admin/calls')
        .set('Authorization', 'Bearer an-admin-token-of-16+')
        .set('Content-Type', 'application/x-ndjson')
        .send(`${JSON.stringify({ call_id: 'after-the-freeze', phone: PHONE, started_at: '2018-02-07T12:00:00Z', log_events: 0, loops: 0, form_items: 0 })}\n`);
      expect(imported.status).toBe(200);
      expect((await volume()).body.calls).toEqual({ [day]: 3 });
      expect(await firstRow<{ calls: string }>(replica.url, 'SELECT sum(calls) AS calls FROM daily_rollups')).toEqual({ calls: '2' });

      walStream.thaw();
      await replicaCaughtUp(primary.url, replica.url);
      expect((await volume()).body.calls).toEqual({ [day]: 3 });
      const outcomes = await Promise.all(
        (['answered', 'behind'] as const).map((outcome) => valueOf(metrics, METRIC_NAMES.replicaReads, { replica: 'replica-1', outcome })),
      );
      expect(outcomes).toEqual([2, 1]);
    } finally {
      await store.close();
    }
  });
});
