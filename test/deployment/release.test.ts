import { execFile } from 'node:child_process';
import { runProgram, type ProgramRun } from '../support/run-program';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { newestRelease, tarballProblems, versionMismatches } from '../../scripts/release-checks';
import { codeBlocks, docSection, documentText } from '../support/doc-section';
import { NO_DEMO_DATA, startServerCommand, stopIfRunning, type ServerProcess } from '../support/server-process';
import { describeOnDeploymentMachine } from '../support/services';

/*
 * `npm run release` (scripts/release.ts) as the person releasing runs it, in a copy of the checkout made a
 * repository of its own: first its refusals, which end it before it builds anything; then, where
 * TEST_DEPLOYMENT_DOC=true (.ci/run sets it), the whole run, and docs/deployment.md's "Building and
 * starting" as written: the server's tarball installed into an empty folder without the development
 * dependencies, and started by `npx ivr-reporting serve` and by `npm start` in the installed package.
 */

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const SERVER_TARBALL = `ivr-reporting-${VERSION}.tgz`;
const CLIENT_TARBALL = `ivr-reporting-client-${VERSION}.tgz`;
const BUILDING = docSection('docs/deployment.md', 'Building and starting');
/** Bounds on the slow steps, well past what they take on a loaded machine, so that a hang fails rather than stalls the run. */
const RELEASE_BOUND_MS = 540_000;
const INSTALL_BOUND_MS = 240_000;

/**
 * The environment of a person's shell: none of the npm run that started jest, no node_modules/.bin on PATH,
 * no container engine (the image is another suite's), and npm taking what its cache has before the registry.
 */
function userEnv(): NodeJS.ProcessEnv {
  const own = Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'INIT_CWD');
  const PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((folder) => !folder.endsWith(path.join('node_modules', '.bin')))
    .join(path.delimiter);
  return {
    ...Object.fromEntries(own),
    PATH,
    CONTAINER_ENGINE: 'none',
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    GIT_AUTHOR_NAME: 'test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  };
}

/** Runs a shell script in `cwd` as the person's shell would, within `timeout`; resolves whatever its exit code. */
function bash(script: string, cwd: string, timeout = RELEASE_BOUND_MS): Promise<ProgramRun> {
  return runProgram('bash', ['-e', '-c', script], { cwd, env: userEnv(), timeout });
}

let workDir: string;
/** The checkout as a clone of it would be now: the files git tracks or would add, committed afresh, with the checkout's node_modules. */
let origin: string;

/** A repository made of the checkout's files, with its node_modules linked, as `npm ci` would have installed them. */
async function snapshot(into: string): Promise<void> {
  const { stdout: listed } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT });
  for (const file of listed.split('\0').filter((name) => name !== '' && existsSync(path.join(ROOT, name)))) {
    cpSync(path.join(ROOT, file), path.join(into, file));
  }
  symlinkSync(realpathSync(path.join(ROOT, 'node_modules')), path.join(into, 'node_modules'));
  expect(await bash('git init -q -b main && git add -A && git commit -q -m snapshot', into)).toMatchObject({ code: 0 });
}

/** A clone of the snapshot, with the same node_modules, for a test that changes it. */
async function clone(name: string): Promise<string> {
  const folder = path.join(workDir, name);
  await run('git', ['clone', '-q', origin, folder]);
  symlinkSync(realpathSync(path.join(ROOT, 'node_modules')), path.join(folder, 'node_modules'));
  return folder;
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'ivr-release-'));
  origin = path.join(workDir, 'origin');
  mkdirSync(origin);
  await snapshot(origin);
}, 120_000);

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('the version, one in every place that states it', () => {
  test("package.json's, its lock's, the client package's and its lock's are CHANGELOG.md's newest release", () => {
    const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as { version: string; packages: Record<string, { version?: string }> };
    expect(newestRelease(documentText('CHANGELOG.md'))?.version).toBe(VERSION);
    expect(
      versionMismatches(VERSION, {
        'package-lock.json': read('package-lock.json').version,
        "package-lock.json's root package": read('package-lock.json').packages['']?.version,
        'src/client/package.json': read('src/client/package.json').version,
        'src/client/package-lock.json': read('src/client/package-lock.json').version,
      }),
    ).toEqual([]);
  });

  test("docs/deployment.md's install names the server's tarball of that version, and docs/client.md the client's", () => {
    expect(BUILDING).toContain(`./${SERVER_TARBALL}`);
    expect(documentText('docs/client.md')).toContain(`\`${CLIENT_TARBALL}\``);
  });
});

test('docs/deployment.md\'s "Building and starting" has the two blocks run below: the release, then the install and the start', () => {
  const [release, install] = codeBlocks(BUILDING, 'sh');
  expect(codeBlocks(BUILDING, 'sh')).toHaveLength(2);
  expect(release).toBe('npm run release\n');
  expect(install?.trim().split('\n').at(-1)).toBe('npx ivr-reporting serve');
});

describe("scripts/release-checks.ts's checks", () => {
  test("the newest release is the first heading of a version and a date, after [Unreleased]", () => {
    expect(newestRelease('# Changelog\n\n## [Unreleased]\n\n- a\n\n## [1.2.0] - 2027-01-31\n\n## [1.1.0] - 2026-12-01\n')).toEqual({ version: '1.2.0', date: '2027-01-31' });
    expect(newestRelease('# Changelog\n\n## [Unreleased]\n\n## 0.1.0 (unreleased)\n')).toBeUndefined();
  });

  test("a tarball's problems: each file its manifest names and it lacks, each file it should not hold", () => {
    const manifest = {
      name: 'p',
      version: '1.0.0',
      main: 'dist/main.js',
      bin: { p: 'bin/p.mjs' },
      exports: { '.': './dist/main.js', './types': { types: './dist/types.d.ts', default: './dist/types.js' } },
      scripts: { prestart: 'node scripts/check.mjs', start: 'node dist/main.js' },
    };
    const files = ['package.json', 'dist/main.js', 'dist/types.js', 'dist/types.d.ts', 'dist/main.js.map', 'src/app.ts', 'test/support/x.ts', 'dist/a.test.js', 'README.md'];
    expect(tarballProblems('p-1.0.0.tgz', manifest, { LICENSE: 'its licence' }, files)).toEqual([
      'p-1.0.0.tgz lacks bin/p.mjs, which its package.json names',
      'p-1.0.0.tgz lacks scripts/check.mjs, which its package.json names',
      'p-1.0.0.tgz lacks LICENSE, its licence',
      'p-1.0.0.tgz holds dist/main.js.map (a source map, whose source is not shipped), which a release does not ship',
      'p-1.0.0.tgz holds src/app.ts (a TypeScript source), which a release does not ship',
      'p-1.0.0.tgz holds test/support/x.ts (a file of the tests, the benchmarks or CI), which a release does not ship',
      'p-1.0.0.tgz holds dist/a.test.js (a test), which a release does not ship',
    ]);
  });
});

describe('npm run release refuses, before it builds anything', () => {
  test('a work tree with changes not committed, naming them', async () => {
    const clean = await clone('dirty');
    writeFileSync(path.join(clean, 'stray.txt'), 'not committed\n');
    writeFileSync(path.join(clean, 'README.md'), `${readFileSync(path.join(clean, 'README.md'), 'utf8')}\nchanged\n`);
    const { code, stderr } = await bash('npm run release', clean, 60_000);
    expect(code).toBe(1);
    expect(stderr).toContain(
      'release: the work tree is not clean: a release is built from a commit alone, so commit or stash these first:\n   M README.md\n  ?? stray.txt\n',
    );
    expect(existsSync(path.join(clean, 'dist'))).toBe(false);
    expect(existsSync(path.join(clean, 'release'))).toBe(false);
  });

  test("a version the changelog, the locks and the client's package do not state, naming each", async () => {
    const bumped = await clone('bumped');
    const next = VERSION.replace(/\d+$/, (patch) => String(Number(patch) + 1));
    const manifest = JSON.parse(readFileSync(path.join(bumped, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(bumped, 'package.json'), `${JSON.stringify({ ...manifest, version: next }, null, 2)}\n`);
    expect(await bash('git commit -q -am "the version alone"', bumped)).toMatchObject({ code: 0 });
    const { code, stderr } = await bash('npm run release', bumped, 60_000);
    expect(code).toBe(1);
    expect(stderr).toContain(
      [
        `release: package.json's version is ${next}, and not every place that states it agrees:`,
        `  CHANGELOG.md's newest release heading says ${VERSION}, not ${next}`,
        `  package-lock.json says ${VERSION}, not ${next}`,
        `  package-lock.json's root package says ${VERSION}, not ${next}`,
        `  src/client/package.json says ${VERSION}, not ${next}`,
        `  src/client/package-lock.json says ${VERSION}, not ${next}`,
        `  src/client/package-lock.json's root package says ${VERSION}, not ${next}`,
        '',
      ].join('\n'),
    );
    expect(existsSync(path.join(bumped, 'release'))).toBe(false);
  });

  test('a changelog with no release heading, saying what to write', async () => {
    const unreleased = await clone('unreleased');
    writeFileSync(path.join(unreleased, 'CHANGELOG.md'), '# Changelog\n\n## [Unreleased]\n\n### Added\n\n- everything\n');
    expect(await bash('git commit -q -am "nothing released"', unreleased)).toMatchObject({ code: 0 });
    const { code, stderr } = await bash('npm run release', unreleased, 60_000);
    expect(code).toBe(1);
    expect(stderr).toContain(`release: CHANGELOG.md has no release heading: move the entries of ${VERSION} from "## [Unreleased]" under "## [${VERSION}] - YYYY-MM-DD"\n`);
  });
});

describeOnDeploymentMachine("npm run release, and docs/deployment.md's install of its server tarball, as written", () => {
  const [releaseBlock = '', installBlock = ''] = codeBlocks(BUILDING, 'sh');
  const installLines = installBlock.trim().split('\n');
  const serveLine = installLines.at(-1) as string;
  let released: ProgramRun;
  let consumer: string;
  let installed: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    released = await bash(releaseBlock, origin);
    consumer = path.join(workDir, 'consumer');
    mkdirSync(consumer);
    installed = path.join(consumer, 'node_modules/ivr-reporting');
  }, RELEASE_BOUND_MS + 30_000);

  afterEach(() => stopIfRunning(server));

  test('writes the two tarballs, named by the version, and SHA256SUMS; prints their sizes and digests, and that it built no image', () => {
    expect(released).toMatchObject({ code: 0, stderr: '' });
    const output = path.join(origin, 'release');
    expect(readdirSync(output).sort()).toEqual(['SHA256SUMS', CLIENT_TARBALL, SERVER_TARBALL].sort());
    const digests = [SERVER_TARBALL, CLIENT_TARBALL].map((file) => ({
      file,
      size: statSync(path.join(output, file)).size,
      sha256: createHash('sha256').update(readFileSync(path.join(output, file))).digest('hex'),
    }));
    expect(readFileSync(path.join(output, 'SHA256SUMS'), 'utf8')).toBe(digests.map(({ file, sha256 }) => `${sha256}  ${file}\n`).join(''));
    for (const { file, size, sha256 } of digests) {
      expect(released.stdout).toMatch(new RegExp(`^  ${file.replace(/\./g, '\\.')} +${size.toLocaleString('en-US')} bytes  sha256 ${sha256}$`, 'm'));
    }
    const noImage = existsSync(path.join(origin, 'Dockerfile')) ? 'CONTAINER_ENGINE is none' : 'there is no Dockerfile at the top of the checkout';
    expect(released.stdout).toContain(`\n  no image: ${noImage}\n`);
  });

  test("the server's tarball holds what runs and what it reads, and none of the sources, tests, benchmarks or maps", async () => {
    const { stdout } = await run('tar', ['-tzf', path.join(origin, 'release', SERVER_TARBALL)]);
    const files = stdout.trim().split('\n').map((file) => file.replace(/^package\//, ''));
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'bin/ivr-reporting.mjs',
        'dist/main.js',
        'dist/cli/main.js',
        'dist/domain/survey-handler.d.ts',
        'src/client/dist/index.js',
        'src/client/dist/index.d.ts',
        'src/dashboard/browser/index.html',
        'scripts/ensure-built.mjs',
        '.env.example',
      ]),
    );
    expect(files.filter((file) => /^(test|bench|\.ci)\/|\.map$|\.tsbuildinfo$|^src\/.*(?<!\.d)\.ts$|\.test\./.test(file))).toEqual([]);
  });

  test('installs the server into an empty folder with its dependencies and none of the development ones; its --version is the release\'s', async () => {
    copyFileSync(path.join(origin, 'release', SERVER_TARBALL), path.join(consumer, SERVER_TARBALL));
    const install = await bash(installLines.slice(0, -1).join('\n'), consumer, INSTALL_BOUND_MS);
    expect(install).toMatchObject({ code: 0 });
    expect(existsSync(path.join(consumer, 'node_modules/express/package.json'))).toBe(true);
    expect(['typescript', 'jest', 'tsx'].filter((name) => existsSync(path.join(consumer, 'node_modules', name)))).toEqual([]);
    expect(await bash('npx ivr-reporting --version', consumer, 60_000)).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  }, INSTALL_BOUND_MS + 90_000);

  test.each([
    ['the documented `npx ivr-reporting serve`, in the folder it was installed in', () => startServerCommand('bash', ['-c', `exec ${serveLine}`], consumer, { ...userEnv(), ...NO_DEMO_DATA })],
    ['`npm start` in the installed package', () => startServerCommand('npm', ['start'], installed, { ...userEnv(), ...NO_DEMO_DATA })],
  ])('%s starts the server, which answers /healthz and serves the dashboard', async (_how, start) => {
    expect(existsSync(installed)).toBe(true);
    server = start();
    const url = await server.listening();
    const health = await fetch(`${url}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const dashboard = await fetch(`${url}/`);
    expect([dashboard.status, dashboard.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
  }, 120_000);
});
