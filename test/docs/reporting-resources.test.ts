import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { codeBlocks, docSection, fencedBlocks, type FencedBlock } from '../support/doc-section';
import { startServerProcess, type ServerProcess } from '../support/server-process';

/*
 * docs/reporting-resources.md: the commands of "Every resource with curl" work verbatim against a server
 * started as `npm start` starts it, on the demo data; the samples of the sections after it, with the calls
 * each describes loaded into the demo account (in 2018, months the demo data never reach), are what that
 * server answers.
 */

const run = promisify(execFile);
const DOC = 'docs/reporting-resources.md';
const SECTION = docSection(DOC, 'Every resource with curl');
const DOC_BASE = 'http://127.0.0.1:3000';
const ADMIN_TOKEN = 'admin-token-of-this-test';
const [PHONE, OTHER_PHONE] = ['18005550100', '18005550101'];

let server: ServerProcess;

/** An admin API request of this test's. */
async function adminRequest(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${await server.listening()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return response.json();
}

/** A call of the demo account's first number, in New York, version 1 unless given more. */
const call = (callId: string, startedAt: string, fields: object = {}) => ({
  call_id: callId,
  phone: PHONE,
  started_at: `${startedAt}-05:00`,
  log_events: 5,
  loops: 1,
  form_items: 2,
  ...fields,
});
const entry = (application: string, page: string, form: string, item: string, counts: object) => ({ application: `https://ivr.example.com/${application}`, page, form, item, ...counts });

/** The calls the sections describe, each section's in a range of its own. */
const SAMPLE_CALLS = [
  // "Call volume" and "Performance", 7 February: 61.5 s with one 45-second transfer, 30 s, and a version-1 record.
  call('volume-1', '2018-02-07T09:00:00', { caller: '+16175550123', duration_seconds: 61.5, transfers: 1, transfer_seconds: 45, js_errors: 2, fetch_errors: 1, page_loads: 4, page_load_seconds: 1.2 }),
  call('volume-2', '2018-02-07T11:00:00', { phone: OTHER_PHONE, caller: '6175550123', duration_seconds: 30, js_errors: 1, page_loads: 1, page_load_seconds: 0.3 }),
  call('volume-3', '2018-02-07T15:00:00'),
  // "Caller profile": with those three in the week of 5 February (the caller of Boston twice, on two numbers, written two ways), one from London; one in the next week.
  call('profile-1', '2018-02-08T10:00:00', { caller: '+447700900123' }),
  call('profile-2', '2018-02-13T10:00:00', { caller: '+16175550123' }),
  // "Geographic", March: Alabama twice, Massachusetts, toll-free, Canada twice, France, Britain, and a number nothing places.
  ...['+12055550123', '2055550124', '+16175550123', '8005550199', '+14165550123', '+16045550123', '+33612345678', '+447700900123', '5555550123'].map((caller, index) =>
    call(`geographic-${index}`, `2018-03-${String(index + 1).padStart(2, '0')}T10:00:00`, { caller }),
  ),
  // "Diagnostic flow", April: two calls through the start application, one of them on to billing.
  call('flow-1', '2018-04-02T10:00:00', {
    path: [entry('start.vxml', 'main.vxml', 'main_menu', 'selection', { visits: 2, filled: 1, nomatch: 1 }), entry('start.vxml', 'agent.vxml', 'transfer', 'agent', { visits: 1, transfer: 1 })],
  }),
  call('flow-2', '2018-04-03T10:00:00', {
    path: [
      entry('start.vxml', 'main.vxml', 'main_menu', 'selection', { visits: 1, filled: 1 }),
      entry('start.vxml', 'main.vxml', 'account', 'number', { visits: 1, noinput: 1, disconnect: 1 }),
      entry('billing.vxml', 'pay.vxml', 'confirm', 'yes_no', { visits: 1, filled: 1 }),
    ],
  }),
];

beforeAll(async () => {
  server = startServerProcess({ ADMIN_TOKEN });
  await server.listening();
  expect(await adminRequest('POST', '/admin/calls', SAMPLE_CALLS)).toEqual({ received: SAMPLE_CALLS.length, inserted: SAMPLE_CALLS.length, duplicates: 0, rejected: [] });
});

afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited();
});

const [setUp, volume, performance, callerProfile, geographic, flow, ...others] = codeBlocks(SECTION, 'sh');
/** Runs a block after the section's set-up (credentials and dates), in one shell. */
const bash = async (block: string | undefined) =>
  (await run('bash', ['-c', `${setUp}\n${block}`.replaceAll(DOC_BASE, await server.listening())])).stdout;
const answer = async (block: string | undefined) => JSON.parse(await bash(block)) as Record<string, unknown>;

test('the section has its set-up and one block per resource, and nothing else', () => {
  expect(others).toEqual([]);
  expect(fencedBlocks(SECTION)).toHaveLength(6);
});

test('the set-up keeps credentials and the last four weeks of the demo account in shell variables', async () => {
  expect(await bash('echo "$LOGIN $PASSWORD $FROM $TO"')).toMatch(/^[0-9a-f]{32} [0-9a-f]{32} \d{8} \d{8}\n$/);
});

test('each resource answers with its series, as the section names them', async () => {
  const monthlyVolume = await answer(volume);
  expect(Object.keys(monthlyVolume)).toEqual(['calls', 'call_minutes', 'transfers', 'transfer_minutes']);
  expect(Object.values(monthlyVolume.call_minutes as Record<string, number>).some((minutes) => minutes > 0)).toBe(true);
  expect(Object.keys(await answer(performance))).toEqual([
    'calls',
    'js_errors',
    'js_errors_per_call',
    'fetch_errors',
    'fetch_errors_per_call',
    'average_page_load',
  ]);
  const profile = await answer(callerProfile);
  const weeks = Object.keys(profile.calls as object);
  const [calls, callers] = [profile.calls, profile.callers].map((series) => Object.values(series as Record<string, number>).reduce((a, b) => a + b, 0));
  expect(Object.keys(profile.callers as object)).toEqual(weeks);
  expect(callers).toBeGreaterThan(0);
  expect(callers).toBeLessThan(calls as number);
  const places = await answer(geographic);
  expect(Object.keys(places)).toEqual(['US', 'NON_US']);
  expect(Object.keys(places.US as object)).toHaveLength(52);
  expect((places.NON_US as Array<{ country: string }>).map((entry) => entry.country)).toContain('CA');
  const { applications } = (await answer(flow)) as { applications: Record<string, Array<{ visits: number }>> };
  expect(Object.keys(applications).length).toBeGreaterThan(0);
});

test('a refused request gets the answer the section quotes', async () => {
  const mistake = /`(curl -s -u "\$LOGIN:\$PASSWORD" [^`]+)` gives\n`400 (\{[^`]+\})`/.exec(SECTION);
  expect(mistake).not.toBeNull();
  expect(await bash(mistake![1])).toBe(mistake![2]);
});

/** A block's JSON, or the answer a request of the section's set-up gets, in one shell. */
const sample = (block: FencedBlock | undefined) => block!.text.trim();
const asked = async (resource: string, accept = 'application/json') => (await bash(`curl -s -H 'Accept: ${accept}' -u "$LOGIN:$PASSWORD" ${DOC_BASE}/api/${resource}`)).trim();

test('"The call record, version 2": the record shown is accepted whole, its duration and transfer counted', async () => {
  const blocks = fencedBlocks(docSection(DOC, 'The call record, version 2'));
  expect(blocks.map(({ language }) => language)).toEqual(['json']);
  const record = JSON.parse(sample(blocks[0])) as { phone: string; path: object[] };
  await adminRequest('PUT', '/admin/accounts/dev/acme', { password: 'acme-password', timezone: 'America/New_York' });
  await adminRequest('PUT', `/admin/accounts/dev/acme/phones/${record.phone}`);
  expect(await adminRequest('POST', '/admin/calls', [record])).toEqual({ received: 1, inserted: 1, duplicates: 0, rejected: [] });
  const acme = `CREDS=$(curl -s -X POST ${DOC_BASE}/api/auth -d tool=dev -d login=acme -d password=acme-password)\n`;
  const volume = await bash(`${acme}curl -s -u "$(echo "$CREDS" | sed -E 's/.*"login":"([0-9a-f]+)".*/\\1/'):$(echo "$CREDS" | sed -E 's/.*"password":"([0-9a-f]+)".*/\\1/')" ${DOC_BASE}/api/volume/20180207/20180207/day/ALL`);
  expect(JSON.parse(volume)).toEqual({ calls: { 1517979600: 1 }, call_minutes: { 1517979600: 3.08 }, transfers: { 1517979600: 1 }, transfer_minutes: { 1517979600: 1 } });
});

describe('"Series resources"', () => {
  const blocks = fencedBlocks(docSection(DOC, 'Series resources'));
  const [volumeCommand, volume, performance, callerProfile] = blocks;

  test('has the volume command and answer, the performance answer in XML, the caller profile answer', () => {
    expect(blocks.map(({ language }) => language)).toEqual(['sh', 'json', 'xml', 'json']);
  });

  test('the call volume command, after the set-up, answers the calls of 7 February as shown', async () => {
    expect((await bash(volumeCommand!.text)).trim()).toBe(sample(volume));
  });

  test('the performance of those calls, in XML, and the caller profile of those weeks, are as shown', async () => {
    expect(await asked('performance/20180207/20180207/day/ALL', 'application/xml')).toBe(sample(performance));
    expect(await asked('profile/20180205/20180213/week/ALL')).toBe(sample(callerProfile));
  });
});

test('"Geographic": the calls of March, placed, are as shown', async () => {
  const blocks = fencedBlocks(docSection(DOC, 'Geographic'));
  expect(blocks.map(({ language }) => language)).toEqual(['json']);
  expect(await asked('profile/20180301/20180331/ALL')).toBe(sample(blocks[0]));
});

test('"Diagnostic flow": the form items of April are as shown', async () => {
  const blocks = fencedBlocks(docSection(DOC, 'Diagnostic flow'));
  expect(blocks.map(({ language }) => language)).toEqual(['json']);
  expect(await asked('path/20180401/20180430/ALL')).toBe(sample(blocks[0]));
});
