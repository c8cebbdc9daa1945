import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { admin, ADMIN_TOKEN, postNdjson, startAdminServer, type AdminServer } from '../support/admin';
import { docSection, fencedBlocks, type FencedBlock } from '../support/doc-section';
import { addAccount } from '../support/test-app';
import { authenticate } from '../support/reporting';
import { post, sessionCookieOf, svcEval } from '../survey-clients/support';

/*
 * docs/admin-api.md past its walk-through (src/cli/admin-api-doc.test.ts runs that): each curl command as
 * written against a server with the admin API on, each answer shown compared with what the server answers.
 */

const run = promisify(execFile);
const DOC = 'docs/admin-api.md';
const DOC_BASE = 'http://127.0.0.1:3000';

let running: AdminServer | undefined;
let workDir = '';

beforeEach(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'admin-api-doc-'));
});

afterEach(async () => {
  await running?.server.close();
  running = undefined;
  await rm(workDir, { recursive: true, force: true });
});

async function start(env: NodeJS.ProcessEnv = {}): Promise<AdminServer> {
  running = await startAdminServer(env);
  return running;
}

/** A block as the page gives it, in bash in this test's folder, with the admin token exported as the page's reader has it. */
async function bash(block: FencedBlock): Promise<string> {
  const script = block.text.replaceAll(DOC_BASE, running!.url);
  return (await run('bash', ['-c', script], { cwd: workDir, env: { PATH: process.env.PATH, ADMIN_TOKEN } })).stdout;
}

const json = (block: FencedBlock | undefined): unknown => JSON.parse(block!.text);

test('"Accounts": the account shown is what the API answers for an account made so, and the expiry shown what it answers for a pair issued a day before', async () => {
  const blocks = fencedBlocks(docSection(DOC, 'Accounts'));
  expect(blocks.map(({ language }) => language)).toEqual(['json', 'json']);
  const { url, testApp } = await start();
  expect((await admin(url).put('/admin/accounts/dev/acme').send({ password: 'acme-password', timezone: 'America/New_York' })).status).toBe(201);
  expect((await admin(url).put('/admin/accounts/dev/acme/phones/18005550200')).status).toBe(201);
  expect((await admin(url).get('/admin/accounts/dev/acme')).body).toEqual(json(blocks[0]));

  const shown = json(blocks[1]) as { credentials: { login: string; expires_at: string }[] };
  const [credential] = shown.credentials;
  expect(credential?.login).toMatch(/^[0-9a-f]{32}$/);
  // Issued CREDENTIAL_TTL_SECONDS (24 hours) before the expiry shown.
  testApp.clock.set(Date.parse(credential!.expires_at) - 86_400_000);
  const { login } = await authenticate(url, { login: 'acme', password: 'acme-password' });
  const expired = await admin(url).post('/admin/accounts/dev/acme/credentials/expire');
  expect(expired.body).toEqual({ ...shown, credentials: [{ ...credential, login }] });
});

test('"The clock": the curl command moves a sandbox clock 25 hours on and answers as GET does', async () => {
  const blocks = fencedBlocks(docSection(DOC, 'The clock'));
  expect(blocks.map(({ language }) => language)).toEqual(['sh']);
  const { url, testApp } = await start({ SANDBOX_CLOCK: 'true' });
  const moved = { now: new Date(testApp.clock.now() + 90_000_000).toISOString(), offset_seconds: 90_000, movable: true };
  expect(JSON.parse(await bash(blocks[0]!))).toEqual(moved);
  expect((await admin(url).get('/admin/clock')).body).toEqual(moved);
});

test('"Scenarios": the curl command adds a scenario of three 429s and answers with it', async () => {
  const blocks = fencedBlocks(docSection(DOC, 'Scenarios'));
  expect(blocks.map(({ language }) => language)).toEqual(['sh']);
  const { url, testApp } = await start();
  const added = JSON.parse(await bash(blocks[0]!)) as { id: string };
  expect(added).toEqual({
    id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/) as unknown,
    target: 'data',
    tool: 'dev',
    login: 'demo',
    status: 429,
    times: 3,
    fired: 0,
    active: true,
    created_at: new Date(testApp.clock.now()).toISOString(),
  });
  expect((await admin(url).get('/admin/scenarios')).body).toEqual({ scenarios: [added] });
});

test('"Survey calls: the call inspector": the call shown is what the inspector keeps of a svcEval call with a recording', async () => {
  const blocks = fencedBlocks(docSection(DOC, 'Survey calls: the call inspector'));
  expect(blocks.map(({ language }) => language)).toEqual(['json']);
  const shown = json(blocks[0]) as { seq: number; session: string; handler_ms: number };
  const { url } = await start();
  // The calls before it, so that it is numbered as shown.
  for (let seq = 1; seq < shown.seq; seq += 1) expect((await post(url, svcEval(['Agree?'], ['no']))).status).toBe(200);
  // A WAV file's header, then silence: the recording the page shows by its size, type and first bytes.
  const wav = Buffer.concat([Buffer.from('RIFF\x00\x08\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(2048 - 16)]);
  const call = await post(url, svcEval(['Agree?', 'Your message'], ['yes', wav.toString('base64')]));
  expect(call.status).toBe(200);
  const session = sessionCookieOf(call).split('=')[1];
  const { body } = await admin(url).get('/admin/survey/calls');
  const [newest] = (body as { calls: object[] }).calls;
  expect(shown.session).toMatch(/^[0-9a-f]{32}$/);
  expect(typeof shown.handler_ms).toBe('number');
  // The session is the cookie this call was given, and the time the handler took is this run's.
  expect(newest).toEqual({ ...shown, session, handler_ms: expect.any(Number) as unknown });
});

describe('"Call records"', () => {
  const blocks = fencedBlocks(docSection(DOC, 'Call records'));
  const [record, answer, curl] = blocks;

  test('has a record, an answer and the curl command that sends a body', () => {
    expect(blocks.map(({ language }) => language)).toEqual(['json', 'json', 'sh']);
  });

  test('the curl command posts calls.ndjson, and the answer to the body the page describes is the one shown', async () => {
    const { url, testApp } = await start();
    await addAccount(testApp.store, { login: 'acme', phones: ['18005550200'] });
    // The record shown, stored before: the body sends it again as a duplicate.
    expect((await postNdjson(url, [record!.text.trim()])).body).toMatchObject({ inserted: 1, duplicates: 0 });
    const call = (callId: string, fields: object = {}) =>
      JSON.stringify({ ...(JSON.parse(record!.text) as object), call_id: callId, ...fields });
    const body = [
      call('c-2'),
      call('c-3', { started_at: '2018-02-30T10:15:00-05:00' }),
      call('c-4', { phone: '19990000' }),
      call('c-1'),
      call('c-5'),
      call('c-6', { started_at: '2018-02-07T10:16:00-05:00' }),
      call('c-7', { started_at: '2018-02-07T10:17:00-05:00' }),
    ];
    await writeFile(path.join(workDir, 'calls.ndjson'), `${body.join('\n')}\n`);
    const expected = json(answer) as { received: number; inserted: number; duplicates: number; rejected: unknown[] };
    expect(expected.received).toBe(expected.inserted + expected.duplicates + expected.rejected.length);
    expect(JSON.parse(await bash(curl!))).toEqual(expected);
  });
});

test('"Retention": the answer shown is what GET /admin/retention answers a year on from October\'s calls', async () => {
  const blocks = fencedBlocks(docSection(DOC, 'Retention'));
  expect(blocks.map(({ language }) => language)).toEqual(['json']);
  const shown = json(blocks[0]) as { months: Array<{ calls: number }> };
  const { url, testApp } = await start({ RETENTION_MONTHS: '12' });
  await addAccount(testApp.store, { phones: ['18005550200'] });
  const october = Array.from({ length: shown.months[0]!.calls }, (_, index) =>
    JSON.stringify({ call_id: `c-${index}`, phone: '18005550200', started_at: '2025-10-15T12:00:00Z', log_events: 1, loops: 0, form_items: 0 }),
  );
  expect((await postNdjson(url, october)).body).toMatchObject({ inserted: october.length });
  testApp.clock.set(Date.parse('2026-11-25T12:00:00Z'));
  expect((await admin(url).get('/admin/retention')).body).toEqual(shown);
});
