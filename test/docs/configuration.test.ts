import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { codeBlocks, docSection } from '../support/doc-section';
import { startServerProcess, stopIfRunning, type ServerProcess } from '../support/server-process';

/* docs/configuration.md's blocks as written: the settings of its example start, and its seed file. (Its "On PostgreSQL and Redis" command is the deployment guide's: test/deployment/from-an-empty-machine.test.ts.) */

let server: ServerProcess | undefined;
let folder = '';

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'configuration-doc-'));
});

afterEach(async () => {
  await stopIfRunning(server);
  rmSync(folder, { recursive: true, force: true });
});

/** The environment of a `VAR=value ... npm start` line. */
function startEnvironment(command: string | undefined): Record<string, string> {
  const assignments = /^((?:[A-Z_]+=\S+ )+)npm start\n$/.exec(command ?? '')?.[1];
  if (assignments === undefined) throw new Error(`not a "VAR=value ... npm start" line: ${command}`);
  return Object.fromEntries(assignments.trim().split(' ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** Temporary credentials of an account, as Basic authorization. */
async function login(url: string, account: string, password: string): Promise<string> {
  const answer = await fetch(`${url}/api/auth`, { method: 'POST', body: new URLSearchParams({ tool: 'dev', login: account, password }) });
  expect(answer.status).toBe(200);
  const credentials = (await answer.json()) as { login: string; password: string };
  return `Basic ${Buffer.from(`${credentials.login}:${credentials.password}`).toString('base64')}`;
}

test('the example start serves weeks from Sunday in the demo account', async () => {
  const [start, ...others] = codeBlocks(docSection('docs/configuration.md', 'Configuration'), 'sh');
  expect(others).toEqual([]);
  const environment = startEnvironment(start);
  expect(environment).toEqual({ PORT: '8080', DEFAULT_TIMEZONE: 'America/New_York', WEEK_START: 'sunday' });
  // A free port instead of 8080, which may be taken.
  server = startServerProcess({ ...environment, PORT: '0' });
  const url = await server.listening();
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
  const weeks = await fetch(`${url}/api/events/${day(30)}/${day(1)}/week/ALL`, { headers: { Authorization: await login(url, 'demo', 'demo-password') } });
  expect(weeks.status).toBe(200);
  const starts = Object.keys(((await weeks.json()) as { calls: Record<string, number> }).calls);
  expect(starts.length).toBeGreaterThanOrEqual(5);
  const weekday = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'long', hour: 'numeric', hourCycle: 'h23' });
  const startOf = (key: string) => weekday.formatToParts(new Date(Number(key) * 1000)).filter(({ type }) => type !== 'literal');
  expect(new Set(starts.map((key) => startOf(key).map(({ value }) => (Number.isNaN(Number(value)) ? value : Number(value))).join(' ')))).toEqual(
    new Set(['Sunday 0']),
  );
});

test('the seed file as written starts the server with its account and its call', async () => {
  const section = docSection('docs/configuration.md', 'Your own data at start');
  const [seed, ...others] = codeBlocks(section, 'json');
  expect(others).toEqual([]);
  expect(codeBlocks(section, 'sh')).toEqual([]);
  const file = path.join(folder, 'seed.json');
  writeFileSync(file, seed ?? '');
  server = startServerProcess({ SEED_FILE: file });
  const url = await server.listening();
  const day = await fetch(`${url}/api/events/20180207/20180207/day/ALL`, { headers: { Authorization: await login(url, 'alice', 'a long password') } });
  expect([day.status, await day.json()]).toEqual([
    200,
    { calls: { 1517979600: 1 }, log_events: { 1517979600: 7 }, loops_per_call: { 1517979600: 2 }, form_items: { 1517979600: 4 }, loops: { 1517979600: 2 }, average_form_items: { 1517979600: 4 } },
  ]);
});
