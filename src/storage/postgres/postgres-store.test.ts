import { Client } from 'pg';
import { callRecordSchema, type PathStep } from '../../domain/call-record';
import { createLogger } from '../../logger';
import { openPostgresStore } from './postgres-store';
import type { Store } from '../store';
import { epochDayOf } from '../../time/calendar';
import { describeWithPostgres, inSchema, type TestSchema } from '../../../test/support/services';
import { waitForLockWait } from '../../../test/support/lock-waits';
import { migratedTestSchema } from '../../../test/support/migrated-schemas';
import { describeStoreContract } from '../../../test/support/store-contract';
import { dailyTotals } from '../../../test/support/day-totals';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../../../test/support/dependency-timeout';

async function openTestStore(): Promise<Store> {
  const schema = await migratedTestSchema();
  const store = await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS, schema.pooler);
  return { ...store, close: () => store.close().then(() => schema.drop()) };
}

describeWithPostgres('PostgreSQL', () => {
  describeStoreContract('PostgreSQL', openTestStore);

  describe('form items', () => {
    let store: Store;

    beforeEach(async () => {
      store = await openTestStore();
      await store.accounts.save({
        id: 'dev:alice',
        tool: 'dev',
        login: 'alice',
        passwordHash: 'hash-of-alice',
        active: true,
        timeZone: 'UTC',
        credentialGeneration: 0,
      });
      await store.phones.assign('15550001', 'dev:alice');
    });

    afterEach(() => store.close());

    const february = [epochDayOf({ year: 2018, month: 2, day: 1 }), epochDayOf({ year: 2018, month: 2, day: 28 })] as const;

    const call = (callId: string, path: Partial<PathStep>[]) =>
      callRecordSchema.parse({ call_id: callId, phone: '15550001', started_at: '2018-02-07T10:00:00Z', log_events: 0, loops: 0, form_items: 0, path });

    const counted = (texts: Pick<PathStep, 'application' | 'page' | 'form' | 'item'>, visits: number): PathStep => ({
      ...texts,
      visits,
      filled: 0,
      nomatch: 0,
      noinput: 0,
      transfer: 0,
      disconnect: 0,
    });

    const byItem = (items: PathStep[]) => [...items].sort((a, b) => (a.item < b.item ? -1 : 1));

    test('keeps apart form items of four 500-character texts, 6,000 bytes together, that differ in their last character', async () => {
      // Characters that do not repeat, so that no compression brings the texts under an index entry's ~2.7 kB.
      const long = (seed: number, last: string) =>
        `${Array.from({ length: 499 }, (_, index) => String.fromCharCode(0x4e00 + (((seed * 499 + index) * 7919) % 20_000))).join('')}${last}`;
      const texts = { application: long(1, 'a'), page: long(2, 'p'), form: long(3, 'f'), item: long(4, '1') };
      await store.calls.add([call('c1', [{ ...texts, visits: 1 }, { ...texts, item: long(4, '2'), visits: 2 }])]);
      expect(byItem(await store.calls.formItemTotals(['15550001'], ...february, 10))).toEqual([
        counted(texts, 1),
        counted({ ...texts, item: long(4, '2') }, 2),
      ]);
    });

    test('counts every entry of concurrent batches whose paths share new form items in opposite orders', async () => {
      const items = Array.from({ length: 100 }, (_, index) => ({
        application: 'https://ivr.example.com/a.vxml',
        page: 'p',
        form: 'f',
        item: `item-${String(index).padStart(3, '0')}`,
      }));
      const paths = Array.from({ length: 8 }, (_, index) => (index % 2 === 0 ? items : [...items].reverse()).map((texts) => ({ ...texts, visits: 1 })));
      const results = await Promise.all(paths.map((path, index) => store.calls.add([call(`c${index}`, path)])));
      expect(results.map((result) => result.inserted)).toEqual(paths.map(() => 1));
      expect(byItem(await store.calls.formItemTotals(['15550001'], ...february, items.length))).toEqual(items.map((texts) => counted(texts, 8)));
    });

    test('stores each call once, with its form items, when concurrent batches share call ids in opposite orders', async () => {
      const texts = { application: 'https://ivr.example.com/a.vxml', page: 'p', form: 'f', item: 'shared' };
      const calls = Array.from({ length: 300 }, (_, index) => call(`c${String(index).padStart(3, '0')}`, [{ ...texts, visits: 1 }]));
      const batches = Array.from({ length: 6 }, (_, index) => (index % 2 === 0 ? calls : [...calls].reverse()));
      const results = await Promise.all(batches.map((batch) => store.calls.add(batch)));
      expect(results.reduce((sum, result) => sum + result.inserted, 0)).toBe(calls.length);
      expect(results.reduce((sum, result) => sum + result.duplicates, 0)).toBe(calls.length * (batches.length - 1));
      expect((await dailyTotals(store, ['15550001'], ...february)).map((totals) => totals.calls)).toEqual([calls.length]);
      expect(await store.calls.formItemTotals(['15550001'], ...february, 10)).toEqual([counted(texts, calls.length)]);
    });
  });

  describe('credential revocation', () => {
    const alice = { id: 'dev:alice', tool: 'dev', login: 'alice', passwordHash: 'hash-of-alice', active: true, timeZone: 'UTC', credentialGeneration: 0 } as const;
    let schema: TestSchema;
    let store: Store;

    beforeEach(async () => {
      schema = await migratedTestSchema();
      store = await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS, schema.pooler);
      await store.accounts.save(alice);
    });

    afterEach(async () => {
      await store.close();
      await schema.drop();
    });

    test('waits for a login storing its credential, and reads that credential', async () => {
      const direct = inSchema(schema.direct.databaseUrl, schema.direct.schema);
      // A login's save, uncommitted: it holds the account's row FOR KEY SHARE, as CredentialRepository.save does.
      const login = new Client({ connectionString: direct });
      await login.connect();
      try {
        await login.query('BEGIN');
        await login.query(
          `INSERT INTO temporary_credentials (login, password_digest, account_id, generation, last_used_at)
           SELECT $1, $2, id, 0, 5000 FROM accounts WHERE id = 'dev:alice' FOR KEY SHARE`,
          ['a'.repeat(32), 'b'.repeat(64)],
        );
        const xid = ((await login.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0] as { xid: string }).xid;

        const revoking = store.accounts.revokeCredentials('dev:alice', 0);
        await waitForLockWait(direct, `SELECT pid FROM pg_locks WHERE locktype = 'transactionid' AND transactionid::text = $1 AND NOT granted`, [xid]);
        await login.query('COMMIT');
        expect(await revoking).toEqual({ account: { ...alice, credentialGeneration: 1 }, revoked: [{ login: 'a'.repeat(32), lastUsedAt: 5000 }] });
      } finally {
        await login.end();
      }
    });
  });
});
