import { runProgram } from '../support/run-program';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { codeBlocks, docSection } from '../support/doc-section';
import { describeWith, SYSTEMD_ANALYZE } from '../support/real-programs';

const SECTION = docSection('docs/deployment.md', 'As a systemd service');
const [UNIT] = codeBlocks(SECTION, 'ini');

let folder: string;
beforeEach(() => (folder = mkdtempSync(path.join(tmpdir(), 'ivr-unit-'))));
afterEach(() => rmSync(folder, { recursive: true, force: true }));

async function verify(unit: string): Promise<{ code: number; output: string }> {
  const file = path.join(folder, 'ivr-reporting.service');
  writeFileSync(file, unit);
  const { code, stdout, stderr } = await runProgram('systemd-analyze', ['verify', '--man=no', file]);
  return { code, output: stdout + stderr };
}

test("docs/deployment.md's unit runs what an instance runs, node dist/main.js, as the page says", () => {
  expect(codeBlocks(SECTION, 'ini')).toHaveLength(1);
  expect(UNIT).toMatch(/^ExecStart=\/usr\/bin\/node dist\/main\.js$/m);
  expect(UNIT).toMatch(/^KillSignal=SIGTERM$/m);
  expect(SECTION).toContain('`/etc/systemd/system/ivr-reporting.service`');
});

describeWith(SYSTEMD_ANALYZE)("docs/deployment.md's systemd unit", () => {
  // systemd-analyze checks that ExecStart's program exists: the Node.js running the tests stands in for /usr/bin/node.
  const unit = (UNIT ?? '').replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `);

  test('passes systemd-analyze verify without a word', async () => {
    expect(await verify(unit)).toEqual({ code: 0, output: '' });
  });

  test('the check fails on a mistyped key, so that the pass above means something', async () => {
    const broken = await verify(unit.replace('ExecStart=', 'ExecStat='));
    expect(broken.code).toBe(1);
    expect(broken.output).toContain("Unknown key 'ExecStat' in section [Service]");
  });
});
