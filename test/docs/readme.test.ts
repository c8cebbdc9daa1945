import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServerProcess, stopIfRunning, type ServerProcess } from '../support/server-process';

const run = promisify(execFile);
const README = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
const README_BASE = 'http://127.0.0.1:3000';

/** The fenced blocks of one README section, in order. */
function shellBlocks(section: string): string[] {
  const start = README.indexOf(`## ${section}`);
  const end = README.indexOf('\n## ', start + 3);
  const text = README.slice(start, end === -1 ? undefined : end);
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

let server: ServerProcess;

beforeAll(async () => {
  server = startServerProcess({});
  await server.listening();
});

afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited();
});

const bash = async (script: string) => (await run('bash', ['-c', script.replaceAll(README_BASE, await server.listening())])).stdout;

describe('README', () => {
  test('gives the two set-up commands on its first screen', () => {
    const [setUp] = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
    expect(setUp?.split('\n').filter(Boolean).map((line) => line.split('#')[0]!.trim())).toEqual(['npm ci && npm start', 'npm test']);
    expect(README.indexOf('npm test')).toBeLessThan(800);
  });

  test('has no example that writes a file into the folder it runs in (the checkout, for most readers)', () => {
    const commands = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string).join('\n');
    const written = [...commands.matchAll(/\s(?:>>?|-[cob]|--output|--cookie-jar)\s*([^\s&|;<>]+)/g)].map((match) => match[1] as string);
    expect(written.filter((file) => !file.startsWith('/') && !file.startsWith('&'))).toEqual([]);
  });

  test('walks through authentication and event reports with commands that work verbatim', async () => {
    const [authenticate, byMonth, byWeekInXml] = shellBlocks('Try it with curl');
    expect(JSON.parse(await bash(authenticate!))).toEqual({ login: expect.stringMatching(/^[0-9a-f]{32}$/), password: expect.stringMatching(/^[0-9a-f]{32}$/) });

    const monthly = JSON.parse(await bash(byMonth!)) as Record<string, Record<string, number>>;
    expect(Object.keys(monthly)).toEqual(['calls', 'log_events', 'loops_per_call', 'form_items', 'loops', 'average_form_items']);
    // The last four weeks of the demo account's days: four or five weeks, each with calls.
    expect([4, 5]).toContain(Object.keys(monthly.calls!).length);
    expect(Object.values(monthly.calls!).every((calls) => calls > 0)).toBe(true);

    const weeklyXml = await bash(`${byMonth}\n${byWeekInXml}`);
    expect(weeklyXml).toMatch(/^\{.*\}<\?xml version="1\.0" encoding="UTF-8"\?>\n<result>\n {2}<calls>\n {4}<period timestamp="\d+">\d+<\/period>\n/s);
    expect(weeklyXml.length).toBeLessThan(4_000);
  });

  test('walks through every other raw-data resource with commands that work verbatim', async () => {
    const [, byMonth, , volume, performance, callerProfile, geographic, flow] = shellBlocks('Try it with curl');
    const answer = async (block: string | undefined) => JSON.parse(await bash(`{ ${byMonth}\n} >/dev/null\n${block}`)) as Record<string, unknown>;

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

  test('shows a refused request with the answer the server really gives', async () => {
    const [, byMonth] = shellBlocks('Try it with curl');
    const mistake = /`(curl -s -u "\$LOGIN:\$PASSWORD" [^`]+)` gives\n`400 (\{[^`]+\})`/.exec(README);
    expect(mistake).not.toBeNull();
    const output = await bash(`{ ${byMonth}\n} >/dev/null\n${mistake![1]}`);
    expect(output).toBe(mistake![2]);
  });

  describe('A sandbox for client authors', () => {
    let sandbox: ServerProcess | undefined;

    afterEach(() => stopIfRunning(sandbox));

    test('forces three 429s that the typed client waits out, then moves the clock past expiry and the client authenticates again', async () => {
      const [start, addScenario, runClient] = shellBlocks('A sandbox for client authors');
      const variables = /^((?:\w+=\S+ )+)npm start\n$/.exec(start!);
      expect(variables).not.toBeNull();
      sandbox = startServerProcess(Object.fromEntries(variables![1]!.trim().split(' ').map((pair) => pair.split('=') as [string, string])));
      const url = await sandbox.listening();
      const scenario = JSON.parse((await run('bash', ['-c', addScenario!.replaceAll(README_BASE, url)])).stdout) as Record<string, unknown>;
      expect(scenario).toMatchObject({ target: 'data', tool: 'dev', login: 'demo', status: 429, retry_after_seconds: 2, times: 3, fired: 0, active: true });
      const { stdout } = await run('bash', ['-c', runClient!.replaceAll(README_BASE, url)], { cwd: path.resolve(__dirname, '../..') });
      const events = (status: number) => new RegExp(`^GET ${url}/api/events/\\d{8}/\\d{8}/day/ALL ${status}$`);
      const calls = /^\{("\d+":\d+,){6}"\d+":\d+\}$/;
      const lines = stdout.trimEnd().split('\n');
      const expected = [
        new RegExp(`^POST ${url}/api/auth 200$`),
        events(429),
        /^waiting 2000 ms$/,
        events(429),
        /^waiting 2000 ms$/,
        events(429),
        /^waiting 2000 ms$/,
        events(200),
        calls,
        events(401),
        new RegExp(`^POST ${url}/api/auth 200$`),
        events(304),
        calls,
      ];
      expect(lines).toHaveLength(expected.length);
      lines.forEach((line, index) => expect(line).toMatch(expected[index]!));
      expect(lines[8]).toBe(lines[12]);
    });
  });
});
