import { callRecordSchema, type CallRecord, type CallRecordInput, type PathStep } from '../../src/domain/call-record';
import { accountId, type Account } from '../../src/accounts/account';
import type { RegionCalls, ScenarioRequest, Store, StoredScenario } from '../../src/storage/store';
import { drawAnswers } from '../../src/storage/scenario-draws';
import { dailyTotals, dayTotals } from './day-totals';
import { epochDayOf } from '../../src/time/calendar';

/**
 * The behaviour every Store must have. Each implementation's test file calls this with a factory that
 * returns a fresh, empty store.
 */
export function describeStoreContract(name: string, createStore: () => Promise<Store>): void {
  describe(`${name} store contract`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await createStore();
    });

    afterEach(() => store.close());

    const account = (login: string, timeZone = 'UTC', active = true): Account => ({
      id: accountId('dev', login),
      tool: 'dev',
      login,
      passwordHash: `hash-of-${login}`,
      active,
      timeZone,
      credentialGeneration: 0,
    });

    const record = (callId: string, phone: string, startedAt: string, logEvents = 1, loops = 2, formItems = 3): CallRecord =>
      callRecordSchema.parse({ call_id: callId, phone, started_at: startedAt, log_events: logEvents, loops, form_items: formItems });

    const day = (year: number, month: number, dayOfMonth: number) => epochDayOf({ year, month, day: dayOfMonth });

    /** alice in New York with 15550001 and 15550002, bob in Tokyo with 15550003. */
    async function aliceAndBob(): Promise<void> {
      await store.accounts.save(account('alice', 'America/New_York'));
      await store.accounts.save(account('bob', 'Asia/Tokyo'));
      await store.phones.assign('15550001', 'dev:alice');
      await store.phones.assign('15550002', 'dev:alice');
      await store.phones.assign('15550003', 'dev:bob');
    }


    describe('accounts', () => {
      test('finds a saved account by id and lists it', async () => {
        await store.accounts.save(account('alice'));
        expect(await store.accounts.find('dev:alice')).toEqual(account('alice'));
        expect(await store.accounts.find('dev:nobody')).toBeUndefined();
        expect(await store.accounts.list()).toEqual([account('alice')]);
      });

      test('replaces an account saved again under the same id', async () => {
        await store.accounts.save(account('alice'));
        await store.accounts.save(account('alice', 'Europe/Paris', false));
        expect(await store.accounts.find('dev:alice')).toEqual({ ...account('alice', 'Europe/Paris', false), credentialGeneration: 1 });
        expect(await store.accounts.list()).toHaveLength(1);
      });

      test('never moves the credential generation back when an account is saved again (a seed file saves 0)', async () => {
        await store.accounts.save({ ...account('alice'), credentialGeneration: 2 });
        await store.accounts.save(account('alice', 'Europe/Paris'));
        expect(await store.accounts.find('dev:alice')).toEqual({ ...account('alice', 'Europe/Paris'), credentialGeneration: 2 });
        await store.accounts.save({ ...account('alice'), credentialGeneration: 3 });
        expect((await store.accounts.find('dev:alice'))?.credentialGeneration).toBe(3);
      });

      test('creates an account only when its id is new', async () => {
        expect(await store.accounts.create(account('alice'))).toBe(true);
        expect(await store.accounts.create(account('alice', 'Europe/Paris', false))).toBe(false);
        expect(await store.accounts.find('dev:alice')).toEqual(account('alice'));
      });

      test('of concurrent creations under one id, exactly one creates', async () => {
        const results = await Promise.all(
          Array.from({ length: 5 }, (_, index) => store.accounts.create({ ...account('alice'), passwordHash: `hash-${index}` })),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await store.accounts.list()).toHaveLength(1);
      });

      test('updates only the fields given and returns the account', async () => {
        await store.accounts.save(account('alice', 'UTC', false));
        expect(await store.accounts.update('dev:alice', { active: true })).toEqual(account('alice', 'UTC'));
        expect(await store.accounts.update('dev:alice', { passwordHash: 'new-hash' })).toEqual({ ...account('alice', 'UTC'), passwordHash: 'new-hash' });
        expect(await store.accounts.update('dev:alice', { timeZone: 'Asia/Tokyo' })).toEqual({
          ...account('alice', 'Asia/Tokyo'),
          passwordHash: 'new-hash',
        });
        expect(await store.accounts.update('dev:alice', {})).toEqual({ ...account('alice', 'Asia/Tokyo'), passwordHash: 'new-hash' });
        expect(await store.accounts.find('dev:alice')).toEqual({ ...account('alice', 'Asia/Tokyo'), passwordHash: 'new-hash' });
      });

      test('moves the credential generation on when an active account is made inactive, by update or save, and not back when it is reactivated', async () => {
        await store.accounts.save(account('alice'));
        expect(await store.accounts.update('dev:alice', { active: false })).toEqual({ ...account('alice', 'UTC', false), credentialGeneration: 1 });
        expect(await store.accounts.update('dev:alice', { active: false })).toEqual({ ...account('alice', 'UTC', false), credentialGeneration: 1 });
        expect(await store.accounts.update('dev:alice', { active: true })).toEqual({ ...account('alice'), credentialGeneration: 1 });
        await store.accounts.save(account('alice', 'UTC', false));
        expect(await store.accounts.find('dev:alice')).toEqual({ ...account('alice', 'UTC', false), credentialGeneration: 2 });
        await store.accounts.save(account('alice'));
        expect(await store.accounts.find('dev:alice')).toEqual({ ...account('alice'), credentialGeneration: 2 });
        expect(await store.accounts.update('dev:alice', { active: false, revokeCredentials: true })).toEqual({
          ...account('alice', 'UTC', false),
          credentialGeneration: 4,
        });
      });

      test('keeps every one of concurrent updates of different fields', async () => {
        await store.accounts.save(account('alice', 'UTC'));
        await Promise.all([
          store.accounts.update('dev:alice', { active: false }),
          store.accounts.update('dev:alice', { passwordHash: 'new-hash' }),
          store.accounts.update('dev:alice', { timeZone: 'Europe/Paris' }),
        ]);
        expect(await store.accounts.find('dev:alice')).toEqual({
          ...account('alice', 'Europe/Paris', false),
          passwordHash: 'new-hash',
          credentialGeneration: 1,
        });
      });

      test('moves the credential generation on by one for each revocation, with the other changes in one step', async () => {
        await store.accounts.save({ ...account('alice'), credentialGeneration: 4 });
        expect(await store.accounts.update('dev:alice', { revokeCredentials: true })).toEqual({ ...account('alice'), credentialGeneration: 5 });
        expect(await store.accounts.update('dev:alice', { passwordHash: 'new-hash', revokeCredentials: true })).toEqual({
          ...account('alice'),
          passwordHash: 'new-hash',
          credentialGeneration: 6,
        });
        expect(await store.accounts.update('dev:alice', { timeZone: 'Europe/Paris', revokeCredentials: false })).toEqual({
          ...account('alice', 'Europe/Paris'),
          passwordHash: 'new-hash',
          credentialGeneration: 6,
        });
      });

      test('counts every one of concurrent revocations', async () => {
        await store.accounts.save(account('alice'));
        await Promise.all(Array.from({ length: 5 }, () => store.accounts.update('dev:alice', { revokeCredentials: true })));
        expect((await store.accounts.find('dev:alice'))?.credentialGeneration).toBe(5);
      });

      test('updates nothing and answers undefined for an unknown account', async () => {
        expect(await store.accounts.update('dev:nobody', { active: false })).toBeUndefined();
        expect(await store.accounts.list()).toEqual([]);
      });
    });

    describe('phones', () => {
      beforeEach(async () => {
        await store.accounts.save(account('alice'));
        await store.accounts.save(account('bob'));
      });

      test('assigns a free number, reports one already owned, and refuses one owned by another', async () => {
        expect(await store.phones.assign('15550001', 'dev:alice')).toBe('assigned');
        expect(await store.phones.assign('15550001', 'dev:alice')).toBe('already-owned');
        expect(await store.phones.assign('15550001', 'dev:bob')).toBe('owned-by-another');
        expect(await store.phones.ownedBy('dev:alice')).toEqual(['15550001']);
        expect(await store.phones.ownedBy('dev:bob')).toEqual([]);
      });

      test('lists an account numbers in ascending order', async () => {
        for (const phone of ['15550003', '15550001', '15550002']) await store.phones.assign(phone, 'dev:alice');
        expect(await store.phones.ownedBy('dev:alice')).toEqual(['15550001', '15550002', '15550003']);
      });

      test('assigns nothing to an account that does not exist', async () => {
        expect(await store.phones.assign('15550001', 'dev:nobody')).toBe('no-account');
        expect(await store.phones.assign('15550001', 'dev:alice')).toBe('assigned');
      });

      test('releases a number only for its owner', async () => {
        await store.phones.assign('15550001', 'dev:alice');
        expect(await store.phones.release('15550001', 'dev:bob')).toBe(false);
        expect(await store.phones.release('15550001', 'dev:alice')).toBe(true);
        expect(await store.phones.ownedBy('dev:alice')).toEqual([]);
        expect(await store.phones.assign('15550001', 'dev:bob')).toBe('assigned');
      });
    });

    describe('temporary credentials', () => {
      const credential = { login: 'a'.repeat(32), passwordDigest: 'b'.repeat(64), accountId: 'dev:alice', generation: 3, lastUsedAt: 1_000 };

      beforeEach(() => store.accounts.save(account('alice')));

      test('finds a saved credential by login, with the account as it is now', async () => {
        expect(await store.credentials.save(credential)).toBe(true);
        await store.accounts.update('dev:alice', { active: false, revokeCredentials: true });
        expect(await store.credentials.findWithAccount(credential.login)).toEqual({
          credential,
          account: { ...account('alice'), active: false, credentialGeneration: 2 },
        });
        expect(await store.credentials.findWithAccount('c'.repeat(32))).toBeUndefined();
      });

      test('saves no credential of an account that does not exist', async () => {
        expect(await store.credentials.save({ ...credential, accountId: 'dev:nobody' })).toBe(false);
        expect(await store.credentials.findWithAccount(credential.login)).toBeUndefined();
      });

      test('records the last use', async () => {
        await store.credentials.save(credential);
        await store.credentials.touch(credential.login, 5_000);
        await store.credentials.touch('c'.repeat(32), 5_000);
        expect((await store.credentials.findWithAccount(credential.login))?.credential).toEqual({ ...credential, lastUsedAt: 5_000 });
        expect(await store.credentials.findWithAccount('c'.repeat(32))).toBeUndefined();
      });

      test('removes only credentials idle since before the cutoff', async () => {
        await store.credentials.save(credential);
        await store.credentials.save({ ...credential, login: 'd'.repeat(32), lastUsedAt: 3_000 });
        expect(await store.credentials.removeIdleSince(2_000)).toBe(1);
        expect(await store.credentials.findWithAccount(credential.login)).toBeUndefined();
        expect(await store.credentials.findWithAccount('d'.repeat(32))).toBeDefined();
      });

      describe('revocation', () => {
        const issued = (login: string, accountId: string, generation: number, lastUsedAt: number) => ({
          login: login.repeat(32),
          passwordDigest: 'b'.repeat(64),
          accountId,
          generation,
          lastUsedAt,
        });
        const byLogin = (revoked: readonly { login: string }[] | undefined) => [...(revoked ?? [])].sort((a, b) => (a.login < b.login ? -1 : 1));

        test('moves the generation on and reads the credentials of the one it ended last used after the instant given, which stay stored', async () => {
          await store.accounts.save({ ...account('alice', 'Asia/Tokyo'), credentialGeneration: 1 });
          await store.accounts.save({ ...account('bob'), credentialGeneration: 1 });
          for (const stored of [
            issued('a', 'dev:alice', 1, 5_000),
            issued('c', 'dev:alice', 1, 3_000),
            issued('d', 'dev:alice', 1, 2_000),
            issued('e', 'dev:alice', 0, 9_000),
            issued('f', 'dev:bob', 1, 9_000),
          ]) {
            expect(await store.credentials.save(stored)).toBe(true);
          }

          const revocation = await store.accounts.revokeCredentials('dev:alice', 2_000);
          expect(revocation?.account).toEqual({ ...account('alice', 'Asia/Tokyo'), credentialGeneration: 2 });
          expect(byLogin(revocation?.revoked)).toEqual([
            { login: 'a'.repeat(32), lastUsedAt: 5_000 },
            { login: 'c'.repeat(32), lastUsedAt: 3_000 },
          ]);
          expect(await store.accounts.find('dev:alice')).toEqual({ ...account('alice', 'Asia/Tokyo'), credentialGeneration: 2 });
          expect(await store.accounts.find('dev:bob')).toEqual({ ...account('bob'), credentialGeneration: 1 });
          expect((await store.credentials.findWithAccount('a'.repeat(32)))?.credential).toEqual(issued('a', 'dev:alice', 1, 5_000));

          expect(await store.accounts.revokeCredentials('dev:alice', 0)).toEqual({
            account: { ...account('alice', 'Asia/Tokyo'), credentialGeneration: 3 },
            revoked: [],
          });
        });

        test('of concurrent revocations, each moves the generation on, and the first reads the credential', async () => {
          await store.credentials.save(issued('a', 'dev:alice', 0, 5_000));
          const revocations = await Promise.all(Array.from({ length: 5 }, () => store.accounts.revokeCredentials('dev:alice', 0)));
          expect(revocations.map((revocation) => revocation?.revoked.length).sort()).toEqual([0, 0, 0, 0, 1]);
          expect(revocations.map((revocation) => revocation?.account.credentialGeneration).sort()).toEqual([1, 2, 3, 4, 5]);
          expect(revocations.find((revocation) => revocation?.revoked.length === 1)?.account.credentialGeneration).toBe(1);
          expect((await store.accounts.find('dev:alice'))?.credentialGeneration).toBe(5);
        });

        test('answers undefined for an unknown account, and changes nothing', async () => {
          expect(await store.accounts.revokeCredentials('dev:nobody', 0)).toBeUndefined();
          expect(await store.accounts.list()).toEqual([account('alice')]);
        });
      });
    });

    describe('calls and daily rollups', () => {
      beforeEach(async () => {
        await aliceAndBob();
      });

      test('adds new records, counts repeated call ids once, and rejects records of unowned numbers', async () => {
        const result = await store.calls.add([
          record('c1', '15550001', '2018-02-07T10:15:00-05:00'),
          record('c2', '19990000', '2018-02-07T10:15:00-05:00'),
          record('c1', '15550001', '2018-02-07T10:15:00-05:00'),
          record('c3', '15550002', '2018-02-07T11:15:00-05:00'),
        ]);
        expect(result).toEqual({ inserted: 2, duplicates: 1, unknownPhone: [1] });
        expect(await store.calls.add([record('c3', '15550002', '2018-02-07T11:15:00-05:00')])).toEqual({
          inserted: 0,
          duplicates: 1,
          unknownPhone: [],
        });
      });

      test('sums the calls of each local day of the owner time zone, for the phones asked, in day order', async () => {
        await store.calls.add([
          record('c1', '15550001', '2018-02-07T23:30:00-05:00', 1, 1, 1),
          record('c2', '15550002', '2018-02-08T04:30:00Z', 10, 20, 30),
          record('c3', '15550001', '2018-02-05T12:00:00-05:00', 2, 0, 0),
          record('c4', '15550003', '2018-02-07T20:00:00Z', 100, 100, 100),
        ]);
        expect(await dailyTotals(store, ['15550001', '15550002'], day(2018, 2, 1), day(2018, 2, 10))).toEqual([
          dayTotals({ day: day(2018, 2, 5), calls: 1, logEvents: 2, loops: 0, formItems: 0 }),
          dayTotals({ day: day(2018, 2, 7), calls: 2, logEvents: 11, loops: 21, formItems: 31 }),
        ]);
        expect(await dailyTotals(store, ['15550003'], day(2018, 2, 1), day(2018, 2, 10))).toEqual([
          dayTotals({ day: day(2018, 2, 8), calls: 1, logEvents: 100, loops: 100, formItems: 100 }),
        ]);
      });

      test('leaves out days outside the range and phones not asked for', async () => {
        await store.calls.add([
          record('c1', '15550001', '2018-02-01T12:00:00-05:00'),
          record('c2', '15550001', '2018-02-03T12:00:00-05:00'),
          record('c3', '15550002', '2018-02-02T12:00:00-05:00'),
        ]);
        expect(await dailyTotals(store, ['15550001'], day(2018, 2, 2), day(2018, 2, 3))).toEqual([
          dayTotals({ day: day(2018, 2, 3), calls: 1, logEvents: 1, loops: 2, formItems: 3 }),
        ]);
        expect(await dailyTotals(store, [], day(2018, 2, 1), day(2018, 2, 3))).toEqual([]);
      });

      test('rebuilds the rollups of the account phones in its new time zone when the time zone changes', async () => {
        // 03:30 UTC on 8 February is the evening of the 7th in New York and midday of the 8th in Tokyo.
        await store.calls.add([
          record('c1', '15550001', '2018-02-08T03:30:00Z', 1, 0, 0),
          record('c2', '15550002', '2018-02-08T04:30:00Z', 2, 0, 0),
        ]);
        await store.accounts.save(account('alice', 'Asia/Tokyo'));
        await store.calls.add([record('c3', '15550001', '2018-02-08T05:30:00Z', 4, 0, 0)]);
        expect(await dailyTotals(store, ['15550001', '15550002'], day(2018, 2, 1), day(2018, 2, 10))).toEqual([
          dayTotals({ day: day(2018, 2, 8), calls: 3, logEvents: 7, loops: 0, formItems: 0 }),
        ]);
      });

      test('rebuilds the rollups of the account phones when an update changes the time zone', async () => {
        await store.calls.add([record('c1', '15550001', '2018-02-08T03:30:00Z', 1, 0, 0)]);
        await store.accounts.update('dev:alice', { timeZone: 'Asia/Tokyo' });
        await store.calls.add([record('c2', '15550001', '2018-02-08T05:30:00Z', 4, 0, 0)]);
        expect(await dailyTotals(store, ['15550001'], day(2018, 2, 1), day(2018, 2, 10))).toEqual([
          dayTotals({ day: day(2018, 2, 8), calls: 2, logEvents: 5, loops: 0, formItems: 0 }),
        ]);
      });

      test('rebuilds in a new time zone exactly the rollups that calls added in that zone get, across DST changes', async () => {
        const starts = [
          Date.UTC(1970, 0, 1, 0, 10),
          ...Array.from({ length: 200 }, (_, index) => Date.UTC(2018, 2, 9) + index * 37 * 60_000),
          ...Array.from({ length: 200 }, (_, index) => Date.UTC(2018, 10, 2) + index * 37 * 60_000),
        ];
        const series = (prefix: string, phone: string) =>
          starts.map((startedAt, index) => ({ callId: `${prefix}${index}`, phone, startedAt, logEvents: index % 5, loops: 1, formItems: index % 3 }));
        await store.calls.add(series('ny-', '15550001'));
        await store.calls.add(series('tokyo-', '15550003'));
        await store.accounts.update('dev:bob', { timeZone: 'America/New_York' });
        const all = [day(1969, 12, 31), day(2018, 12, 31)] as const;
        const inNewYork = await dailyTotals(store, ['15550001'], ...all);
        expect(inNewYork[0]).toEqual(dayTotals({ day: day(1969, 12, 31), calls: 1, logEvents: 0, loops: 1, formItems: 0 }));
        expect(inNewYork).toHaveLength(1 + 6 + 6);
        expect(await dailyTotals(store, ['15550003'], ...all)).toEqual(inNewYork);
      });

      test('keeps the rollups when an account is saved again with the same time zone', async () => {
        await store.calls.add([record('c1', '15550001', '2018-02-08T03:30:00Z')]);
        await store.accounts.save({ ...account('alice', 'America/New_York'), active: false });
        expect(await dailyTotals(store, ['15550001'], day(2018, 2, 1), day(2018, 2, 10))).toEqual([
          dayTotals({ day: day(2018, 2, 7), calls: 1, logEvents: 1, loops: 2, formItems: 3 }),
        ]);
      });

      test('moves a number calls with it, rolled up in the time zone of its new owner', async () => {
        await store.calls.add([record('c1', '15550001', '2018-02-08T03:30:00Z')]);
        await store.phones.release('15550001', 'dev:alice');
        expect(await store.phones.assign('15550001', 'dev:bob')).toBe('assigned');
        expect(await dailyTotals(store, ['15550001'], day(2018, 2, 1), day(2018, 2, 10))).toEqual([
          dayTotals({ day: day(2018, 2, 8), calls: 1, logEvents: 1, loops: 2, formItems: 3 }),
        ]);
        expect(await store.calls.add([record('c1', '15550001', '2018-02-08T03:30:00Z')])).toEqual({
          inserted: 0,
          duplicates: 1,
          unknownPhone: [],
        });
      });
    });

    describe('reads over every number of an account', () => {
      beforeEach(async () => {
        await store.accounts.save(account('alice', 'America/New_York'));
        await store.accounts.save(account('bob', 'Asia/Tokyo'));
        await store.accounts.save(account('carol'));
        await store.phones.assign('15550001', 'dev:alice');
        await store.phones.assign('15550002', 'dev:alice');
        await store.phones.assign('15550003', 'dev:bob');
      });

      const february = [day(2018, 2, 1), day(2018, 2, 28)] as const;
      const alice = { ownedBy: 'dev:alice' };
      const bob = { ownedBy: 'dev:bob' };

      test('sums the days of the numbers the account owns at the time, in its time zone, as numbers come and go', async () => {
        await store.calls.add([
          record('c1', '15550001', '2018-02-07T10:00:00-05:00', 1, 0, 0),
          record('c2', '15550002', '2018-02-07T11:00:00-05:00', 10, 0, 0),
          record('c3', '15550002', '2018-02-08T03:30:00Z', 100, 0, 0),
          record('c4', '15550003', '2018-02-07T12:00:00+09:00', 1000, 0, 0),
        ]);
        expect(await dailyTotals(store, alice, ...february)).toEqual([
          dayTotals({ day: day(2018, 2, 7), calls: 3, logEvents: 111, loops: 0, formItems: 0 }),
        ]);
        expect(await dailyTotals(store, { ownedBy: 'dev:carol' }, ...february)).toEqual([]);
        expect(await dailyTotals(store, { ownedBy: 'dev:nobody' }, ...february)).toEqual([]);

        await store.phones.release('15550002', 'dev:alice');
        expect(await dailyTotals(store, alice, ...february)).toEqual([dayTotals({ day: day(2018, 2, 7), calls: 1, logEvents: 1, loops: 0, formItems: 0 })]);
        await store.phones.assign('15550002', 'dev:bob');
        expect(await dailyTotals(store, bob, ...february)).toEqual([
          dayTotals({ day: day(2018, 2, 7), calls: 1, logEvents: 1000, loops: 0, formItems: 0 }),
          dayTotals({ day: day(2018, 2, 8), calls: 2, logEvents: 110, loops: 0, formItems: 0 }),
        ]);
        await store.accounts.update('dev:bob', { timeZone: 'America/New_York' });
        expect(await dailyTotals(store, bob, ...february)).toEqual([
          dayTotals({ day: day(2018, 2, 6), calls: 1, logEvents: 1000, loops: 0, formItems: 0 }),
          dayTotals({ day: day(2018, 2, 7), calls: 2, logEvents: 110, loops: 0, formItems: 0 }),
        ]);
        expect(await dailyTotals(store, alice, day(2018, 2, 8), day(2018, 2, 8))).toEqual([]);
      });

      test('reads callers, regions and form items of the numbers the account owns, as listing them does', async () => {
        const path = [{ application: 'https://ivr.example.com/a.vxml', page: 'p', form: 'f', item: 'i', visits: 1 }];
        const v2 = (callId: string, phone: string, caller: string) =>
          callRecordSchema.parse({ call_id: callId, phone, started_at: '2018-02-07T10:00:00-05:00', log_events: 0, loops: 0, form_items: 0, caller, path });
        await store.calls.add([v2('c1', '15550001', '6175550123'), v2('c2', '15550002', '+442083661177'), v2('c3', '15550003', '2125550123')]);
        const spans = [{ first: february[0], last: february[1] }];
        const listed = ['15550001', '15550002'];
        expect(await store.calls.distinctCallers(alice, spans)).toEqual([2]);
        expect(await store.calls.regionTotals(alice, ...february)).toEqual(expect.arrayContaining(await store.calls.regionTotals(listed, ...february)));
        expect(await store.calls.regionTotals(alice, ...february)).toHaveLength(2);
        expect(await store.calls.formItemTotals(alice, ...february, 10)).toEqual([{ ...path[0], visits: 2, filled: 0, nomatch: 0, noinput: 0, transfer: 0, disconnect: 0 }]);
        expect(await store.calls.distinctCallers({ ownedBy: 'dev:carol' }, spans)).toEqual([0]);
        expect(await store.calls.regionTotals({ ownedBy: 'dev:carol' }, ...february)).toEqual([]);
        expect(await store.calls.formItemTotals({ ownedBy: 'dev:carol' }, ...february, 10)).toEqual([]);
      });

      test('keeps the account sums equal to those of its numbers through concurrent imports, releases, assignments and a time-zone change', async () => {
        const batch = (prefix: string) =>
          Array.from({ length: 60 }, (_, index) =>
            record(`${prefix}-${index}`, ['15550001', '15550002', '15550003'][index % 3] as string, `2018-02-${String(1 + (index % 20)).padStart(2, '0')}T12:00:00Z`, index, 1, 0),
          );
        await Promise.all([
          ...['a', 'b', 'c', 'd'].map((prefix) => store.calls.add(batch(prefix))),
          store.phones.release('15550002', 'dev:alice').then(() => store.phones.assign('15550002', 'dev:bob')),
          store.accounts.update('dev:bob', { timeZone: 'Europe/Paris' }),
          store.phones.release('15550003', 'dev:bob').then(() => store.phones.assign('15550003', 'dev:alice')),
        ]);
        for (const owner of [alice, bob]) {
          expect(await dailyTotals(store, owner, ...february)).toEqual(await dailyTotals(store, await store.phones.ownedBy(owner.ownedBy), ...february));
        }
      });
    });

    describe('deleting an account', () => {
      const february = [day(2018, 2, 1), day(2018, 2, 28)] as const;
      const alice = { ownedBy: 'dev:alice' };
      const bob = { ownedBy: 'dev:bob' };
      const credentialOf = (accountId: string, login: string) => ({ login, passwordDigest: 'b'.repeat(64), accountId, generation: 0, lastUsedAt: 1_000 });
      const version2 = (callId: string, phone: string) =>
        callRecordSchema.parse({
          call_id: callId,
          phone,
          started_at: '2018-02-07T10:00:00-05:00',
          log_events: 1,
          loops: 0,
          form_items: 0,
          caller: '6175550123',
          path: [{ application: 'https://ivr.example.com/a.vxml', page: 'p', form: 'f', item: 'i', visits: 1 }],
        });

      beforeEach(async () => {
        await aliceAndBob();
        await store.calls.add([
          record('c1', '15550001', '2018-02-07T10:00:00-05:00'),
          version2('c2', '15550002'),
          record('c3', '15550003', '2018-02-07T12:00:00+09:00'),
          version2('c4', '15550003'),
        ]);
        await store.credentials.save(credentialOf('dev:alice', 'a'.repeat(32)));
        await store.credentials.save(credentialOf('dev:bob', 'b'.repeat(32)));
      });

      test('deletes the account, its numbers, their calls and rollups, and its credentials, and leaves the other accounts as they were', async () => {
        const spans = [{ first: february[0], last: february[1] }];
        const bobBefore = {
          days: await dailyTotals(store, bob, ...february),
          callers: await store.calls.distinctCallers(bob, spans),
          formItems: await store.calls.formItemTotals(bob, ...february, 10),
        };
        expect(await store.accounts.remove('dev:alice')).toBe(true);

        expect(await store.accounts.find('dev:alice')).toBeUndefined();
        expect((await store.accounts.list()).map(({ id }) => id)).toEqual(['dev:bob']);
        expect(await store.phones.ownedBy('dev:alice')).toEqual([]);
        expect(await store.credentials.findWithAccount('a'.repeat(32))).toBeUndefined();
        expect((await store.credentials.findWithAccount('b'.repeat(32)))?.account?.id).toBe('dev:bob');
        for (const scope of [alice, ['15550001', '15550002']]) {
          expect(await dailyTotals(store, scope, ...february)).toEqual([]);
          expect(await store.calls.distinctCallers(scope, spans)).toEqual([0]);
          expect(await store.calls.regionTotals(scope, ...february)).toEqual([]);
          expect(await store.calls.formItemTotals(scope, ...february, 10)).toEqual([]);
        }
        expect({
          days: await dailyTotals(store, bob, ...february),
          callers: await store.calls.distinctCallers(bob, spans),
          formItems: await store.calls.formItemTotals(bob, ...february, 10),
        }).toEqual(bobBefore);
        expect(await store.calls.add([record('c9', '15550001', '2018-02-08T10:00:00-05:00')])).toEqual({ inserted: 0, duplicates: 0, unknownPhone: [0] });
      });

      test('answers false for an account that does not exist, or no longer does, and changes nothing', async () => {
        expect(await store.accounts.remove('dev:nobody')).toBe(false);
        expect(await store.accounts.remove('dev:alice')).toBe(true);
        expect(await store.accounts.remove('dev:alice')).toBe(false);
        expect((await store.accounts.list()).map(({ id }) => id)).toEqual(['dev:bob']);
      });

      test('frees its numbers, which bring no call of it to their next owner; its call ids stay known', async () => {
        const bobBefore = await dailyTotals(store, bob, ...february);
        await store.accounts.remove('dev:alice');
        expect(await store.phones.assign('15550001', 'dev:bob')).toBe('assigned');
        expect(await dailyTotals(store, bob, ...february)).toEqual(bobBefore);
        expect(await store.calls.add([record('c1', '15550001', '2018-02-07T10:00:00-05:00')])).toEqual({ inserted: 0, duplicates: 1, unknownPhone: [] });
        expect(await store.calls.add([record('c5', '15550001', '2018-02-07T10:00:00+09:00')])).toEqual({ inserted: 1, duplicates: 0, unknownPhone: [] });
        expect(await dailyTotals(store, ['15550001'], ...february)).toEqual([dayTotals({ day: day(2018, 2, 7), calls: 1, logEvents: 1, loops: 2, formItems: 3 })]);
      });

      test('moves the data version on, so that an account created again under the id starts beyond it, with nothing of the old one', async () => {
        const before = (await store.accounts.reportBasis('dev:alice', undefined)).dataVersion;
        await store.accounts.remove('dev:alice');
        const after = (await store.accounts.reportBasis('dev:alice', undefined)).dataVersion;
        expect(after).toBeGreaterThan(before);
        expect(await store.accounts.create(account('alice', 'UTC'))).toBe(true);
        expect(await store.phones.ownedBy('dev:alice')).toEqual([]);
        expect(await dailyTotals(store, alice, ...february)).toEqual([]);
        expect(await store.credentials.findWithAccount('a'.repeat(32))).toBeUndefined();
        expect((await store.accounts.reportBasis('dev:alice', undefined)).dataVersion).toBeGreaterThanOrEqual(after);
      });

      test('of concurrent deletions of one account, exactly one deletes', async () => {
        expect((await Promise.all([store.accounts.remove('dev:alice'), store.accounts.remove('dev:alice')])).sort()).toEqual([false, true]);
      });

      test('leaves no credential, number or call of the account behind through concurrent logins, imports, assignments, a release and a time-zone change', async () => {
        const batch = (prefix: string) =>
          Array.from({ length: 60 }, (_, index) =>
            record(`${prefix}-${index}`, ['15550001', '15550002', '15550003'][index % 3] as string, `2018-02-${String(1 + (index % 20)).padStart(2, '0')}T12:00:00Z`),
          );
        const [saved, assigned, released, , , , removed] = await Promise.all([
          store.credentials.save(credentialOf('dev:alice', 'c'.repeat(32))),
          store.phones.assign('15550009', 'dev:alice'),
          store.phones.release('15550002', 'dev:alice'),
          store.calls.add(batch('d')),
          store.calls.add(batch('e')),
          store.accounts.update('dev:alice', { timeZone: 'Asia/Tokyo' }),
          store.accounts.remove('dev:alice'),
        ]);
        expect(removed).toBe(true);
        expect([true, false]).toContain(saved);
        expect(['assigned', 'no-account']).toContain(assigned);
        expect([true, false]).toContain(released);
        expect(await store.credentials.findWithAccount('c'.repeat(32))).toBeUndefined();
        expect(await store.phones.ownedBy('dev:alice')).toEqual([]);
        expect(await store.phones.assign('15550009', 'dev:bob')).toBe('assigned');
        // A number released before the deletion keeps its calls, as any released number does.
        expect(await dailyTotals(store, ['15550001', '15550009'], ...february)).toEqual([]);
        expect(await dailyTotals(store, bob, ...february)).toEqual(await dailyTotals(store, await store.phones.ownedBy('dev:bob'), ...february));
      });
    });

    describe('report basis: data versions and ownership', () => {
      test('moves an account data version on with each change to what its reports show, and only then', async () => {
        expect(await store.accounts.reportBasis('dev:nobody', undefined)).toEqual({ dataVersion: 0, ownsPhone: true });
        await store.accounts.save(account('alice', 'America/New_York'));
        await store.accounts.save(account('bob'));
        await store.phones.assign('15550001', 'dev:alice');
        await store.phones.assign('15550003', 'dev:bob');
        const version = async (id: string) => (await store.accounts.reportBasis(id, undefined)).dataVersion;
        const versions = async () => [await version('dev:alice'), await version('dev:bob')];
        const [alice0, bob0] = await versions();

        await store.calls.add([record('c1', '15550001', '2018-02-07T10:15:00-05:00')]);
        const [alice1, bob1] = await versions();
        expect(alice1).toBeGreaterThan(alice0 as number);
        expect(bob1).toBe(bob0);

        await store.calls.add([record('c1', '15550001', '2018-02-07T10:15:00-05:00'), record('c9', '19990000', '2018-02-07T10:15:00-05:00')]);
        await store.accounts.update('dev:alice', { active: false, passwordHash: 'another', revokeCredentials: true });
        await store.accounts.save({ ...account('alice', 'America/New_York'), active: true });
        expect(await versions()).toEqual([alice1, bob1]);

        await store.accounts.update('dev:alice', { timeZone: 'Asia/Tokyo' });
        const [alice2] = await versions();
        expect(alice2).toBeGreaterThan(alice1 as number);
        await store.accounts.save(account('alice', 'Europe/Paris'));
        const [alice3] = await versions();
        expect(alice3).toBeGreaterThan(alice2 as number);

        await store.phones.release('15550001', 'dev:alice');
        const [alice4] = await versions();
        expect(alice4).toBeGreaterThan(alice3 as number);
        await store.phones.assign('15550001', 'dev:bob');
        const [alice5, bob5] = await versions();
        expect(alice5).toBe(alice4);
        expect(bob5).toBeGreaterThan(bob1 as number);
        expect(await store.phones.release('15550001', 'dev:alice')).toBe(false);
        expect((await versions())[0]).toBe(alice4);
      });

      test('tells whether the account owns the number asked about, with the same data version', async () => {
        await store.accounts.save(account('alice'));
        await store.accounts.save(account('bob'));
        await store.phones.assign('15550001', 'dev:alice');
        await store.phones.assign('15550002', 'dev:bob');
        const { dataVersion } = await store.accounts.reportBasis('dev:alice', undefined);
        expect(await store.accounts.reportBasis('dev:alice', '15550001')).toEqual({ dataVersion, ownsPhone: true });
        expect(await store.accounts.reportBasis('dev:alice', '15550002')).toEqual({ dataVersion, ownsPhone: false });
        expect(await store.accounts.reportBasis('dev:alice', '15559999')).toEqual({ dataVersion, ownsPhone: false });
        expect(await store.accounts.reportBasis('dev:nobody', '15550001')).toEqual({ dataVersion: 0, ownsPhone: false });
        await store.phones.release('15550001', 'dev:alice');
        expect((await store.accounts.reportBasis('dev:alice', '15550001')).ownsPhone).toBe(false);
      });
    });

    describe('version-2 rollups: sums, distinct callers, regions and form items', () => {
      beforeEach(async () => {
        await aliceAndBob();
      });

      const v2 = (callId: string, phone: string, startedAt: string, fields: Partial<CallRecordInput> = {}): CallRecord =>
        callRecordSchema.parse({ call_id: callId, phone, started_at: startedAt, log_events: 0, loops: 0, form_items: 0, ...fields });

      const step = (item: string, counters: Partial<Record<'visits' | 'filled' | 'nomatch' | 'noinput' | 'transfer' | 'disconnect', number>> = {}) => ({
        application: 'https://ivr.example.com/start.vxml',
        page: 'main.vxml',
        form: 'main_menu',
        item,
        ...counters,
      });

      const formItem = (item: string, counters: Partial<PathStep> = {}): PathStep => ({
        application: 'https://ivr.example.com/start.vxml',
        page: 'main.vxml',
        form: 'main_menu',
        item,
        visits: 0,
        filled: 0,
        nomatch: 0,
        noinput: 0,
        transfer: 0,
        disconnect: 0,
        ...counters,
      });

      const byItem = (items: PathStep[]) => [...items].sort((a, b) => (a.item < b.item ? -1 : 1));
      const byRegion = (regions: RegionCalls[]) => [...regions].sort((a, b) => (a.region < b.region ? -1 : 1));
      const february = [day(2018, 2, 1), day(2018, 2, 28)] as const;

      test('sums durations to the millisecond, transfers, errors and page loads per local day; a version-1 record adds 0', async () => {
        await store.calls.add([
          v2('c1', '15550001', '2018-02-07T10:00:00-05:00', {
            duration_seconds: 61.5,
            transfers: 1,
            transfer_seconds: 30.25,
            js_errors: 2,
            fetch_errors: 1,
            page_loads: 4,
            page_load_seconds: 1.2,
          }),
          v2('c2', '15550002', '2018-02-07T23:59:59-05:00', { duration_seconds: 0.0004, page_loads: 1, page_load_seconds: 0.3 }),
          record('c3', '15550001', '2018-02-07T12:00:00-05:00'),
        ]);
        expect(await dailyTotals(store, ['15550001', '15550002'], ...february)).toEqual([
          dayTotals({
            day: day(2018, 2, 7),
            calls: 3,
            logEvents: 1,
            loops: 2,
            formItems: 3,
            durationMs: 61_500,
            transfers: 1,
            transferMs: 30_250,
            jsErrors: 2,
            fetchErrors: 1,
            pageLoads: 5,
            pageLoadMs: 1_500,
          }),
        ]);
      });

      test('counts each caller once per span across days and numbers, whatever form the number came in, and no call without a caller', async () => {
        await store.calls.add([
          v2('c1', '15550001', '2018-02-05T10:00:00-05:00', { caller: '6175550123' }),
          v2('c2', '15550002', '2018-02-09T10:00:00-05:00', { caller: '+16175550123' }),
          v2('c3', '15550001', '2018-02-12T10:00:00-05:00', { caller: '16175550123' }),
          v2('c4', '15550001', '2018-02-12T11:00:00-05:00', { caller: '+442083661177' }),
          v2('c5', '15550001', '2018-02-12T12:00:00-05:00'),
          v2('c6', '15550003', '2018-02-12T12:00:00+09:00', { caller: '12125550123' }),
        ]);
        const spans = [
          { first: day(2018, 2, 5), last: day(2018, 2, 11) },
          { first: day(2018, 2, 12), last: day(2018, 2, 18) },
          { first: day(2018, 2, 1), last: day(2018, 2, 28) },
          { first: day(2018, 3, 1), last: day(2018, 3, 31) },
        ];
        expect(await store.calls.distinctCallers(['15550001', '15550002'], spans)).toEqual([1, 2, 2, 0]);
        expect(await store.calls.distinctCallers(['15550002'], spans)).toEqual([1, 0, 1, 0]);
        expect(await store.calls.distinctCallers([], spans)).toEqual([0, 0, 0, 0]);
      });

      test('counts calls per region of their caller over the range and the numbers asked, without calls that have no caller', async () => {
        await store.calls.add([
          v2('c1', '15550001', '2018-02-05T10:00:00-05:00', { caller: '6175550123' }),
          v2('c2', '15550002', '2018-02-09T10:00:00-05:00', { caller: '6175550199' }),
          v2('c3', '15550001', '2018-02-12T10:00:00-05:00', { caller: '18005550123' }),
          v2('c4', '15550001', '2018-02-12T11:00:00-05:00', { caller: '+442083661177' }),
          v2('c5', '15550001', '2018-02-12T12:00:00-05:00'),
          v2('c6', '15550001', '2018-03-01T12:00:00-05:00', { caller: '4165550123' }),
          v2('c7', '15550003', '2018-02-12T12:00:00+09:00', { caller: '12125550123' }),
        ]);
        expect(byRegion(await store.calls.regionTotals(['15550001', '15550002'], ...february))).toEqual([
          { region: 'GB', calls: 1 },
          { region: 'US-MA', calls: 2 },
          { region: 'US-TOLLFREE', calls: 1 },
        ]);
        expect(await store.calls.regionTotals(['15550002'], day(2018, 2, 10), day(2018, 2, 28))).toEqual([]);
      });

      test('sums each form item counters over the calls and days of the range, up to the limit asked', async () => {
        await store.calls.add([
          v2('c1', '15550001', '2018-02-05T10:00:00-05:00', {
            path: [step('selection', { visits: 2, filled: 1, nomatch: 1 }), step('confirm', { visits: 1, disconnect: 1 })],
          }),
          v2('c2', '15550002', '2018-02-09T10:00:00-05:00', { path: [step('selection', { visits: 1, filled: 1, transfer: 1 }), step('selection', { visits: 1, noinput: 1 })] }),
          v2('c3', '15550001', '2018-03-01T10:00:00-05:00', { path: [step('selection', { visits: 5 })] }),
          v2('c4', '15550003', '2018-02-09T10:00:00+09:00', { path: [step('selection', { visits: 7 })] }),
        ]);
        expect(byItem(await store.calls.formItemTotals(['15550001', '15550002'], ...february, 10))).toEqual([
          formItem('confirm', { visits: 1, disconnect: 1 }),
          formItem('selection', { visits: 4, filled: 2, nomatch: 1, noinput: 1, transfer: 1 }),
        ]);
        expect(await store.calls.formItemTotals(['15550001', '15550002'], ...february, 1)).toHaveLength(1);
        expect(await store.calls.formItemTotals(['15550002'], day(2018, 2, 10), day(2018, 2, 28), 10)).toEqual([]);
      });

      test('keeps form items apart that differ in any of application, page, form or item, texts as given', async () => {
        const texts = { application: 'https://ivr.example.com/a.vxml', page: 'p', form: 'f', item: 'i' };
        await store.calls.add([
          v2('c1', '15550001', '2018-02-05T10:00:00-05:00', {
            path: [
              { ...texts, visits: 1 },
              { ...texts, application: 'https://ivr.example.com/b.vxml', visits: 2 },
              { ...texts, page: 'q', visits: 3 },
              { ...texts, form: 'g', visits: 4 },
              { ...texts, item: 'j', visits: 5 },
              { ...texts, item: 'Ünïcödé 名前 😀', visits: 6 },
            ],
          }),
        ]);
        const items = await store.calls.formItemTotals(['15550001'], ...february, 10);
        expect(items.map((entry) => entry.visits).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
        expect(items.find((entry) => entry.visits === 6)?.item).toBe('Ünïcödé 名前 😀');
      });

      test('counts nothing twice for a call id added again', async () => {
        const call = v2('c1', '15550001', '2018-02-05T10:00:00-05:00', { caller: '6175550123', duration_seconds: 10, path: [step('selection', { visits: 1 })] });
        await store.calls.add([call, call]);
        await store.calls.add([call]);
        expect(await dailyTotals(store, ['15550001'], ...february)).toEqual([dayTotals({ day: day(2018, 2, 5), calls: 1, durationMs: 10_000 })]);
        expect(await store.calls.regionTotals(['15550001'], ...february)).toEqual([{ region: 'US-MA', calls: 1 }]);
        expect(await store.calls.formItemTotals(['15550001'], ...february, 10)).toEqual([formItem('selection', { visits: 1 })]);
      });

      test('keeps apart call ids that differ only in quotes, backslashes, commas, braces, spaces or the case of NULL', async () => {
        const callIds = ['x', '"x"', '\\x', 'x\\', 'x,y', '{x}', 'NULL', 'null', ' x ', "x'y", 'x\u00a0y'];
        const calls = callIds.map((callId) => v2(callId, '15550001', '2018-02-05T10:00:00-05:00'));
        expect(await store.calls.add(calls)).toEqual({ inserted: callIds.length, duplicates: 0, unknownPhone: [] });
        expect(await store.calls.add(calls)).toEqual({ inserted: 0, duplicates: callIds.length, unknownPhone: [] });
        expect(await dailyTotals(store, ['15550001'], ...february)).toEqual([dayTotals({ day: day(2018, 2, 5), calls: callIds.length })]);
      });

      // 03:30 UTC on 8 February is the evening of the 7th in New York and midday of the 8th in Tokyo.
      const lateEvening = async () => {
        await store.calls.add([
          v2('c1', '15550001', '2018-02-08T03:30:00Z', { caller: '6175550123', duration_seconds: 60, path: [step('selection', { visits: 1 })] }),
          v2('c2', '15550002', '2018-02-07T12:00:00Z', { caller: '6175550123' }),
        ]);
      };

      const expectBucketedOn = async (phones: string[], seventh: { callers: number }, eighth: { calls: number; callers: number }) => {
        const spans = [
          { first: day(2018, 2, 7), last: day(2018, 2, 7) },
          { first: day(2018, 2, 8), last: day(2018, 2, 8) },
        ];
        expect(await store.calls.distinctCallers(phones, spans)).toEqual([seventh.callers, eighth.callers]);
        expect(await store.calls.regionTotals(phones, day(2018, 2, 8), day(2018, 2, 8))).toEqual(
          eighth.calls === 0 ? [] : [{ region: 'US-MA', calls: eighth.calls }],
        );
        expect(await store.calls.formItemTotals(phones, day(2018, 2, 8), day(2018, 2, 8), 10)).toEqual(
          eighth.calls === 0 ? [] : [formItem('selection', { visits: 1 })],
        );
        const days = await dailyTotals(store, phones, day(2018, 2, 8), day(2018, 2, 8));
        expect(days.map((totalsOfDay) => totalsOfDay.durationMs)).toEqual(eighth.calls === 0 ? [] : [60_000]);
      };

      test('re-buckets callers, regions, form items and sums when the time zone changes', async () => {
        await lateEvening();
        await expectBucketedOn(['15550001', '15550002'], { callers: 1 }, { calls: 0, callers: 0 });
        await store.accounts.update('dev:alice', { timeZone: 'Asia/Tokyo' });
        await expectBucketedOn(['15550001', '15550002'], { callers: 1 }, { calls: 1, callers: 1 });
      });

      test('re-buckets every rollup of a number that moves to an owner in another time zone', async () => {
        await lateEvening();
        await store.phones.release('15550001', 'dev:alice');
        await store.phones.assign('15550001', 'dev:bob');
        await expectBucketedOn(['15550001'], { callers: 0 }, { calls: 1, callers: 1 });
      });
    });

    describe('retention of raw calls', () => {
      beforeEach(async () => {
        await store.accounts.save(account('alice', 'America/New_York'));
        await store.accounts.save(account('bob', 'Asia/Tokyo'));
        await store.phones.assign('15550001', 'dev:alice');
      });

      const v2 = (callId: string, startedAt: string, caller: string, item: string): CallRecord =>
        callRecordSchema.parse({
          call_id: callId,
          phone: '15550001',
          started_at: startedAt,
          log_events: 1,
          loops: 0,
          form_items: 1,
          caller,
          path: [{ application: 'https://ivr.example.com/start.vxml', page: 'main.vxml', form: 'main_menu', item, visits: 1 }],
        });

      const march = Date.UTC(2018, 2, 1);
      const winter = [day(2018, 1, 1), day(2018, 3, 31)] as const;

      /** Every report's read of alice's number over the winter, as a report would see it. */
      const reports = async () => ({
        days: await dailyTotals(store, ['15550001'], ...winter),
        accountDays: await dailyTotals(store, { ownedBy: 'dev:alice' }, ...winter),
        callers: await store.calls.distinctCallers(['15550001'], [{ first: winter[0], last: winter[1] }]),
        regions: await store.calls.regionTotals(['15550001'], ...winter),
        formItems: (await store.calls.formItemTotals(['15550001'], ...winter, 10)).map((item) => [item.item, item.visits]).sort(),
      });

      test('tells what would go, then drops the raw calls of whole months before the cut-off, every report answering as before', async () => {
        await store.calls.add([
          v2('jan', '2018-01-15T12:00:00Z', '6175550123', 'a'),
          v2('feb-1', '2018-02-10T12:00:00Z', '6175550124', 'b'),
          v2('feb-2', '2018-02-20T12:00:00Z', '6175550123', 'a'),
          v2('mar', '2018-03-10T12:00:00Z', '2125550100', 'c'),
        ]);
        const before = await reports();
        const old = [
          { firstMonth: '2018-01', lastMonth: '2018-01', calls: 1 },
          { firstMonth: '2018-02', lastMonth: '2018-02', calls: 2 },
        ];
        expect(await store.calls.dropRawCallsBefore(march, true)).toEqual(old);
        expect(await store.calls.dropRawCallsBefore(march, true)).toEqual(old);
        expect(await store.calls.dropRawCallsBefore(march, false)).toEqual(old);
        expect(await store.calls.dropRawCallsBefore(march, false)).toEqual([]);
        expect(await reports()).toEqual(before);
        expect(before.days.map((totals) => totals.calls)).toEqual([1, 1, 1, 1]);
        expect(before.callers).toEqual([3]);
      });

      test('refuses a call of a dropped month imported again as a duplicate, and keeps a new call of that month', async () => {
        await store.calls.add([v2('jan', '2018-01-15T12:00:00Z', '6175550123', 'a'), v2('mar', '2018-03-10T12:00:00Z', '6175550123', 'a')]);
        await store.calls.dropRawCallsBefore(march, false);
        expect(await store.calls.add([v2('jan', '2018-01-15T12:00:00Z', '6175550123', 'a')])).toEqual({ inserted: 0, duplicates: 1, unknownPhone: [] });
        expect(await store.calls.add([v2('jan-late', '2018-01-16T12:00:00Z', '6175550123', 'a')])).toEqual({ inserted: 1, duplicates: 0, unknownPhone: [] });
        expect((await dailyTotals(store, ['15550001'], ...winter)).map((totals) => [totals.day, totals.calls])).toEqual([
          [day(2018, 1, 15), 1],
          [day(2018, 1, 16), 1],
          [day(2018, 3, 10), 1],
        ]);
        expect(await store.calls.dropRawCallsBefore(march, true)).toEqual([{ firstMonth: '2018-01', lastMonth: '2018-01', calls: 1 }]);
      });

      test('keeps, through a time-zone change, the days before the first whole local day of the calls kept, and rebuilds the later ones', async () => {
        await store.calls.add([
          v2('feb', '2018-02-10T12:00:00Z', '6175550123', 'a'),
          // 22:00 on 28 February in New York, 1 March in UTC and in Tokyo: kept, but on a day that began before March.
          v2('edge', '2018-02-28T22:00:00-05:00', '6175550124', 'b'),
          // 5 March in both zones, then 5 March in New York and 6 March in Tokyo.
          v2('mar-1', '2018-03-05T12:00:00Z', '6175550125', 'c'),
          v2('mar-2', '2018-03-05T16:00:00Z', '6175550126', 'c'),
        ]);
        await store.calls.dropRawCallsBefore(march, false);
        await store.accounts.update('dev:alice', { timeZone: 'Asia/Tokyo' });
        // Tokyo's first whole day of March kept is the 2nd (it began at 15:00 UTC on the 1st): the days
        // before keep their New York rows, the edge call on the 28th; the later ones are computed in Tokyo.
        const expected = [
          [day(2018, 2, 10), 1],
          [day(2018, 2, 28), 1],
          [day(2018, 3, 5), 1],
          [day(2018, 3, 6), 1],
        ];
        const after = await reports();
        expect(after.days.map((totals) => [totals.day, totals.calls])).toEqual(expected);
        expect(after.accountDays).toEqual(after.days);
        expect(await store.calls.distinctCallers(['15550001'], [{ first: day(2018, 2, 1), last: day(2018, 2, 28) }, { first: day(2018, 3, 6), last: day(2018, 3, 6) }])).toEqual([2, 1]);
        expect(after.formItems).toEqual([['a', 1], ['b', 1], ['c', 2]]);

        // A number moved keeps its kept days, now summed in its new owner's.
        await store.phones.release('15550001', 'dev:alice');
        await store.phones.assign('15550001', 'dev:bob');
        expect((await dailyTotals(store, { ownedBy: 'dev:bob' }, ...winter)).map((totals) => [totals.day, totals.calls])).toEqual(expected);
      });

      test('sets a horizon later than the one given back to it, so that a time-zone change rebuilds the days after it again', async () => {
        const lateNovember = [day(2026, 11, 23), day(2026, 11, 26)] as const;
        const onDays = async () => (await dailyTotals(store, ['15550001'], ...lateNovember)).map((totals) => [totals.day, totals.calls]);
        expect(await store.calls.capRetentionHorizon(Date.UTC(2026, 9, 1))).toBeUndefined();
        await store.accounts.update('dev:alice', { timeZone: 'UTC' });
        // A cut-off a year ahead, as retention by a sandbox's clock moved on recorded one: everything goes.
        await store.calls.add([v2('before', '2026-11-20T12:00:00Z', '6175550123', 'a')]);
        await store.calls.dropRawCallsBefore(Date.UTC(2027, 10, 1), false);
        await store.calls.add([v2('late-1', '2026-11-25T02:10:00Z', '6175550123', 'a'), v2('late-2', '2026-11-25T02:50:00Z', '6175550124', 'a')]);
        expect(await onDays()).toEqual([[day(2026, 11, 25), 2]]);

        expect(await store.calls.capRetentionHorizon(Date.UTC(2026, 9, 1))).toBe(Date.UTC(2027, 10, 1));
        expect(await store.calls.capRetentionHorizon(Date.UTC(2026, 9, 1))).toBeUndefined();
        expect(await store.calls.capRetentionHorizon(Date.UTC(2027, 0, 1))).toBeUndefined();
        // 21:10 and 21:50 on 24 November in New York.
        await store.accounts.update('dev:alice', { timeZone: 'America/New_York' });
        expect(await onDays()).toEqual([[day(2026, 11, 24), 2]]);
      });
    });

    describe('survey sessions', () => {
      const session = (id: string, expiresAt: number) => ({ id, stateJson: `{"for":"${id}"}`, expiresAt });

      const NO_CAP = 1000;

      async function liveIds(ids: readonly string[], now: number): Promise<string[]> {
        const found = await Promise.all(ids.map(async (id) => ((await store.surveySessions.get(id, now)) === undefined ? [] : [id])));
        return found.flat();
      }

      test('returns a saved session until the moment it expires, and replaces it on save', async () => {
        await store.surveySessions.save(session('a', 2000), 1000, NO_CAP);
        expect(await store.surveySessions.get('a', 1999)).toEqual(session('a', 2000));
        expect(await store.surveySessions.get('a', 2000)).toBeUndefined();
        await store.surveySessions.save({ ...session('a', 5000), stateJson: '{"again":true}' }, 3000, NO_CAP);
        expect(await store.surveySessions.get('a', 4000)).toEqual({ id: 'a', stateJson: '{"again":true}', expiresAt: 5000 });
        expect(await store.surveySessions.get('unknown', 0)).toBeUndefined();
      });

      test('beyond the cap, forgets the longest idle sessions first', async () => {
        for (const [index, id] of ['a', 'b', 'c', 'd'].entries()) await store.surveySessions.save(session(id, 10_000 + index), 1000 + index, 2);
        expect(await liveIds(['a', 'b', 'c', 'd'], 2000)).toEqual(['c', 'd']);
      });

      test('counts a session saved again as the most recent, not as one more', async () => {
        await store.surveySessions.save(session('a', 10_000), 1000, 2);
        await store.surveySessions.save(session('b', 10_001), 1001, 2);
        await store.surveySessions.save(session('a', 10_002), 1002, 2);
        await store.surveySessions.save(session('c', 10_003), 1003, 2);
        expect(await liveIds(['a', 'b', 'c'], 2000)).toEqual(['a', 'c']);
      });

      test('does not count expired sessions against the cap', async () => {
        await store.surveySessions.save(session('a', 2000), 1000, 1);
        await store.surveySessions.save(session('b', 6000), 3000, 1);
        await store.surveySessions.save(session('c', 6001), 3001, 2);
        expect(await liveIds(['a', 'b', 'c'], 1500)).toEqual(['b', 'c']);
      });

      test('counts the sessions live at a moment, expired ones not yet forgotten left out', async () => {
        expect(await store.surveySessions.live(0)).toBe(0);
        await store.surveySessions.save(session('a', 2000), 1000, NO_CAP);
        await store.surveySessions.save(session('b', 3000), 1000, NO_CAP);
        await store.surveySessions.save(session('c', 3000), 1000, NO_CAP);
        expect(await store.surveySessions.live(1999)).toBe(3);
        expect(await store.surveySessions.live(2000)).toBe(2);
        expect(await store.surveySessions.live(3000)).toBe(0);
      });
    });

    describe('scenarios', () => {
      const scenario = (id: string, fields: Partial<StoredScenario> = {}): StoredScenario => ({
        id,
        target: 'data',
        account: undefined,
        clientAddress: undefined,
        status: 429,
        faultString: undefined,
        delayMs: undefined,
        retryAfterSeconds: undefined,
        times: undefined,
        probability: undefined,
        seed: undefined,
        draws: 0,
        fired: 0,
        createdAt: 1_000,
        connection: undefined,
        bytesPerSecond: undefined,
        ...fields,
      });
      /** A cap no test here reaches, but the ones about the cap. */
      const add = async (stored: StoredScenario) => expect(await store.scenarios.add(stored, 100)).toBe('added');
      const dataRequest = (fields: Partial<ScenarioRequest> = {}): ScenarioRequest => ({
        targets: ['data', 'events'],
        account: { tool: 'dev', login: 'alice' },
        clientAddress: '127.0.0.1',
        ...fields,
      });

      test('lists scenarios oldest first, every field and delay as saved, and removes one or all', async () => {
        const full = scenario('b', {
          target: 'survey',
          account: { tool: 'fuse', login: 'bob' },
          clientAddress: '10.0.0.1',
          status: 503,
          faultString: 'down for maintenance',
          delayMs: 250,
          retryAfterSeconds: 30,
          times: 3,
          createdAt: 2_000,
          connection: 'drip',
          bytesPerSecond: 2_000,
        });
        const uniform = scenario('d', { target: 'volume', status: undefined, delayMs: { uniform: [0, 60_000] } });
        const logNormal = scenario('e', { delayMs: { median: 200, p99: 2000 } });
        await add(scenario('a'));
        await add(full);
        await add(scenario('c'));
        await add(uniform);
        await add(logNormal);
        expect(await store.scenarios.list()).toEqual([scenario('a'), full, scenario('c'), uniform, logNormal]);
        expect(await store.scenarios.remove('b')).toBe(true);
        expect(await store.scenarios.remove('b')).toBe(false);
        expect((await store.scenarios.list()).map(({ id }) => id)).toEqual(['a', 'c', 'd', 'e']);
        // A firing reads the delay back as it was saved too.
        expect(await store.scenarios.fire(dataRequest({ targets: ['volume'] }))).toEqual({ fired: { ...uniform, fired: 1 }, stillActive: 1 });
        expect(await store.scenarios.clear()).toBe(4);
        expect(await store.scenarios.list()).toEqual([]);
      });

      test('fires the oldest matching scenario with answers left, exactly `times` times, then the next', async () => {
        await add(scenario('first', { times: 2 }));
        await add(scenario('second', { times: 1, status: 500 }));
        const firings = [];
        for (let request = 0; request < 4; request += 1) firings.push(await store.scenarios.fire(dataRequest()));
        expect(firings.map(({ fired, stillActive }) => [fired?.id, fired?.fired, stillActive])).toEqual([
          ['first', 1, 2],
          ['first', 2, 1],
          ['second', 1, 0],
          [undefined, undefined, 0],
        ]);
        expect((await store.scenarios.list()).map(({ id, fired }) => [id, fired])).toEqual([
          ['first', 2],
          ['second', 1],
        ]);
      });

      test('answers by chance: the n-th matching request draws the n-th number of the seed, the same as scenario-draws.ts', async () => {
        await add(scenario('chance', { probability: 0.3, seed: 1_234_567 }));
        const answered: boolean[] = [];
        for (let request = 0; request < 200; request += 1) answered.push((await store.scenarios.fire(dataRequest())).fired !== undefined);
        const expected = Array.from({ length: 200 }, (_, index) => drawAnswers(1_234_567, index + 1, 0.3));
        expect(answered).toEqual(expected);
        expect(expected.filter(Boolean).length).toBeGreaterThan(40);
        expect(await store.scenarios.list()).toEqual([scenario('chance', { probability: 0.3, seed: 1_234_567, draws: 200, fired: expected.filter(Boolean).length })]);
      });

      test('draws for every scenario with a probability that a request matches, and the oldest that answers takes it', async () => {
        await add(scenario('sometimes', { probability: 0.5, seed: 7, times: 3 }));
        await add(scenario('always', { status: 500 }));
        const firings: (string | undefined)[] = [];
        for (let request = 0; request < 12; request += 1) firings.push((await store.scenarios.fire(dataRequest())).fired?.id);
        const sometimes = Array.from({ length: 12 }, (_, index) => drawAnswers(7, index + 1, 0.5));
        // Once it has answered its three, it no longer matches, and so draws no more.
        const answeredBy: string[] = [];
        let left = 3;
        for (const drawn of sometimes) {
          const answers = left > 0 && drawn;
          if (answers) left -= 1;
          answeredBy.push(answers ? 'sometimes' : 'always');
        }
        expect(firings).toEqual(answeredBy);
        const lastAnswer = answeredBy.lastIndexOf('sometimes') + 1;
        expect((await store.scenarios.list()).map(({ id, draws, fired }) => [id, draws, fired])).toEqual([
          ['sometimes', lastAnswer, 3],
          ['always', 0, 12 - 3],
        ]);
      });

      test('a probability of 1 answers every request it matches', async () => {
        await add(scenario('certain', { probability: 1, seed: 0, times: 5 }));
        for (let request = 0; request < 5; request += 1) expect((await store.scenarios.fire(dataRequest())).fired?.id).toBe('certain');
        expect(await store.scenarios.fire(dataRequest())).toEqual({ fired: undefined, stillActive: 0 });
      });

      test('matches on target, account and client address, each only when the scenario names it', async () => {
        await add(scenario('auth', { target: 'auth' }));
        await add(scenario('volume', { target: 'volume' }));
        await add(scenario('bob', { account: { tool: 'dev', login: 'bob' } }));
        await add(scenario('fuse-alice', { account: { tool: 'fuse', login: 'alice' } }));
        await add(scenario('elsewhere', { clientAddress: '10.0.0.9' }));
        expect(await store.scenarios.fire(dataRequest())).toEqual({ fired: undefined, stillActive: 0 });
        expect(await store.scenarios.fire(dataRequest({ account: undefined, clientAddress: '10.0.0.9' }))).toEqual({
          fired: scenario('elsewhere', { clientAddress: '10.0.0.9', fired: 1 }),
          stillActive: 1,
        });
        expect((await store.scenarios.fire(dataRequest({ account: { tool: 'dev', login: 'bob' } }))).fired?.id).toBe('bob');
        expect((await store.scenarios.fire(dataRequest({ account: { tool: 'fuse', login: 'alice' } }))).fired?.id).toBe('fuse-alice');
        expect((await store.scenarios.fire(dataRequest({ targets: ['data', 'volume'] }))).fired?.id).toBe('volume');
        expect((await store.scenarios.fire(dataRequest({ targets: ['auth'] }))).fired?.id).toBe('auth');
      });

      test('keeps used-up scenarios in the list, in their place, and out of the matching, and removes them as any other', async () => {
        await add(scenario('once', { times: 1 }));
        await add(scenario('always'));
        await add(scenario('spent', { times: 2, fired: 2 }));
        expect(await store.scenarios.fire(dataRequest())).toEqual({ fired: scenario('once', { times: 1, fired: 1 }), stillActive: 1 });
        expect(await store.scenarios.fire(dataRequest())).toEqual({ fired: scenario('always', { fired: 1 }), stillActive: 1 });
        expect((await store.scenarios.list()).map(({ id, fired }) => [id, fired])).toEqual([
          ['once', 1],
          ['always', 1],
          ['spent', 2],
        ]);
        expect(await store.scenarios.remove('once')).toBe(true);
        expect(await store.scenarios.remove('once')).toBe(false);
        expect(await store.scenarios.clear()).toBe(2);
      });

      test('answers exactly `times` of many simultaneous requests', async () => {
        await add(scenario('limited', { times: 7 }));
        const firings = await Promise.all(Array.from({ length: 40 }, () => store.scenarios.fire(dataRequest())));
        expect(firings.filter(({ fired }) => fired !== undefined)).toHaveLength(7);
        expect((await store.scenarios.list())[0]?.fired).toBe(7);
      });

      test('refuses an addition while `mostActive` scenarios have answers left, the used-up ones not counted', async () => {
        await add(scenario('spent', { times: 1, fired: 1 }));
        expect(await store.scenarios.add(scenario('once', { times: 1 }), 2)).toBe('added');
        expect(await store.scenarios.add(scenario('always'), 2)).toBe('added');
        expect(await store.scenarios.add(scenario('refused'), 2)).toBe('full');
        expect((await store.scenarios.list()).map(({ id }) => id)).toEqual(['spent', 'once', 'always']);
        expect((await store.scenarios.fire(dataRequest())).fired?.id).toBe('once');
        expect(await store.scenarios.add(scenario('after-once'), 2)).toBe('added');
        expect(await store.scenarios.add(scenario('refused'), 2)).toBe('full');
        expect(await store.scenarios.remove('always')).toBe(true);
        expect(await store.scenarios.add(scenario('after-always'), 2)).toBe('added');
        expect((await store.scenarios.list()).map(({ id }) => id)).toEqual(['spent', 'once', 'after-once', 'after-always']);
      });

      test('of many simultaneous additions, adds exactly as many as the cap leaves room for', async () => {
        await add(scenario('before'));
        // A store with a pool of connections opens them first, else the additions would wait for them one after another.
        await Promise.all(Array.from({ length: 40 }, () => store.scenarios.list()));
        const additions = await Promise.all(Array.from({ length: 40 }, (_, index) => store.scenarios.add(scenario(`at-once-${index}`), 5)));
        expect(additions.filter((addition) => addition === 'added')).toHaveLength(4);
        expect(additions.filter((addition) => addition === 'full')).toHaveLength(36);
        expect(await store.scenarios.list()).toHaveLength(5);
      });
    });

    describe('rate limit counters', () => {
      test('counts hits per key within a window and starts again in the next window', async () => {
        expect(await store.rateLimits.hit('a', 0, 900_000)).toBe(1);
        expect(await store.rateLimits.hit('a', 0, 900_000)).toBe(2);
        expect(await store.rateLimits.hit('b', 0, 900_000)).toBe(1);
        expect(await store.rateLimits.hit('a', 900_000, 900_000)).toBe(1);
      });

      test('gives every one of many simultaneous hits its own count', async () => {
        const counts = await Promise.all(Array.from({ length: 200 }, () => store.rateLimits.hit('a', 0, 900_000)));
        expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
      });

      test('takes back a hit and resets a key', async () => {
        await store.rateLimits.hit('a', 0, 900_000);
        await store.rateLimits.hit('a', 0, 900_000);
        await store.rateLimits.decrement('a', 0);
        expect(await store.rateLimits.hit('a', 0, 900_000)).toBe(2);
        await store.rateLimits.reset('a');
        expect(await store.rateLimits.hit('a', 0, 900_000)).toBe(1);
      });
    });
  });
}
