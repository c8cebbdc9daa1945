import { LIMITS_OUT_OF_REACH } from '../../../test/support/test-app';
import { admin, ADMIN_TOKEN, startAdminServer, type AdminServer } from '../../../test/support/admin';
import { runCli } from '../../../test/support/cli';
import { addCalls } from '../../../test/support/reporting';
import { compareReports, reportingAccount } from '../../../test/support/report-comparison';
import type { CallRecordInput, PathStep } from '../../domain/call-record';
import { DEMO_ACCOUNT, loadDemoData } from '../../startup-data/demo/demo-account';
import { mulberry32, seedFrom } from '../../startup-data/demo/random';

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
  await loadDemoData(source.testApp.store, source.testApp.clock);
  await createAccount(source, ABROAD.tool, ABROAD.login, ABROAD.timeZone, ABROAD.phones);
  await admin(source.url).put(`/admin/accounts/${ABROAD.tool}/${ABROAD.login}`).send({ password: ABROAD.password }).expect(200);
  await addCalls(source.testApp.store, abroadCalls());
  await createAccount(target, 'dev', 'demo-mirror', DEMO_ACCOUNT.timeZone, DEMO_ACCOUNT.phones);
  await createAccount(target, 'dev', 'abroad-mirror', ABROAD.timeZone, ABROAD.phones);
});

afterEach(async () => {
  await source.server.close();
  await target.server.close();
});

const sourceOf = (account: { tool: string; login: string; password: string }) => reportingAccount(source.url, account.tool, account.login, account.password);
const mirrorOf = (login: string) => reportingAccount(target.url, 'dev', login, 'mirror-password');

describe('ivr-reporting mirror', () => {
  test('mirrors the demo account: every report per number and for ALL, by day, week and month, is equal or within its stated bound', async () => {
    const run = await runCli(mirrorArgs(DEMO_ACCOUNT, DEMO_ACCOUNT.phones, DEMO_RANGE, 'dev/demo-mirror'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^mirrored 3 numbers, 20171009-20180207 \(122 days\), into dev\/demo-mirror: [\d,]+ calls \([\d,]+ inserted, 0 duplicates\)\n/);
    expect(run.stdout).toContain('\n18 data requests to the source (and 1 login), which allows 1,000,000 a window: a run fits in one of its rate-limit windows\n');
    expect(await compareReports(await sourceOf(DEMO_ACCOUNT), await mirrorOf('demo-mirror'), DEMO_ACCOUNT.phones, DEMO_RANGE.start, DEMO_RANGE.end)).toEqual([]);
  });

  test('mirrors an account with callers abroad, toll-free and unplaceable callers, transfers and a flow, in London time', async () => {
    const run = await runCli(mirrorArgs(ABROAD, ABROAD.phones, ABROAD_RANGE, 'dev/abroad-mirror'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(await compareReports(await sourceOf(ABROAD), await mirrorOf('abroad-mirror'), ABROAD.phones, ABROAD_RANGE.start, ABROAD_RANGE.end)).toEqual([]);
  });
});
