import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/*
 * An install without the dev dependencies (docs/deployment.md's `npm prune --omit=dev`, or npx installing
 * the checkout to run its bin) has no TypeScript. `npm start`'s prestart and npm's prepare run
 * scripts/ensure-built.mjs, which must then run dist/ as built rather than fail on a missing `tsc`.
 */

const SCRIPT = path.resolve(__dirname, '../../scripts/ensure-built.mjs');

let folder: string;

beforeEach(async () => {
  // A checkout's shape with no node_modules: nothing resolves `typescript` from here.
  folder = await mkdtemp(path.join(os.tmpdir(), 'ivr-slim-'));
  await mkdir(path.join(folder, 'scripts'));
  await copyFile(SCRIPT, path.join(folder, 'scripts/ensure-built.mjs'));
});

afterEach(() => rm(folder, { recursive: true, force: true }));

function ensureBuilt(): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/ensure-built.mjs'], { cwd: folder, env: { PATH: process.env.PATH } }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : error === null ? 0 : -1, stdout, stderr }),
    );
  });
}

describe('scripts/ensure-built.mjs where TypeScript is not installed', () => {
  test('passes in silence when dist/ is built: npm start and npx run it as it is', async () => {
    await mkdir(path.join(folder, 'dist'));
    await writeFile(path.join(folder, 'dist/main.js'), '');
    expect(await ensureBuilt()).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  test('fails, saying what to run, when dist/ is not built', async () => {
    expect(await ensureBuilt()).toEqual({
      code: 1,
      stdout: '',
      stderr: 'ivr-reporting: dist/ is not built, and TypeScript is not installed to build it: run `npm ci` with the dev dependencies first\n',
    });
  });
});
