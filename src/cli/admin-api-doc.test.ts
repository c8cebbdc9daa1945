import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { NO_DEMO_DATA, startServerProcess, type ServerProcess } from '../../test/support/server-process';
import { scratchFolder } from '../../test/support/cli';
import { codeBlocks, docSection, ROOT } from '../../test/support/doc-section';

/*
 * docs/admin-api.md's "Loading your own data", after its "Switching it on": the tool's commands run verbatim
 * against a server started as written, but for the demo data, which the walk-through does not read.
 */

const run = promisify(execFile);
const DOC_BASE = 'http://127.0.0.1:3000';
const DOC_FILE = '/tmp/calls.ndjson';
// Four tool runs through npx and a server start, each awaited to its exit: on two loaded cores that can
// take minutes, and the bound is only a safety net for a run that hangs.
const WALKTHROUGH_BOUND_MS = 300_000;

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

describe('docs/admin-api.md, "Loading your own data"', () => {
  test('walks through an account, its numbers, an import and a query with commands that work verbatim', async () => {
    const section = docSection('docs/admin-api.md', 'Loading your own data');
    const [startServer] = codeBlocks(docSection('docs/admin-api.md', 'Switching it on'), 'sh');
    const [createAccount, importFile, query, ...others] = codeBlocks(section, 'sh');
    expect(others).toEqual([]);
    const [record, ...otherRecords] = codeBlocks(section, 'json');
    const [csv, ...otherTables] = codeBlocks(section, 'csv');
    expect([...otherRecords, ...otherTables]).toEqual([]);
    const token = /^ADMIN_TOKEN=(\S+) npm start\n$/.exec(startServer ?? '')?.[1];
    expect(token).toBeDefined();
    expect(createAccount).toContain(`export ADMIN_TOKEN=${token}\n`);
    expect(importFile).toContain(`> ${DOC_FILE}\n`);
    server = startServerProcess({ ...NO_DEMO_DATA, ADMIN_TOKEN: token });
    const url = await server.listening();

    // The commands default to http://127.0.0.1:3000; the server here listens on a free port instead. They
    // run in the project folder, as the page says, but the file they write goes to a scratch folder.
    const bash = async (script: string) => {
      const adapted = script.replaceAll(DOC_BASE, url).replaceAll(DOC_FILE, path.join(files.path, path.basename(DOC_FILE)));
      return (await run('bash', ['-c', adapted], { cwd: ROOT, env: { PATH: process.env.PATH, PUBLIC_URL: url } })).stdout;
    };

    expect(await bash(createAccount!)).toBe(
      'created dev/acme  active  America/New_York  no numbers\n18005550200 assigned to dev/acme\n18005550201 assigned to dev/acme\n',
    );
    // The record as the page shows it, one NDJSON line, then as CSV: the same call, so a duplicate.
    const importAs = async (name: string, block: string | undefined) => {
      await writeFile(path.join(files.path, name), block ?? '');
      return bash(`export ADMIN_TOKEN=${token}\nnpx ivr-reporting import ${path.join(files.path, name)}`);
    };
    expect(await importAs('record.ndjson', record)).toBe('1 record read: 1 inserted, 0 duplicates, 0 rejected\n');
    expect(await importAs('record.csv', csv)).toBe('1 record read: 0 inserted, 1 duplicate, 0 rejected\n');
    expect(await bash(`export ADMIN_TOKEN=${token}\n${importFile}`)).toMatch(/^([\d,]+) records read: \1 inserted, 0 duplicates, 0 rejected\n$/);
    const report = JSON.parse(await bash(query!)) as Record<string, Record<string, number>>;
    expect(Object.values(report.calls!).reduce((sum, calls) => sum + calls, 0)).toBeGreaterThan(1000);
  }, WALKTHROUGH_BOUND_MS);
});
