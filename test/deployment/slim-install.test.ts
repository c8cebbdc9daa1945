import { runProgram, type ProgramRun } from '../support/run-program';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/*
 * An install without the dev dependencies (docs/deployment.md's `npm prune --omit=dev`, or npx installing
 * the checkout to run its bin) has no TypeScript. `npm start`'s prestart and npm's prepare run
 * scripts/ensure-built.mjs, which must then run dist/ as built rather than fail on a missing `tsc`. A
 * release's package installed from its tarball has dist/ and no sources: it must run dist/ as built even
 * where its consumer's project has TypeScript.
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

function ensureBuilt(): Promise<ProgramRun> {
  return runProgram(process.execPath, ['scripts/ensure-built.mjs'], { cwd: folder, env: { PATH: process.env.PATH } });
}

/** A TypeScript stand-in in the folder's node_modules, which says it was run, as `tsc` would build. */
async function installTypescriptStandIn(): Promise<void> {
  await mkdir(path.join(folder, 'node_modules/typescript/bin'), { recursive: true });
  await writeFile(path.join(folder, 'node_modules/typescript/package.json'), '{"name":"typescript","version":"0.0.0"}');
  await writeFile(path.join(folder, 'node_modules/typescript/bin/tsc'), "process.stdout.write(`tsc ${process.argv.slice(2).join(' ')}\\n`);");
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

describe('scripts/ensure-built.mjs where TypeScript is installed', () => {
  test('builds in a checkout (tsconfig.build.json beside src/)', async () => {
    await installTypescriptStandIn();
    await writeFile(path.join(folder, 'tsconfig.build.json'), '{}');
    expect(await ensureBuilt()).toEqual({ code: 0, stdout: 'tsc -b tsconfig.build.json\n', stderr: '' });
  });

  test("passes in silence in a release's installed package, which has dist/ and no sources to build", async () => {
    await installTypescriptStandIn();
    await mkdir(path.join(folder, 'dist'));
    await writeFile(path.join(folder, 'dist/main.js'), '');
    expect(await ensureBuilt()).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
