import { Client } from 'pg';
import { loadConfig } from '../../configuration';
import { callRecordSchema } from '../../domain/call-record';
import { createLogger } from '../../logger';
import { epochDayOf } from '../../time/calendar';
import { openStore } from '../open-store';
import { createPool } from './pool';
import { openPostgresStore } from './postgres-store';
import { createPgbouncerTestDatabase, describeWithPgbouncer, dropPgbouncerTestDatabases, type TestSchema } from '../../../test/support/services';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../../../test/support/dependency-timeout';
import { LogLines } from '../../../test/support/log-lines';
import { addAccount } from '../../../test/support/test-app';

// PgBouncer hands a client the server connection it released last (server_round_robin = 0, its default):
// a client whose statement follows another's lands on the server that one just used. Server connections
// outlive the test (the database is emptied for the next one), so each statement name is used by one test.

const named = (name: string) => ({ name, text: 'SELECT pg_backend_pid() AS pid' });

async function connected(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

const pid = async (client: Pick<Client, 'query'>, name: string) => (await client.query<{ pid: number }>(named(name))).rows[0]?.pid;

describeWithPgbouncer('behind PgBouncer in transaction mode', () => {
  let database: TestSchema;

  beforeEach(async () => {
    database = await createPgbouncerTestDatabase();
  });

  afterEach(() => database.drop());

  afterAll(dropPgbouncerTestDatabases);

  test('a connection of the pool runs its next statement, named by the code, on another server while the one it used is in another client\'s transaction', async () => {
    const pool = createPool(database.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS * 1000, 'transaction');
    const [connection, other] = [await pool.connect(), await connected(database.url)];
    try {
      const first = await pid(connection, 'backend');
      await other.query('BEGIN');
      expect((await other.query('SELECT pg_backend_pid() AS pid')).rows).toEqual([{ pid: first }]);
      const second = await pid(connection, 'backend');
      expect(second).toEqual(expect.any(Number));
      expect(second).not.toBe(first);
    } finally {
      connection.release();
      await other.end();
      await pool.end();
    }
  });

  test('a statement pg names is refused on the server another client named it on, as PgBouncer before 1.21 documents', async () => {
    const [one, two] = [await connected(database.url), await connected(database.url)];
    try {
      await pid(one, 'named-twice');
      await expect(pid(two, 'named-twice')).rejects.toMatchObject({ code: '42P05', message: 'prepared statement "named-twice" already exists' });
    } finally {
      await Promise.all([one.end(), two.end()]);
    }
  });

  test('a store opened without DATABASE_POOLER=transaction does not start: PgBouncer refuses the statement bound as a startup parameter', async () => {
    await expect(openPostgresStore(database.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS)).rejects.toThrow(
      'PostgreSQL (DATABASE_URL) answered but refused the connection: unsupported startup parameter: statement_timeout ' +
        '(behind PgBouncer in transaction mode, set DATABASE_POOLER=transaction: docs/deployment.md)',
    );
  });

  test('a store opened with DATABASE_POOLER=transaction warns at start when the database bounds statements less tightly than DEPENDENCY_TIMEOUT_SECONDS', async () => {
    const logs = new LogLines();
    const store = await openPostgresStore(database.url, createLogger('warn', logs), 1, 'transaction');
    await store.close();
    expect(logs.lines.map(({ level, msg, statementTimeoutMs, dependencyTimeoutMs }) => ({ level, msg, statementTimeoutMs, dependencyTimeoutMs }))).toEqual([
      {
        level: 40,
        msg: 'behind a transaction pooler, PostgreSQL bounds statements only by the statement_timeout of the role or database, which is not set within DEPENDENCY_TIMEOUT_SECONDS',
        statementTimeoutMs: DEPENDENCY_TIMEOUT_SECONDS * 1000,
        dependencyTimeoutMs: 1000,
      },
    ]);
  });

  test('the store of a configuration with DATABASE_POOLER=transaction serves through PgBouncer, and logs nothing when the database bounds statements within DEPENDENCY_TIMEOUT_SECONDS', async () => {
    const logs = new LogLines();
    const { storage } = loadConfig({ STORE: 'postgres', DATABASE_URL: database.url, DATABASE_POOLER: 'transaction' });
    const store = await openStore(storage, createLogger('warn', logs));
    try {
      const alice = { id: 'dev:alice', tool: 'dev', login: 'alice', passwordHash: 'hash-of-alice', active: true, timeZone: 'UTC', credentialGeneration: 0 } as const;
      await store.accounts.save(alice);
      await store.phones.assign('15550001', alice.id);
      expect(await store.accounts.find(alice.id)).toEqual(alice);
      expect(await store.phones.ownedBy(alice.id)).toEqual(['15550001']);
    } finally {
      await store.close();
    }
    expect(logs.lines).toEqual([]);
  });

  describe('a read replica behind PgBouncer (the primary through PgBouncer stands in for it: it holds every version)', () => {
    const ALICE = 'dev:alice';
    const PHONE = '15550001';
    const FEBRUARY = [epochDayOf({ year: 2018, month: 2, day: 1 }), epochDayOf({ year: 2018, month: 2, day: 28 })] as const;
    const call = (callId: string) =>
      callRecordSchema.parse({ call_id: callId, phone: PHONE, started_at: '2018-02-07T10:00:00Z', caller: '+12125551000', log_events: 1, loops: 0, form_items: 0 });

    test('with DATABASE_READ_POOLER unset and DATABASE_POOLER=transaction, answers a report\'s reads there, also after its server went to another client', async () => {
      const { storage } = loadConfig({ STORE: 'postgres', DATABASE_URL: database.url, DATABASE_READ_URL: database.url, DATABASE_POOLER: 'transaction' });
      const store = await openStore(storage, createLogger('silent'));
      const other = await connected(database.url);
      try {
        await addAccount(store, { phones: [PHONE] });
        await store.calls.add([call('pooled-replica-1'), call('pooled-replica-2')]);
        const { dataVersion } = await store.accounts.reportBasis(ALICE, undefined);
        const reads = store.replicas!.readingAfter({ accountId: ALICE, dataVersion });
        expect(await reads.regionTotals([PHONE], ...FEBRUARY)).toEqual([{ region: 'US-NY', calls: 2 }]);
        // The server the read used is now in another client's transaction: the next read runs on another.
        await other.query('BEGIN');
        expect(await reads.regionTotals([PHONE], ...FEBRUARY)).toEqual([{ region: 'US-NY', calls: 2 }]);
        expect(store.replicas!.counts()).toEqual([{ replica: 'replica-1', outcome: 'answered', count: 2 }]);
      } finally {
        await other.end();
        await store.close();
      }
    });

    test('with DATABASE_READ_POOLER=none, the replica is left aside with a warning naming the setting, and the primary answers the report', async () => {
      const logs = new LogLines();
      const { storage } = loadConfig({
        STORE: 'postgres',
        DATABASE_URL: database.url,
        DATABASE_READ_URL: database.url,
        DATABASE_POOLER: 'transaction',
        DATABASE_READ_POOLER: 'none',
      });
      const store = await openStore(storage, createLogger('warn', logs));
      try {
        await addAccount(store, { phones: [PHONE] });
        await store.calls.add([call('unpooled-replica-1')]);
        const { dataVersion } = await store.accounts.reportBasis(ALICE, undefined);
        expect(await store.replicas!.readingAfter({ accountId: ALICE, dataVersion }).regionTotals([PHONE], ...FEBRUARY)).toEqual([{ region: 'US-NY', calls: 1 }]);
        expect(store.replicas!.counts()).toEqual([{ replica: 'replica-1', outcome: 'failed', count: 1 }]);
      } finally {
        await store.close();
      }
      expect(logs.lines.map(({ level, msg, replica, hint, err }) => ({ level, msg, replica, hint, error: (err as { message?: string } | undefined)?.message }))).toEqual([
        {
          level: 40,
          msg: 'a read replica failed: the primary answers its reads until it answers again',
          replica: 'replica-1',
          hint: 'behind PgBouncer in transaction mode, set DATABASE_READ_POOLER=transaction: docs/deployment.md',
          error: 'unsupported startup parameter: statement_timeout',
        },
      ]);
    });
  });
});
