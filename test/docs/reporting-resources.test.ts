import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { codeBlocks, docSection, fencedBlocks } from '../support/doc-section';
import { startServerProcess, type ServerProcess } from '../support/server-process';

/* docs/reporting-resources.md's "Every resource with curl": its commands work verbatim against a server started as `npm start` starts it. */

const run = promisify(execFile);
const SECTION = docSection('docs/reporting-resources.md', 'Every resource with curl');
const DOC_BASE = 'http://127.0.0.1:3000';

let server: ServerProcess;

beforeAll(async () => {
  server = startServerProcess({});
  await server.listening();
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
