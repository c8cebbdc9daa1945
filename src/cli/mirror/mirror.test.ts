import { LIMITS_OUT_OF_REACH } from '../../../test/support/test-app';
import { admin, ADMIN_TOKEN, startAdminServer, type AdminServer } from '../../../test/support/admin';
import { runCli } from '../../../test/support/cli';
import { addCalls } from '../../../test/support/reporting';
import { allCallersDiffering, compareReports, reportingAccount } from '../../../test/support/report-comparison';
import type { CallRecordInput, PathStep } from '../../domain/call-record';
import request from 'supertest';
import { DEMO_ACCOUNT, loadDemoData } from '../../startup-data/demo/demo-account';
import { mulberry32, seedFrom } from '../../startup-data/demo/random';
import { AdminClient } from '../admin-client';
import { DEFAULT_MAX_RESPONSE_BYTES } from './bounded-fetch';
import { ceilingsOf, DEFAULT_MAX_CALLS } from './checks';
import { mirror } from './mirror';
import { mirrorProgress } from './progress';
import { exactness } from './summary';

/** The demo's 120 days end on the fake clock's day, Wednesday 2018-02-07 in New York. */
const DEMO_RANGE = { start: '20171009', end: '20180207' };
const ABROAD = { tool: 'fuse', login: 'abroad', password: 'abroad-password', timeZone: 'Europe/London', phones: ['442071230001', '442071230002'] };
const ABROAD_RANGE = { start: '20171201', end: '20180131' };

let source: AdminServer;
let target: AdminServer;

/** Callers from abroad, toll-free and unplaceable numbers, regulars who call twice a day and on both numbers. */
const CALLERS = ['+447700900123', '+447911123456', '+33612345678', '+525512345678', '+14165550199', '18005550123', '+18885550123', '5551234567', '+16175550123', '+12125550123', '+4915112345678'];

const FORM_ITEMS: Omit<PathStep, 'visits' | 'filled' | 'nomatch' | 'noinput' | 'transfer' | 'disconnect'>[] = [
  { application: 'https://ivr.example.co.uk/start.vxml', page: 'main.vxml', form: 'menu', item: 'choice' },
  { application: 'https://ivr.example.co.uk/start.vxml', page: 'agent.vxml', form: 'transfer', item: 'agent' },
  { application: 'https://ivr.example.co.uk/billing.vxml', page: 'pay.vxml', form: 'card', item: 'number' },
];

/** Two months of a London account's calls: a few a day, some days none, fractional seconds everywhere. */
function abroadCalls(): CallRecordInput[] {
  const random = mulberry32(seedFrom('mirror test', 'abroad'));
  const calls: CallRecordInput[] = [];
  for (let day = 0; day < 62; day += 1) {
    const date = new Date(Date.UTC(2017, 11, 1 + day));
    for (const phone of ABROAD.phones) {
      const count = day % 9 === 4 ? 0 : Math.floor(random() * 7);
      for (let index = 0; index < count; index += 1) {
        const pick = Math.floor(random() * (CALLERS.length + 2));
        const transfers = random() < 0.3 ? 1 : 0;
        const item = FORM_ITEMS[Math.floor(random() * FORM_ITEMS.length)] ?? FORM_ITEMS[0];
        calls.push({
          call_id: `abroad-${phone}-${day}-${index}`,
          phone,
          started_at: new Date(date.getTime() + (8 + index) * 3_600_000 + Math.floor(random() * 3_600_000)).toISOString(),
          log_events: 3 + Math.floor(random() * 20),
          loops: Math.floor(random() * 3),
          form_items: 1 + Math.floor(random() * 5),
          ...(CALLERS[pick] === undefined ? {} : { caller: CALLERS[pick] }),
          duration_seconds: Math.round(random() * 400_000) / 1000,
          transfers,
          transfer_seconds: transfers === 1 ? Math.round(random() * 120_000) / 1000 : 0,
          js_errors: random() < 0.2 ? 1 : 0,
          fetch_errors: random() < 0.1 ? 2 : 0,
          page_loads: Math.floor(random() * 5),
          page_load_seconds: Math.round(random() * 3_000) / 1000,
          path: item === undefined ? [] : [{ ...item, visits: 1 + Math.floor(random() * 3), filled: 1, nomatch: Math.floor(random() * 2), transfer: transfers, disconnect: 0, noinput: 0 }],
        });
      }
    }
  }
  return calls;
}

async function createAccount(server: AdminServer, tool: string, login: string, timeZone: string, phones: readonly string[]) {
  await admin(server.url).put(`/admin/accounts/${tool}/${login}`).send({ password: 'mirror-password', timezone: timeZone }).expect(201);
  for (const phone of phones) await admin(server.url).put(`/admin/accounts/${tool}/${login}/phones/${phone}`).expect(201);
}

function mirrorArgs(from: { tool: string; login: string; password: string }, phones: readonly string[], range: { start: string; end: string }, into: string, ...more: string[]) {
  return [
    'mirror',
    '--from', source.url,
    '--tool', from.tool,
    '--login', from.login,
    '--password', from.password,
    '--phones', phones.join(','),
    '--start', range.start,
    '--end', range.end,
    '--into', into,
    '--url', target.url,
    '--token', ADMIN_TOKEN,
    ...more,
  ];
}

beforeEach(async () => {
  source = await startAdminServer(LIMITS_OUT_OF_REACH);
  target = await startAdminServer(LIMITS_OUT_OF_REACH);
  await createAccount(source, ABROAD.tool, ABROAD.login, ABROAD.timeZone, ABROAD.phones);
  await admin(source.url).put(`/admin/accounts/${ABROAD.tool}/${ABROAD.login}`).send({ password: ABROAD.password }).expect(200);
  await addCalls(source.testApp.store, abroadCalls());
  await createAccount(target, 'dev', 'abroad-mirror', ABROAD.timeZone, ABROAD.phones);
});

afterEach(async () => {
  await source.server.close();
  await target.server.close();
});

const sourceOf = (account: { tool: string; login: string; password: string }) => reportingAccount(source.url, account.tool, account.login, account.password);
const mirrorOf = (login: string) => reportingAccount(target.url, 'dev', login, 'mirror-password');

const DECEMBER = { start: '20171201', end: '20171231' };

/** The calls a run's summary says it wrote, as it prints them: the total it said before writing. */
const wrote = (stdout: string) => /: ([\d,]+) calls \(/.exec(stdout)?.[1] ?? 'no';

/** The calls of a mirror account by day, per number, through the reporting API: what a run wrote. */
async function mirroredCalls(login: string, range: { start: string; end: string }): Promise<unknown> {
  const account = await mirrorOf(login);
  return (await request(target.url).get(`/api/volume/${range.start}/${range.end}/month/ALL`).auth(account.credentials.login, account.credentials.password)).body;
}

describe('ivr-reporting mirror', () => {
  test('mirrors the demo account: every report per number and for ALL, by day, week and month, is equal or within its stated bound', async () => {
    // Only here: the demo data are much of a source's making, and no other test reads them.
    await loadDemoData(source.testApp.store, source.testApp.clock);
    await createAccount(target, 'dev', 'demo-mirror', DEMO_ACCOUNT.timeZone, DEMO_ACCOUNT.phones);
    const run = await runCli(mirrorArgs(DEMO_ACCOUNT, DEMO_ACCOUNT.phones, DEMO_RANGE, 'dev/demo-mirror'));
    expect(run.stderr).toBe(`mirror: writing ${wrote(run.stdout)} calls into dev/demo-mirror at ${target.url}\n`);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^mirrored 3 numbers, 20171009-20180207 \(122 days\), into dev\/demo-mirror: [\d,]+ calls \([\d,]+ inserted, 0 duplicates\)\n/);
    // 63 for the numbers, and 8 for ALL's distinct callers: by day, by week over each of 5 months, by week and by month.
    expect(run.stdout).toContain('\n71 data requests to the source (and 1 login), which allows 1,000,000 a window: a run fits in one of its rate-limit windows\n');
    const [theirs, ours] = [await sourceOf(DEMO_ACCOUNT), await mirrorOf('demo-mirror')];
    expect(await compareReports(theirs, ours, DEMO_ACCOUNT.phones, DEMO_RANGE.start, DEMO_RANGE.end)).toEqual([]);
    // What the summary says of ALL's distinct callers, counted again through the reporting API.
    const { differing, of } = await allCallersDiffering(theirs, ours, DEMO_RANGE.start, DEMO_RANGE.end);
    expect({ differing, of }).toEqual({ differing: 0, of: 166 });
    expect(run.stdout).toMatch(/\n {2}ALL: [\d,]+ distinct callers, the source's count over all of its 166 days, weeks within a month, weeks and months\n/);
  });

  test('mirrors an account with callers abroad, toll-free and unplaceable callers, transfers and a flow, in London time, and says what is exact', async () => {
    const run = await runCli(mirrorArgs(ABROAD, ABROAD.phones, ABROAD_RANGE, 'dev/abroad-mirror'));
    expect(run.stderr).toBe(`mirror: writing ${wrote(run.stdout)} calls into dev/abroad-mirror at ${target.url}\n`);
    expect(run.code).toBe(0);
    const [first, ...others] = run.stdout.split('\n');
    expect(first).toMatch(/^mirrored 2 numbers, 20171201-20180131 \(62 days\), into dev\/abroad-mirror: ([\d,]+) calls \(\1 inserted, 0 duplicates\)$/);
    const [theirs, ours] = [await sourceOf(ABROAD), await mirrorOf('abroad-mirror')];
    const { differing, of } = await allCallersDiffering(theirs, ours, ABROAD_RANGE.start, ABROAD_RANGE.end);
    expect(differing).toBe(17);
    expect(others.slice(2)).toEqual([
      `  ALL: 27 distinct callers, the source's count over ${of - differing} of its ${of} days, weeks within a month, weeks and months, at most 3 more over the others`,
      // 24 for the numbers, and 5 for ALL's distinct callers: by day, by week over each of 2 months, by week and by month.
      '29 data requests to the source (and 1 login), which allows 1,000,000 a window: a run fits in one of its rate-limit windows',
      ...exactness('month', [], 'planned'),
      '',
    ]);
    expect(await compareReports(theirs, ours, ABROAD.phones, ABROAD_RANGE.start, ABROAD_RANGE.end)).toEqual([]);
  });

  test('the comparison finds the calls of a day left out', async () => {
    await runCli(mirrorArgs(ABROAD, ABROAD.phones, { start: '20171201', end: '20180130' }, 'dev/abroad-mirror'));
    const differences = await compareReports(await sourceOf(ABROAD), await mirrorOf('abroad-mirror'), ABROAD.phones, ABROAD_RANGE.start, ABROAD_RANGE.end);
    expect(differences).toContainEqual(expect.stringMatching(/^\/api\/volume\/20171201\/20180131\/day\/442071230001 calls at 1517356800: [1-9]\d* at the source, 0 mirrored$/));
  });

  test('mirroring the same range again stores nothing new, and a wider range adds only the new days, every report still exact or within its bound', async () => {
    const first = await runCli(mirrorArgs(ABROAD, ABROAD.phones, DECEMBER, 'dev/abroad-mirror'));
    const december = /: ([\d,]+) calls \(/.exec(first.stdout)?.[1];
    const again = await runCli(mirrorArgs(ABROAD, ABROAD.phones, DECEMBER, 'dev/abroad-mirror'));
    expect(again.stdout).toContain(`into dev/abroad-mirror: ${december} calls (0 inserted, ${december} duplicates)\n`);
    const wider = await runCli(mirrorArgs(ABROAD, ABROAD.phones, ABROAD_RANGE, 'dev/abroad-mirror'));
    const [, all, inserted, duplicates] = /: ([\d,]+) calls \(([\d,]+) inserted, ([\d,]+) duplicates\)/.exec(wider.stdout) ?? [];
    expect(duplicates).toBe(december);
    expect(Number(inserted?.replace(',', '')) + Number(duplicates?.replace(',', ''))).toBe(Number(all?.replace(',', '')));
    expect(wider.code).toBe(0);
    expect(await compareReports(await sourceOf(ABROAD), await mirrorOf('abroad-mirror'), ABROAD.phones, ABROAD_RANGE.start, ABROAD_RANGE.end)).toEqual([]);
  });

  test("completes through the source's forced 429s and 401, waiting out each and authenticating again, and shows the waits", async () => {
    const forced = [
      { target: 'data', tool: ABROAD.tool, login: ABROAD.login, status: 429, retry_after_seconds: 1, times: 3 },
      { target: 'data', tool: ABROAD.tool, login: ABROAD.login, status: 401, times: 1 },
    ];
    for (const scenario of forced) await admin(source.url).post('/admin/scenarios').send(scenario).expect(201);
    const run = await runCli(mirrorArgs(ABROAD, ABROAD.phones, ABROAD_RANGE, 'dev/abroad-mirror'));
    expect(run.stderr).toBe(
      'mirror: 2 requests to the source, waiting 1 s for its rate limit\n' +
        'mirror: 3 requests to the source, waiting 1 s for its rate limit\n' +
        'mirror: 4 requests to the source, waiting 1 s for its rate limit\n' +
        `mirror: writing ${wrote(run.stdout)} calls into dev/abroad-mirror at ${target.url}\n`,
    );
    expect(run.code).toBe(0);
    // 16 reports and 5 for ALL's callers (as in the test above), and the three 429s and the 401 asked again.
    expect(run.stdout).toContain('\n33 data requests to the source (and 2 logins), which allows 1,000,000 a window');
    const scenarios = (await admin(source.url).get('/admin/scenarios').expect(200)).body as { scenarios: { fired: number }[] };
    expect(scenarios.scenarios.map((scenario) => scenario.fired)).toEqual([3, 1]);
    expect(await compareReports(await sourceOf(ABROAD), await mirrorOf('abroad-mirror'), ABROAD.phones, ABROAD_RANGE.start, ABROAD_RANGE.end)).toEqual([]);
  });

  test("completes through the source's forced outages (its 503 scenario, a 500 with Retry-After), waiting each out as it says, and shows the waits", async () => {
    await admin(source.url)
      .post('/admin/scenarios')
      .send({ target: 'data', tool: ABROAD.tool, login: ABROAD.login, status: 503, retry_after_seconds: 2, times: 3 })
      .expect(201);
    const stderr: string[] = [];
    let sleptMs = 0;
    // In this process, in a time where a wait takes none; a progress clock that never moves writes a line as each wait begins.
    const outcome = await mirror(
      {
        source: { baseUrl: source.url, tool: 'fuse', login: ABROAD.login, password: ABROAD.password },
        sourceOptions: { maxWaitMs: 3_600_000, spanDays: undefined, stretch: 'month', ceilings: ceilingsOf(DEFAULT_MAX_CALLS), maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES },
        phones: ABROAD.phones,
        start: ABROAD_RANGE.start,
        end: ABROAD_RANGE.end,
        into: { tool: 'dev', login: 'abroad-mirror' },
        dryRun: false,
        batchSize: 5_000,
      },
      new AdminClient(target.url, ADMIN_TOKEN),
      mirrorProgress({ write: (text) => stderr.push(text) > 0 }, () => 0),
      () => undefined,
      { now: Date.now, sleep: (ms) => Promise.resolve(void (sleptMs += ms)) },
    );
    expect(stderr).toEqual([
      'mirror: 2 requests to the source, waiting 2 s to retry after its 500 (1 of 5)\n',
      'mirror: 3 requests to the source, waiting 2 s to retry after its 500 (2 of 5)\n',
      'mirror: 4 requests to the source, waiting 2 s to retry after its 500 (3 of 5)\n',
      `mirror: writing ${wrote(outcome.summary)} calls into dev/abroad-mirror at ${target.url}\n`,
    ]);
    expect(sleptMs).toBe(6000);
    // 16 reports and 5 for ALL's callers, and the first asked again three times.
    expect(outcome.summary).toContain('\n32 data requests to the source (and 1 login), which allows 1,000,000 a window');
    const scenarios = (await admin(source.url).get('/admin/scenarios').expect(200)).body as { scenarios: { fired: number }[] };
    expect(scenarios.scenarios.map((scenario) => scenario.fired)).toEqual([3]);
    expect(await compareReports(await sourceOf(ABROAD), await mirrorOf('abroad-mirror'), ABROAD.phones, ABROAD_RANGE.start, ABROAD_RANGE.end)).toEqual([]);
  });

  test('a dry run reads the source and says what it would write and the requests a run needs, and writes nothing', async () => {
    const run = await runCli(mirrorArgs(ABROAD, ABROAD.phones, ABROAD_RANGE, 'dev/abroad-mirror', '--dry-run'));
    expect(run.code).toBe(0);
    const [first, ...others] = run.stdout.split('\n');
    const calls = /^dry run: would write ([\d,]+) calls into dev\/abroad-mirror at http:\/\/127\.0\.0\.1:\d+, 20171201-20180131 \(62 days\)$/.exec(first ?? '')?.[1];
    expect(calls).toBeDefined();
    expect(others[0]).toMatch(/^ {2}442071230001: [\d,]+ calls, [\d,]+ with a caller, [\d,]+ distinct callers, \d+ diagnostic-flow rows$/);
    expect(others[2]).toMatch(/^ {2}ALL: 27 distinct callers, the source's count over \d+ of its 84 days, weeks within a month, weeks and months/);
    expect(others[3]).toBe('29 data requests to the source (and 1 login), which allows 1,000,000 a window: a run fits in one of its rate-limit windows');
    expect(await mirroredCalls('abroad-mirror', ABROAD_RANGE)).toEqual({ calls: { '1512086400': 0, '1514764800': 0 }, call_minutes: { '1512086400': 0, '1514764800': 0 }, transfers: { '1512086400': 0, '1514764800': 0 }, transfer_minutes: { '1512086400': 0, '1514764800': 0 } });
    const real = await runCli(mirrorArgs(ABROAD, ABROAD.phones, ABROAD_RANGE, 'dev/abroad-mirror'));
    expect(real.stdout).toContain(`: ${calls} calls (${calls} inserted, 0 duplicates)\n`);
    // The dry run's figures are the plan's, made without a call; the run's are counted on the calls it wrote.
    expect(real.stdout.split('\n').slice(1, 3)).toEqual(others.slice(0, 2));
  });

  test('writes what it can and exits 1 naming a figure it cannot meet: a caller from a region no number of this data is placed in', async () => {
    // The Isle of Man's mobiles are valid numbers of their own; libphonenumber gives no example that counts up within them.
    await addCalls(source.testApp.store, [{ call_id: 'manx', phone: ABROAD.phones[0] ?? '', started_at: '2017-11-30T12:00:00Z', log_events: 1, loops: 0, form_items: 0, caller: '+447624123456' }]);
    const run = await runCli(mirrorArgs(ABROAD, ABROAD.phones.slice(0, 1), { start: '20171130', end: '20171130' }, 'dev/abroad-mirror'));
    expect(run.stderr).toBe(`mirror: writing 1 call into dev/abroad-mirror at ${target.url}\nnot met: 442071230001 on 20171130: no number of this version's data is placed in IM\n`);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^mirrored 1 number, 20171130-20171130 \(1 day\), into dev\/abroad-mirror: 1 call \(1 inserted, 0 duplicates\)\n/);
  });

  test("says how many requests a run needs against the source's rate limit", async () => {
    const limited = await startAdminServer({ DATA_RATE_LIMIT: '9' });
    try {
      await createAccount(limited, ABROAD.tool, ABROAD.login, ABROAD.timeZone, ABROAD.phones);
      await admin(limited.url).put(`/admin/accounts/${ABROAD.tool}/${ABROAD.login}`).send({ password: ABROAD.password }).expect(200);
      const args = mirrorArgs(ABROAD, ABROAD.phones.slice(0, 1), { start: '20171201', end: '20171201' }, 'dev/abroad-mirror', '--dry-run');
      const run = await runCli(args.map((arg) => (arg === source.url ? limited.url : arg)));
      expect(run.stdout).toContain('\n9 data requests to the source (and 1 login), which allows 9 a window: a run fits in one of its rate-limit windows\n');
    } finally {
      await limited.server.close();
    }
  });
});

/** A source of the London account that takes at most `days` days at once. */
async function abroadSourceTaking(days: number): Promise<AdminServer> {
  const server = await startAdminServer({ ...LIMITS_OUT_OF_REACH, MAX_RANGE_DAYS: String(days) });
  await createAccount(server, ABROAD.tool, ABROAD.login, ABROAD.timeZone, ABROAD.phones);
  await admin(server.url).put(`/admin/accounts/${ABROAD.tool}/${ABROAD.login}`).send({ password: ABROAD.password }).expect(200);
  await addCalls(server.testApp.store, abroadCalls());
  return server;
}

describe('ivr-reporting mirror refuses, naming the problem', () => {
  const refusal = async (args: string[]) => {
    const run = await runCli(args);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const { calls } = (await mirroredCalls('abroad-mirror', ABROAD_RANGE)) as { calls: Record<string, number> };
    expect(Object.values(calls)).toEqual([0, 0]);
    return run.stderr;
  };

  test('a number the account does not own at the source, before reading any other', async () => {
    await admin(target.url).put('/admin/accounts/dev/abroad-mirror/phones/442071239999').expect(201);
    const stderr = await refusal(mirrorArgs(ABROAD, [...ABROAD.phones, '442071239999'], ABROAD_RANGE, 'dev/abroad-mirror'));
    expect(stderr).toBe(`ivr-reporting: 442071239999 is not a number of ${source.url} (fuse/abroad): the source says "phone 442071239999 is not on this account"\n`);
  });

  test('a wrong password at the source', async () => {
    const stderr = await refusal(mirrorArgs({ ...ABROAD, password: 'wrong' }, ABROAD.phones, ABROAD_RANGE, 'dev/abroad-mirror'));
    expect(stderr).toBe(`ivr-reporting: the source ${source.url} (fuse/abroad) refused the login: "invalid login or password, or the account is inactive"; check --tool, --login and --password\n`);
  });

  test('a range the source cannot report: a first day before the epoch', async () => {
    // London kept summer time all through 1970: its first of January began an hour before the epoch.
    const stderr = await refusal(mirrorArgs(ABROAD, ABROAD.phones, { start: '19700101', end: '19700131' }, 'dev/abroad-mirror'));
    expect(stderr).toBe(
      `ivr-reporting: the source ${source.url} (fuse/abroad) refused the request for 442071230001 over 19700101-19700131 (400 IVR_PERIOD_BEFORE_EPOCH): ` +
        '"start 19700101: its day starts before 1970-01-01T00:00:00Z in Europe/London, and a period is keyed by the Unix second it starts at; the earliest start for day periods is 19700102"\n',
    );
  });

  test('a range longer than the source takes at once is read in the spans it names, and every report is still exact or within its bound', async () => {
    const narrow = await abroadSourceTaking(20);
    try {
      const run = await runCli(mirrorArgs(ABROAD, ABROAD.phones, ABROAD_RANGE, 'dev/abroad-mirror').map((arg) => (arg === source.url ? narrow.url : arg)));
      expect(run.stderr).toBe(`mirror: writing ${wrote(run.stdout)} calls into dev/abroad-mirror at ${target.url}\n`);
      // The whole range asked once and refused; then per number four spans of 20, 20, 20 and 2 days (four series each)
      // and five stretches (months cut by spans; a geographic report and a flow each); the caller profile by week over
      // each month in two spans, by week over the range in four (each from the start of the week the last one cut),
      // and by month once: a month is longer than a span, so each month's callers are its weeks' sum. For ALL's
      // callers, the same but the series, geographic reports and flows: 4 spans by day, 4 by week over the months,
      // 4 over the range, and one by month.
      expect(run.stdout).toContain('\n84 data requests to the source (and 1 login)');
      expect(run.stdout).toContain(`\n${exactness('month', ['month'], 'planned').join('\n')}\n`);
      const narrowSource = await reportingAccount(narrow.url, ABROAD.tool, ABROAD.login, ABROAD.password);
      const mirrored = await mirrorOf('abroad-mirror');
      for (const [start, end] of [['20171201', '20171220'], ['20171221', '20180109'], ['20180110', '20180129'], ['20180130', '20180131']] as const) {
        expect(await compareReports(narrowSource, mirrored, ABROAD.phones, start, end, 'within days')).toEqual([]);
      }
    } finally {
      await narrow.server.close();
    }
  });

  test('a source that takes a month at once is asked for each month whole: distinct callers stay exact over its weeks and months', async () => {
    const monthly = await abroadSourceTaking(31);
    try {
      const run = await runCli(mirrorArgs(ABROAD, ABROAD.phones, ABROAD_RANGE, 'dev/abroad-mirror').map((arg) => (arg === source.url ? monthly.url : arg)));
      expect(run.stderr).toBe(`mirror: writing ${wrote(run.stdout)} calls into dev/abroad-mirror at ${target.url}\n`);
      expect(run.stdout).toContain(`\n${exactness('month', [], 'planned').join('\n')}\n`);
      const monthlySource = await reportingAccount(monthly.url, ABROAD.tool, ABROAD.login, ABROAD.password);
      const mirrored = await mirrorOf('abroad-mirror');
      for (const [start, end] of [['20171201', '20171231'], ['20180101', '20180131']] as const) {
        expect(await compareReports(monthlySource, mirrored, ABROAD.phones, start, end)).toEqual([]);
      }
    } finally {
      await monthly.server.close();
    }
  });

  test("an account here in another time zone than the source's, whose days would begin at other instants", async () => {
    await admin(target.url).put('/admin/accounts/dev/abroad-mirror').send({ timezone: 'America/New_York' }).expect(200);
    const stderr = await refusal(mirrorArgs(ABROAD, ABROAD.phones, ABROAD_RANGE, 'dev/abroad-mirror'));
    expect(stderr).toBe(
      "ivr-reporting: the source's day 20171201 starts at 2017-12-01T00:00:00Z, but in America/New_York, the time zone of dev/abroad-mirror, at 2017-12-01T05:00:00Z: " +
        "give dev/abroad-mirror the source account's time zone (ivr-reporting accounts set dev abroad-mirror --timezone ...)\n",
    );
  });

  test('an account here that lacks a number, or does not exist', async () => {
    await admin(target.url).delete(`/admin/accounts/dev/abroad-mirror/phones/${ABROAD.phones[1]}`).expect(200);
    expect(await refusal(mirrorArgs(ABROAD, ABROAD.phones, ABROAD_RANGE, 'dev/abroad-mirror'))).toBe(
      `ivr-reporting: 442071230002 not on dev/abroad-mirror at ${target.url}: add it first (ivr-reporting phones add dev abroad-mirror 442071230002)\n`,
    );
    const run = await runCli(mirrorArgs(ABROAD, ABROAD.phones, ABROAD_RANGE, 'dev/nobody'));
    expect(run.stderr).toBe(
      `ivr-reporting: no account dev/nobody at ${target.url}: create it first (ivr-reporting accounts add dev nobody --password ... --timezone <the source account's>)\n`,
    );
  });
});
