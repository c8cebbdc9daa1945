import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServerProcess, type ServerProcess } from '../../test/support/server-process';
import { scratchFolder } from '../../test/support/cli';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const README_BASE = 'http://127.0.0.1:3000';
const README_FILE = '/tmp/calls.ndjson';
// Four tool runs through npx and a server start, each awaited to its exit: on two loaded cores that can
// take minutes, and the bound is only a safety net for a run that hangs.
const WALKTHROUGH_BOUND_MS = 300_000;

function section(title: string): string {
  const start = README.indexOf(`## ${title}\n`);
  const end = README.indexOf('\n## ', start + 3);
  return README.slice(start, end);
}

const shellBlocks = (text: string) => [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);

let server: ServerProcess | undefined;
let files: Awaited<ReturnType<typeof scratchFolder>>;

beforeEach(async () => {
  files = await scratchFolder();
});

afterEach(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited();
  await files.remove();
});

describe('README "Loading your own data"', () => {
  test('walks through an account, its numbers, an import and a query with commands that work verbatim', async () => {
    const [startServer, createAccount, importFile, query] = shellBlocks(section('Loading your own data'));
    const token = /^ADMIN_TOKEN=(\S+) npm start\n$/.exec(startServer ?? '')?.[1];
    expect(token).toBeDefined();
    expect(importFile).toContain(`> ${README_FILE}\n`);
    server = startServerProcess({ ADMIN_TOKEN: token });
    const url = await server.listening();

    // The commands default to http://127.0.0.1:3000; the server here listens on a free port instead. They
    // run in the project folder, as the README says, but the file they write goes to a scratch folder.
    const bash = async (script: string) => {
      const adapted = script.replaceAll(README_BASE, url).replaceAll(README_FILE, path.join(files.path, path.basename(README_FILE)));
      return (await run('bash', ['-c', adapted], { cwd: ROOT, env: { PATH: process.env.PATH, PUBLIC_URL: url } })).stdout;
    };

    expect(await bash(createAccount!)).toBe(
      'created dev/acme  active  America/New_York  no numbers\n18005550200 assigned to dev/acme\n18005550201 assigned to dev/acme\n',
    );
    expect(await bash(`export ADMIN_TOKEN=${token}\n${importFile}`)).toMatch(/^([\d,]+) records read: \1 inserted, 0 duplicates, 0 rejected\n$/);
    const report = JSON.parse(await bash(query!)) as Record<string, Record<string, number>>;
    expect(Object.values(report.calls!).reduce((sum, calls) => sum + calls, 0)).toBeGreaterThan(1000);
  }, WALKTHROUGH_BOUND_MS);
});
