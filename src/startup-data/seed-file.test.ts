import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyPassword } from '../accounts/password-hash';
import { createMemoryStore } from '../storage/memory/memory-store';
import { loadSeedFile, SeedFileError } from './seed-file';
import type { Store } from '../storage/store';
import { dailyTotals, dayTotals } from '../../test/support/day-totals';
import { epochDayOf } from '../time/calendar';

const FEB_7 = epochDayOf({ year: 2018, month: 2, day: 7 });
const FEB_8 = epochDayOf({ year: 2018, month: 2, day: 8 });

let directory: string;
let store: Store;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'seed-file-'));
  store = createMemoryStore();
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function writeSeedText(text: string): Promise<string> {
  const path = join(directory, 'seed.json');
  await writeFile(path, text);
  return path;
}

function writeSeed(content: unknown): Promise<string> {
  return writeSeedText(JSON.stringify(content));
}

function alice(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tool: 'dev',
    login: 'alice',
    password: 'alice-password',
    active: true,
    timezone: 'America/New_York',
    phones: ['18005550100'],
    ...overrides,
  };
}

function call(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    call_id: 'c-1',
    phone: '18005550100',
    started_at: '2018-02-07T10:15:00-05:00',
    log_events: 5,
    loops: 1,
    form_items: 2,
    ...overrides,
  };
}

async function expectSeedFileError(path: string, problem: string): Promise<void> {
  const error: unknown = await loadSeedFile(path, store, 'UTC').then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(SeedFileError);
  expect(error).toMatchObject({ name: 'SeedFileError', message: `SEED_FILE ${path}: ${problem}` });
}

describe('loadSeedFile with a valid file', () => {
  it('loads the accounts, their phones and the calls, and reports what it loaded', async () => {
    const path = await writeSeed({
      accounts: [
        alice({ phones: ['+18005550100', '18005550101'] }),
        {
          tool: 'fuse',
          login: 'alice',
          password: 'fuse-password',
          active: false,
          timezone: 'Europe/London',
          phones: ['442071234567'],
        },
      ],
      calls: [
        call(),
        call({
          call_id: 'c-2',
          phone: '18005550101',
          started_at: '2018-02-07T23:30:00-05:00',
          log_events: 3,
          loops: 0,
          form_items: 1,
        }),
        call({ call_id: 'c-3', phone: '442071234567', started_at: '2018-02-08T09:00:00Z' }),
      ],
    });

    const summary = await loadSeedFile(path, store, 'UTC');

    expect(summary).toEqual({ accounts: 2, phones: 3, calls: 3, duplicates: 0 });
    expect(await store.accounts.find('dev:alice')).toEqual({
      id: 'dev:alice',
      tool: 'dev',
      login: 'alice',
      passwordHash: expect.stringMatching(/^scrypt\$/),
      active: true,
      timeZone: 'America/New_York',
      credentialGeneration: 0,
    });
    expect(await store.accounts.find('fuse:alice')).toMatchObject({ active: false, timeZone: 'Europe/London' });
    expect(await store.phones.ownedBy('dev:alice')).toEqual(['18005550100', '18005550101']);
    expect(await store.phones.ownedBy('fuse:alice')).toEqual(['442071234567']);
    expect(await dailyTotals(store, ['18005550100', '18005550101'], FEB_7, FEB_8)).toEqual([
      dayTotals({ day: FEB_7, calls: 2, logEvents: 8, loops: 1, formItems: 3 }),
    ]);
    expect(await dailyTotals(store, ['442071234567'], FEB_7, FEB_8)).toEqual([
      dayTotals({ day: FEB_8, calls: 1, logEvents: 5, loops: 1, formItems: 2 }),
    ]);
  });

  it('loads the optional fields of version 2 into every rollup', async () => {
    const path = await writeSeed({
      accounts: [alice()],
      calls: [
        call({
          caller: '6175550123',
          duration_seconds: 90.5,
          transfers: 1,
          transfer_seconds: 20,
          js_errors: 1,
          fetch_errors: 2,
          page_loads: 3,
          page_load_seconds: 0.9,
          path: [{ application: 'https://ivr.example.com/start.vxml', page: 'main.vxml', form: 'main_menu', item: 'selection', visits: 2, filled: 1 }],
        }),
      ],
    });
    await loadSeedFile(path, store, 'UTC');
    expect(await dailyTotals(store, ['18005550100'], FEB_7, FEB_8)).toEqual([
      dayTotals({
        day: FEB_7,
        calls: 1,
        logEvents: 5,
        loops: 1,
        formItems: 2,
        durationMs: 90_500,
        transfers: 1,
        transferMs: 20_000,
        jsErrors: 1,
        fetchErrors: 2,
        pageLoads: 3,
        pageLoadMs: 900,
      }),
    ]);
    expect(await store.calls.distinctCallers(['18005550100'], [{ first: FEB_7, last: FEB_8 }])).toEqual([1]);
    expect(await store.calls.regionTotals(['18005550100'], FEB_7, FEB_8)).toEqual([{ region: 'US-MA', calls: 1 }]);
    expect(await store.calls.formItemTotals(['18005550100'], FEB_7, FEB_8, 10)).toEqual([
      {
        application: 'https://ivr.example.com/start.vxml',
        page: 'main.vxml',
        form: 'main_menu',
        item: 'selection',
        visits: 2,
        filled: 1,
        nomatch: 0,
        noinput: 0,
        transfer: 0,
        disconnect: 0,
      },
    ]);
  });

  it('loaded again at a restart, leaves revoked temporary credentials revoked', async () => {
    const seed = await writeSeed({ accounts: [alice()] });
    await loadSeedFile(seed, store, 'UTC');
    await store.accounts.update('dev:alice', { revokeCredentials: true });
    await loadSeedFile(seed, store, 'UTC');
    expect((await store.accounts.find('dev:alice'))?.credentialGeneration).toBe(1);
  });

  it('stores a hash that verifies the plain password given in the file, never the password itself', async () => {
    await loadSeedFile(await writeSeed({ accounts: [alice()] }), store, 'UTC');

    const account = await store.accounts.find('dev:alice');

    expect(account?.passwordHash).not.toBe('alice-password');
    expect(await verifyPassword('alice-password', account?.passwordHash ?? '')).toBe(true);
    expect(await verifyPassword('wrong-password', account?.passwordHash ?? '')).toBe(false);
  });

  it('makes an account active, in the default time zone, with no phones when the file leaves them out', async () => {
    const path = await writeSeed({ accounts: [{ tool: 'insight', login: 'carol', password: 'carol-password' }] });

    const summary = await loadSeedFile(path, store, 'Asia/Tokyo');

    expect(summary).toEqual({ accounts: 1, phones: 0, calls: 0, duplicates: 0 });
    expect(await store.accounts.find('insight:carol')).toMatchObject({ active: true, timeZone: 'Asia/Tokyo' });
    expect(await store.phones.ownedBy('insight:carol')).toEqual([]);
  });

  it('counts a call_id repeated in the file once and reports the repeat as a duplicate', async () => {
    const calls = [call(), call({ log_events: 99 }), call({ call_id: 'c-2' })];
    const path = await writeSeed({ accounts: [alice()], calls });

    const summary = await loadSeedFile(path, store, 'UTC');

    expect(summary).toEqual({ accounts: 1, phones: 1, calls: 2, duplicates: 1 });
    expect(await dailyTotals(store, ['18005550100'], FEB_7, FEB_7)).toEqual([
      dayTotals({ day: FEB_7, calls: 2, logEvents: 10, loops: 2, formItems: 4 }),
    ]);
  });

  it('adds the calls to the store in batches of 10,000', async () => {
    const calls = Array.from({ length: 10_001 }, (_, index) => call({ call_id: `c-${index}` }));
    const path = await writeSeed({ accounts: [alice()], calls });
    const add = jest.spyOn(store.calls, 'add');

    const summary = await loadSeedFile(path, store, 'UTC');

    expect(add.mock.calls.map(([batch]) => batch.length)).toEqual([10_000, 1]);
    expect(summary).toEqual({ accounts: 1, phones: 1, calls: 10_001, duplicates: 0 });
    expect(await dailyTotals(store, ['18005550100'], FEB_7, FEB_7)).toEqual([
      dayTotals({ day: FEB_7, calls: 10_001, logEvents: 50_005, loops: 10_001, formItems: 20_002 }),
    ]);
  });
});

describe('loadSeedFile with a bad file', () => {
  it('stops when the file cannot be read', async () => {
    const path = join(directory, 'missing.json');

    await expectSeedFileError(path, `cannot be read: ENOENT: no such file or directory, open '${path}'`);
  });

  it('stops when the file is not JSON', async () => {
    const text = '{"accounts": [';
    const jsonProblem = (() => {
      try {
        JSON.parse(text);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();

    await expectSeedFileError(await writeSeedText(text), `not valid JSON: ${jsonProblem}`);
  });

  it.each([
    ['the file is not an object', [], 'Invalid input: expected object, received array'],
    ['the file has an unknown section', { accounts: [], users: [] }, 'Unrecognized key: "users"'],
    ['accounts is not a list', { accounts: {} }, 'accounts: Invalid input: expected array, received object'],
    [
      'an account has an unknown tool',
      { accounts: [alice({ tool: 'nope' })] },
      'accounts[0] (nope/alice).tool: Invalid option: expected one of "dev"|"fuse"|"insight"|"fuseplus"',
    ],
    ['an account has an empty login', { accounts: [alice({ login: '' })] }, 'accounts[0].login: must not be empty'],
    [
      'an account has no password',
      { accounts: [alice({ password: undefined })] },
      'accounts[0] (dev/alice).password: Invalid input: expected string, received undefined',
    ],
    [
      'an account has a non-boolean active',
      { accounts: [alice({ active: 'yes' })] },
      'accounts[0] (dev/alice).active: Invalid input: expected boolean, received string',
    ],
    [
      'an account has an unknown time zone',
      { accounts: [alice(), alice({ login: 'bob', timezone: 'Mars/Olympus' })] },
      'accounts[1] (dev/bob).timezone: must be an IANA time zone such as UTC or America/New_York',
    ],
    [
      'an account has a malformed phone',
      { accounts: [alice({ phones: ['18005550100', '1-800-555'] })] },
      'accounts[0] (dev/alice).phones[1]: must be a phone number of 1-15 digits, optionally after a +',
    ],
    [
      'an account has an unknown field',
      { accounts: [alice({ timeZone: 'UTC' })] },
      'accounts[0] (dev/alice): Unrecognized key: "timeZone"',
    ],
    [
      'a call has a start time without an offset',
      { accounts: [alice()], calls: [call(), call({ call_id: 'c-2', started_at: '2018-02-07T10:15:00' })] },
      'calls[1] (call_id "c-2").started_at: must be a real ISO-8601 date and time from 1970 with an offset, e.g. 2018-02-07T10:15:00-05:00',
    ],
    [
      'a call has a negative count',
      { accounts: [alice()], calls: [call({ loops: -1 })] },
      'calls[0] (call_id "c-1").loops: Too small: expected number to be >=0',
    ],
    [
      'a call has no call_id',
      { accounts: [alice()], calls: [call({ call_id: undefined })] },
      'calls[0].call_id: Invalid input: expected string, received undefined',
    ],
    [
      'several records are bad',
      { accounts: [alice({ active: 'yes' })], calls: [call({ loops: -1 })] },
      'accounts[0] (dev/alice).active: Invalid input: expected boolean, received string (and 1 more problem)',
    ],
    [
      'two accounts have the same tool and login',
      { accounts: [alice(), alice({ phones: [] })] },
      'accounts[1] (dev/alice): same tool and login as accounts[0]',
    ],
    [
      'a phone is on two accounts',
      { accounts: [alice(), alice({ login: 'bob', phones: ['18005550101', '+18005550100'] })] },
      'accounts[1] (dev/bob).phones[1]: 18005550100 is already on accounts[0] (dev/alice)',
    ],
    [
      'a call is for a phone on no account',
      { accounts: [alice()], calls: [call(), call({ call_id: 'c-9', phone: '18005550199' })] },
      'calls[1] (call_id "c-9").phone: 18005550199 is on no account in the file',
    ],
  ])('stops with a message naming where the problem is when %s', async (_situation, content, problem) => {
    await expectSeedFileError(await writeSeed(content), problem);
  });

  it('writes nothing to the store when a record is bad', async () => {
    const path = await writeSeed({ accounts: [alice()], calls: [call({ started_at: 'yesterday' })] });

    await expect(loadSeedFile(path, store, 'UTC')).rejects.toThrow(SeedFileError);

    expect(await store.accounts.list()).toEqual([]);
    expect(await store.phones.ownedBy('dev:alice')).toEqual([]);
  });

  it('stops when the store already gives a phone to another account', async () => {
    const someoneElse = { id: 'dev:someone-else', tool: 'dev', login: 'someone-else', passwordHash: 'hash', active: true, timeZone: 'UTC', credentialGeneration: 0 } as const;
    await store.accounts.save(someoneElse);
    await store.phones.assign('18005550100', someoneElse.id);

    await expectSeedFileError(
      await writeSeed({ accounts: [alice()] }),
      'accounts[0] (dev/alice).phones[0]: 18005550100 is owned by another account in the store',
    );
  });
});
