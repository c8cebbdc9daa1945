import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { DateTime } from 'luxon';
import path from 'node:path';
import { promisify } from 'node:util';
import { codeBlocks, docSection, fencedBlocks, ROOT } from '../support/doc-section';
import { startServerProcess, stopIfRunning, type ServerProcess } from '../support/server-process';

/*
 * docs/mirror.md's first mirror, run as written: the source is `npm start` on the demo data, the sandbox a
 * second server started with the page's own seed file and variables; the dry run, the run and the two
 * reports it compares are what those servers answer.
 */

const run = promisify(execFile);
const SECTION = docSection('docs/mirror.md', 'A first mirror');
const [SOURCE_BASE, SANDBOX_BASE] = ['http://127.0.0.1:3000', 'http://127.0.0.1:3001'];
const DOC_SEED_FILE = '/tmp/mirror-copy.json';

let servers: ServerProcess[] = [];
let workDir = '';

beforeEach(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'ivr-mirror-doc-'));
});

afterEach(async () => {
  for (const server of servers) await stopIfRunning(server);
  servers = [];
  rmSync(workDir, { recursive: true, force: true });
});

function start(env: NodeJS.ProcessEnv): Promise<string> {
  const server = startServerProcess(env);
  servers.push(server);
  return server.listening();
}

test("docs/mirror.md's first mirror runs as written: a dry run, a run, and the same report from both servers", async () => {
  expect(fencedBlocks(SECTION).map(({ language }) => language)).toEqual(['sh', 'sh', 'sh', 'text', 'sh']);
  const [sandboxStart, dryRun, mirrorRun, compare] = codeBlocks(SECTION, 'sh');
  const [writeSeed, startLine] = (sandboxStart ?? '').trimEnd().split('\n');
  const variables = /^((?:\w+=\S+ )+)npm start$/.exec(startLine ?? '')?.[1];
  expect(variables).toBeDefined();
  const seedFile = path.join(workDir, 'mirror-copy.json');
  await run('bash', ['-c', (writeSeed ?? '').replace(DOC_SEED_FILE, seedFile)]);
  const sandboxEnv = Object.fromEntries((variables ?? '').trim().split(' ').map((pair) => pair.split('=') as [string, string]));
  expect(sandboxEnv.SEED_FILE).toBe(DOC_SEED_FILE);
  const [source, sandbox] = await Promise.all([start({}), start({ ...sandboxEnv, PORT: '0', SEED_FILE: seedFile })]);

  const separator = 'echo ----------';
  const script = [dryRun, separator, mirrorRun, separator, compare].join('\n').replaceAll(SOURCE_BASE, source).replaceAll(SANDBOX_BASE, sandbox);
  const { stdout } = await run('bash', ['-c', script], { cwd: ROOT });
  const [dryRunOutput, mirrorOutput, reports] = stdout.split('----------\n');

  const range = String.raw`\d{8}-\d{8} \(28 days\)`;
  expect(dryRunOutput).toMatch(new RegExp(String.raw`^dry run: would write ([\d,]+) calls into dev/demo-copy at ${sandbox}, ${range}\n`));
  const planned = /would write ([\d,]+) calls/.exec(dryRunOutput ?? '')?.[1];
  expect(dryRunOutput).toMatch(/\n\d+ data requests to the source \(and 1 login\), which allows 150 a window: a run fits in one of its rate-limit windows\n/);
  expect(mirrorOutput).toMatch(new RegExp(String.raw`^mirrored 3 numbers, ${range}, into dev/demo-copy: ${planned} calls \(${planned} inserted, 0 duplicates\)\n`));
  expect(mirrorOutput).toMatch(/\n {2}ALL: [\d,]+ distinct callers, the source's count over (all|\d+) of its \d+ days, weeks within a month, weeks and months/);
  const [sample] = codeBlocks(SECTION, 'text');
  expect(sample?.split('\n')[0]).toMatch(new RegExp(String.raw`^mirrored 3 numbers, ${range}, into dev/demo-copy: ([\d,]+) calls \(\1 inserted, 0 duplicates\)$`));

  // Four whole weeks, Monday to Sunday: the weekly report has four periods, none of them cut.
  const [first, last] = (/, (\d{8})-(\d{8}) \(28 days\)/.exec(mirrorOutput ?? '') ?? []).slice(1).map((day) => DateTime.fromFormat(day, 'yyyyMMdd'));
  expect([first?.weekday, last?.weekday]).toEqual([1, 7]);
  const [fromSource, fromSandbox] = (reports ?? '').trimEnd().split('\n');
  expect(Object.keys((JSON.parse(fromSource ?? '') as { calls: Record<string, number> }).calls)).toHaveLength(4);
  expect(fromSource).toMatch(/^\{"calls":\{"\d+":[1-9]/);
  expect(fromSandbox).toBe(fromSource);
});
