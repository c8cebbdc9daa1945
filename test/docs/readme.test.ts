import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/configuration';
import { docSection, documentText, fencedBlocks, ROOT } from '../support/doc-section';
import { expectLoginAsShown, expectSurveyCallAsShown, expectWeeklyReportsAsShown, TOUR } from '../support/readme-tour';
import { describeWith, PHP_SOAP } from '../support/real-programs';
import { startServerProcess, type ServerProcess } from '../support/server-process';

/* The README as a first visit reads it: one screen of what and why, the two commands, then a tour whose every block runs as written. */

const run = promisify(execFile);
const README = documentText('README.md');
/** The README's `# ` title, under which its first screen's block lies. */
const TITLE = 'ivr-reporting';
/** The README's line bound: a first page and a tour; every walk-through beyond it lives in docs/. */
const MOST_LINES = 200;

const shellBlocks = (text: string) => fencedBlocks(text).filter(({ language }) => language === 'sh').map(({ text: block }) => block);

let server: ServerProcess;

beforeAll(async () => {
  server = startServerProcess({});
  await server.listening();
});

afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited();
});

const bash = async (script: string) => (await run('bash', ['-c', script])).stdout;

describe('README', () => {
  test('gives the two set-up commands on its first screen', () => {
    const [setUp] = shellBlocks(README);
    expect(setUp?.split('\n').filter(Boolean).map((line) => line.split('#')[0]!.trim())).toEqual(['npm ci && npm start', 'npm test']);
    expect(README.indexOf('npm test')).toBeLessThan(800);
  });

  test('starts the server on its first screen with npm start as written: the default port, the in-memory store and the demo data', async () => {
    // The block above the first `##` heading, under the title.
    const [firstScreen] = fencedBlocks(README.slice(0, README.indexOf('\n## ')));
    expect(README.startsWith(`# ${TITLE}\n`)).toBe(true);
    const [install, start] = firstScreen!.text.split('\n')[0]!.split('#')[0]!.trim().split(' && ');
    expect([install, start]).toEqual(['npm ci', 'npm start']);
    // npm ci then npm test (of the suites that reach a service or a program) run in a fresh clone in .ci/run, not within the suite they would rerun.
    expect(readFileSync(path.join(ROOT, '.ci/fresh-clone-test.sh'), 'utf8')).toMatch(/^npm ci .*\nnpm test -- .*\n/m);
    expect(loadConfig({}).server.port).toBe(3000);
    const npmStart = spawn('bash', ['-c', `exec ${start}`], { cwd: ROOT, detached: true, env: { PATH: process.env.PATH, PORT: '0' } });
    const closed = new Promise((resolve) => npmStart.once('close', resolve));
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        let written = '';
        npmStart.stderr.on('data', (chunk: Buffer) => {
          written += chunk.toString();
          const line = /^IVR reporting server listening on .*$/m.exec(written);
          if (line !== null) resolve(line[0]);
        });
        void closed.then(() => reject(new Error(`npm start ended before its banner:\n${written}`)));
      });
      expect(banner).toMatch(/^IVR reporting server listening on http:\/\/127\.0\.0\.1:\d+ \(in-memory store with demo data\)$/);
    } finally {
      process.kill(-npmStart.pid!, 'SIGTERM');
      await closed;
    }
  });

  test(`is at most ${MOST_LINES} lines`, () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(MOST_LINES);
  });

  test('has, past the set-up commands, only the blocks of its tour, each run below', () => {
    // A block added to the README must be added here with a test that runs it, or moved to the doc it belongs to.
    expect(fencedBlocks(README).map(({ language }) => language)).toEqual(['sh', 'sh', 'json', 'sh', 'sh', 'sh']);
    expect(TOUR).toBe(docSection('README.md', 'A five-minute tour'));
    expect(fencedBlocks(TOUR)).toEqual(fencedBlocks(README).slice(1));
  });

  test('logs in with curl and shows the answer the server gives', async () => {
    await expectLoginAsShown(bash, await server.listening());
  });

  test('asks for a weekly report, then one number in XML, with commands that work verbatim', async () => {
    await expectWeeklyReportsAsShown(bash, await server.listening());
  });

  describeWith(PHP_SOAP)("the tour's survey call", () => {
    test("with PHP's SoapClient prints what the README says", async () => {
      await expectSurveyCallAsShown(bash, await server.listening());
    });
  });
});
