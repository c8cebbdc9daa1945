// The client as its users get it: the package ivr-reporting-client (package.json beside this file), put into
// a project of its own by each of docs/client.md's install steps as written, then type-checked with the
// settings `tsc --init` writes and `"skipLibCheck": false`, and run against the server: the example, and the
// import with the handling of errors, each failure it handles provoked. Its build,
// src/client/dist/, is brought up to date by jest's global setup (tsconfig.build.json references it).
import { execFile } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { codeBlocks, docSection, documentText, fencedBlocks } from '../../test/support/doc-section';
import { startServerProcess, stopIfRunning, type ServerProcess } from '../../test/support/server-process';

const run = promisify(execFile);

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(__dirname, 'dist');
const TSC = require.resolve('typescript/bin/tsc');
const CLIENT_DOC = documentText('docs/client.md');
const INSTALL = docSection('docs/client.md', 'Install');
const IMPORT = docSection('docs/client.md', 'Import');
const EXAMPLE = docSection('docs/client.md', 'Example');
const ERRORS = docSection('docs/client.md', 'Errors');
const RETRIES = docSection('docs/client.md', 'Retries');
const DOC_CHECKOUT = '/path/to/ivr-reporting';
const DOC_GIT_URL = 'https://git.example.com/ivr-reporting.git';
const DOC_BASE_URL = 'http://127.0.0.1:3000';
const PACKAGE_NAME = 'ivr-reporting-client';
/** What `npm pack` names the package's tarball, as docs/client.md's install steps name it. */
const TARBALL = `${PACKAGE_NAME}-${(JSON.parse(readFileSync(path.join(__dirname, 'package.json'), 'utf8')) as { version: string }).version}.tgz`;

/** The one shell block of one of "## Install"'s ways, the text under its `###` heading. */
function installBlock(heading: string): string {
  const start = INSTALL.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`docs/client.md's "## Install" has no heading "${heading}"`);
  const end = INSTALL.indexOf('\n#', start + heading.length);
  const blocks = codeBlocks(INSTALL.slice(start, end === -1 ? undefined : end), 'sh');
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

const [DOC_IMPORT = ''] = codeBlocks(IMPORT, 'ts');
const [DOC_EXAMPLE = ''] = codeBlocks(EXAMPLE, 'ts');
const [DOC_ERRORS = ''] = codeBlocks(ERRORS, 'ts');
const [DOC_RETRIES = ''] = codeBlocks(RETRIES, 'ts');
/** "## Errors"'s handling of a failed call, after "## Import"'s line, with a client of the demo account as "## Example" makes one. */
const ERRORS_PROGRAM = `${DOC_IMPORT}
const client = createClient({ baseUrl: '${DOC_BASE_URL}', tool: 'dev', login: 'demo', password: 'demo-password' });
${DOC_ERRORS}`;
/** "## Retries"'s client, after "## Import"'s line, asking for a report of two days. */
const RETRIES_PROGRAM = `${DOC_IMPORT}
${DOC_RETRIES}
await client.volume({ start: '20180206', end: '20180207', period: 'day' });`;

/**
 * The environment of a user's shell: no variable of the npm run that started jest, and no node_modules/.bin
 * on PATH (packing must find the TypeScript that builds the client by itself). npm asks no registry
 * unless `npm` says it may.
 */
function userEnv(npm: Readonly<Record<string, string>> = { npm_config_offline: 'true' }): NodeJS.ProcessEnv {
  const own = Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'INIT_CWD');
  const PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((folder) => !folder.endsWith(path.join('node_modules', '.bin')))
    .join(path.delimiter);
  return { ...Object.fromEntries(own), PATH, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...npm };
}

/** Runs a documented block in bash in `cwd`, each documented text replaced by this test's own. */
async function runBlock(block: string, cwd: string, replacements: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv): Promise<void> {
  const own = Object.entries(replacements).reduce((text, [documented, actual]) => text.replaceAll(documented, actual), block);
  await run('bash', ['-e', '-c', own], { cwd, env });
}

/**
 * A new project as docs/client.md's example assumes one: `npm init -y`, `"type": "module"`, and the
 * tsconfig.json that `tsc --init` writes, with only `"skipLibCheck"` turned to false.
 */
async function newProject(parent: string): Promise<string> {
  const project = path.join(parent, 'my-app');
  mkdirSync(project);
  const env = userEnv();
  await run('npm', ['init', '-y'], { cwd: project, env });
  await run('npm', ['pkg', 'set', 'type=module'], { cwd: project, env });
  await run(process.execPath, [TSC, '--init'], { cwd: project, env });
  const settings = readFileSync(path.join(project, 'tsconfig.json'), 'utf8');
  expect(settings).toContain('"skipLibCheck": true,');
  writeFileSync(path.join(project, 'tsconfig.json'), settings.replace('"skipLibCheck": true,', '"skipLibCheck": false,'));
  return project;
}

/** What `npm install` put in the project: the packages its lock file has in node_modules, and the installed client's dependencies. */
function installed(project: string): { packages: string[]; dependencies: unknown } {
  const lock = JSON.parse(readFileSync(path.join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  const manifest = JSON.parse(readFileSync(path.join(project, 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8')) as Record<string, unknown>;
  return { packages: Object.keys(lock.packages).filter((key) => key.startsWith('node_modules/')), dependencies: manifest.dependencies };
}

// Each line is a claim about the published types: an assignment that must compile, or one marked to fail.
const CONSUMER_SOURCE = `
import { createClient, RateLimitedError, type FlowEntry, type GeographicReport, type VolumeReport } from 'ivr-reporting-client';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
declare function expectType<Check extends true>(): void;

const options = { baseUrl: 'http://127.0.0.1:3000', tool: 'dev', login: 'alice', password: 'secret-password' } as const;
const client = createClient(options);
const xmlClient = createClient({ ...options, format: 'xml' });
const week = { start: '20180201', end: '20180207', period: 'week' } as const;
const range = { start: '20180201', end: '20180207' } as const;

export async function uses(): Promise<void> {
  const volume = await client.volume(week);
  expectType<Equal<typeof volume, VolumeReport>>();
  expectType<Equal<keyof VolumeReport, 'calls' | 'call_minutes' | 'transfers' | 'transfer_minutes'>>();
  expectType<Equal<VolumeReport['calls'], Record<string, number>>>();
  expectType<Equal<typeof volume, Awaited<ReturnType<typeof xmlClient.volume<'json'>>>>>();
  expectType<Equal<Awaited<ReturnType<typeof client.volume<'xml'>>>, string>>();
  expectType<Equal<keyof FlowEntry, 'page' | 'form' | 'item' | 'visits' | 'filled' | 'nomatch' | 'noinput' | 'transfer' | 'disconnect'>>();
  expectType<Equal<FlowEntry['visits'], number>>();
  expectType<Equal<FlowEntry['page'], string>>();
  expectType<Equal<GeographicReport['NON_US'][number], { country: string; calls: number }>>();

  const xml: string = await client.events(week, { format: 'xml' });
  const xmlByDefault: string = await xmlClient.flow(range);
  const json: GeographicReport = await xmlClient.geographic({ ...range, phone: '18005550100' }, { format: 'json' });
  const either: string | VolumeReport = await client.volume(week, { format: Math.random() > 0.5 ? 'xml' : 'json' });
  // @ts-expect-error: XML is text, not a report
  const notAReport: VolumeReport = await client.volume(week, { format: 'xml' });
  // @ts-expect-error: a period is day, week or month
  await client.performance({ ...range, period: 'year' });
  // @ts-expect-error: the geographic report covers the whole range, without a period
  await client.geographic({ start: '20180201', end: '20180207', period: 'day' });
  // @ts-expect-error: the tool is one of the four
  createClient({ ...options, tool: 'other' });
  // The global fetch, a wrapper of it and a URL fit the options.
  createClient({ ...options, baseUrl: new URL(options.baseUrl), fetch });
  createClient({ ...options, fetch: (url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(30_000) }) });
  try {
    await client.callerProfile(week);
  } catch (error) {
    if (error instanceof RateLimitedError) {
      const reset: Date | undefined = error.resetAt;
      const code: string | undefined = error.code;
      void [reset, code];
    }
  }
  void [xml, xmlByDefault, json, either, notAReport];
}
`;

const PUBLIC_VALUES = [
  'ApiError',
  'InvalidRequestError',
  'NetworkError',
  'RateLimitedError',
  'ReportingClientError',
  'ServerError',
  'UnauthorizedError',
  'UnexpectedResponseError',
  'createClient',
];
const COMPILED_MODULES = ['client.js', 'errors.js', 'index.js', 'kept-reports.js', 'retries.js', 'runtime.js'];

describe('the package ivr-reporting-client', () => {
  test('packs its compiled JavaScript, its declarations, its licence and package.json: no source, no test, no dependency', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', __dirname], { cwd: tmpdir(), env: userEnv() });
    const [packed] = JSON.parse(stdout) as { name: string; filename: string; entryCount: number; files: { path: string }[] }[];
    expect(packed?.filename).toBe(TARBALL);
    expect(packed?.files.map((file) => file.path).sort()).toEqual([
      'LICENSE',
      'dist/client.d.ts',
      'dist/client.js',
      'dist/errors.d.ts',
      'dist/errors.js',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/kept-reports.d.ts',
      'dist/kept-reports.js',
      'dist/retries.d.ts',
      'dist/retries.js',
      'dist/runtime.d.ts',
      'dist/runtime.js',
      'dist/types.d.ts',
      'dist/types.js',
      'package.json',
    ]);
    // docs/client.md says how many files it is.
    expect(CLIENT_DOC.replace(/\s+/g, ' ')).toContain(`the folder \`src/client/\` of this repository: ${packed?.entryCount} files`);
    const manifest = JSON.parse(readFileSync(path.join(__dirname, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
  });

  test("has the repository's licence, and builds with the server's TypeScript", () => {
    expect(readFileSync(path.join(__dirname, 'LICENSE'), 'utf8')).toBe(readFileSync(path.join(ROOT, 'LICENSE'), 'utf8'));
    const server = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const client = JSON.parse(readFileSync(path.join(__dirname, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const lock = JSON.parse(readFileSync(path.join(__dirname, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
    expect(client.devDependencies).toEqual({ typescript: server.devDependencies.typescript });
    expect(Object.keys(lock.packages)).toEqual(['', 'node_modules/typescript']);
    expect(lock.packages['node_modules/typescript']?.version).toBe(server.devDependencies.typescript);
  });

  test('requires nothing at run time but its own modules: no zod, no server module, no Node module', () => {
    const required = readdirSync(DIST)
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) => [...readFileSync(path.join(DIST, file), 'utf8').matchAll(/require\(([^)]*)\)/g)].map((match) => match[1]));
    expect(new Set(required)).toEqual(new Set(['"./client"', '"./errors"', '"./kept-reports"', '"./retries"', '"./runtime"']));
  });

  test("declares nothing that needs more than ES2023's lib: checked with no other lib and no types, its declarations load nothing else", () => {
    const declarations = readdirSync(DIST).filter((file) => file.endsWith('.d.ts'));
    expect(declarations.sort()).toEqual(['client.d.ts', 'errors.d.ts', 'index.d.ts', 'kept-reports.d.ts', 'retries.d.ts', 'runtime.d.ts', 'types.d.ts']);
    const program = ts.createProgram(declarations.map((file) => path.join(DIST, file)), {
      lib: ['lib.es2023.d.ts'],
      types: [],
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      target: ts.ScriptTarget.ES2023,
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: false,
      noEmit: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
    const loaded = program
      .getSourceFiles()
      .map((file) => file.fileName)
      .filter((file) => !program.isSourceFileDefaultLibrary(program.getSourceFile(file)!));
    expect(loaded.map((file) => path.relative(DIST, file)).sort()).toEqual(declarations);
  });

  test('is also `ivr-reporting/client` inside a checkout, for the first run of docs/sandbox.md: the same build, through the server package\'s exports', async () => {
    const { stdout } = await run(process.execPath, ['-p', "require.resolve('ivr-reporting/client')"], { cwd: ROOT, env: userEnv() });
    expect(stdout.trim()).toBe(path.join(DIST, 'index.js'));
  });
});

describe("docs/client.md's install steps, run as written in a project of tsc --init's settings", () => {
  let server: ServerProcess;
  let serverUrl: string;
  let workDir: string;

  beforeAll(async () => {
    server = startServerProcess({});
    serverUrl = await server.listening();
  });

  afterAll(() => stopIfRunning(server));

  beforeEach(() => {
    workDir = mkdtempSync(path.join(tmpdir(), 'ivr-reporting-client-'));
  });

  afterEach(() => rmSync(workDir, { recursive: true, force: true }));

  /**
   * The checks every install passes: one package and nothing else, the documentation's example and the type
   * claims compiled by the project's own tsconfig.json with no problem, and the example run against the server.
   */
  async function expectUsable(project: string): Promise<void> {
    expect(installed(project)).toEqual({ packages: [`node_modules/${PACKAGE_NAME}`], dependencies: undefined });
    expect(DOC_EXAMPLE).toContain(DOC_BASE_URL);
    writeFileSync(path.join(project, 'example.ts'), DOC_EXAMPLE.replace(DOC_BASE_URL, serverUrl));
    writeFileSync(path.join(project, 'uses.ts'), CONSUMER_SOURCE);
    writeFileSync(path.join(project, 'errors.ts'), ERRORS_PROGRAM.replace(DOC_BASE_URL, serverUrl));
    writeFileSync(path.join(project, 'retries.ts'), RETRIES_PROGRAM.replace(DOC_BASE_URL, serverUrl));
    const compiled = await run(process.execPath, [TSC, '-p', '.'], { cwd: project, env: userEnv() }).catch((failure: { stdout: string }) => failure);
    expect(compiled.stdout).toBe('');
    // A report of the demo account answered: nothing to handle, nothing printed.
    expect((await run(process.execPath, ['errors.js'], { cwd: project, env: userEnv() })).stdout).toBe('');

    const { stdout } = await run(process.execPath, ['example.js'], { cwd: project, env: userEnv() });
    const lines = stdout.trimEnd().split('\n');
    const weeks = lines.slice(0, -1);
    expect([4, 5]).toContain(weeks.length);
    for (const week of weeks) expect(week).toMatch(/^week of \w{3} \w{3} \d{2} \d{4}: \d+ calls, \d+(\.\d+)? minutes$/);
    expect(lines.at(-1)).toBe('<?xml version="1.0" encoding="UTF-8"?>');
  }

  test('has, in the sections these tests claim, only the blocks they run: three ways to install, the import, the example, the handling of errors, the retries', () => {
    expect([INSTALL, IMPORT, EXAMPLE, ERRORS, RETRIES].map((section) => fencedBlocks(section).map(({ language }) => language))).toEqual([
      ['sh', 'sh', 'sh'],
      ['ts'],
      ['ts'],
      ['ts'],
      ['ts'],
    ]);
  });

  test('from a checkout, as a tarball: one package, strictly typed, the example runs; require() and import load only its modules', async () => {
    const project = await newProject(workDir);
    await runBlock(installBlock('### From a checkout, as a tarball'), project, { [DOC_CHECKOUT]: ROOT }, userEnv());
    expect(readdirSync(project).filter((file) => file.endsWith('.tgz'))).toEqual([TARBALL]);
    const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toEqual({ [PACKAGE_NAME]: `file:${TARBALL}` });
    await expectUsable(project);

    // "## Errors"'s two cases, on a server that forces a 429 once and then refuses the month as too long a range.
    const refusing = startServerProcess({ ADMIN_TOKEN: 'admin-token-of-this-test', MAX_RANGE_DAYS: '7' });
    try {
      const refusingUrl = await refusing.listening();
      const scenario = await fetch(`${refusingUrl}/admin/scenarios`, {
        method: 'POST',
        headers: { Authorization: 'Bearer admin-token-of-this-test', 'Content-Type': 'application/json' },
        body: JSON.stringify({ target: 'data', status: 429, times: 1 }),
      });
      expect(scenario.status).toBe(201);
      const compiled = readFileSync(path.join(project, 'errors.js'), 'utf8');
      expect(compiled).toContain(serverUrl);
      writeFileSync(path.join(project, 'errors-refused.js'), compiled.replace(serverUrl, refusingUrl));
      const handled = async () => (await run(process.execPath, ['errors-refused.js'], { cwd: project, env: userEnv() })).stdout;
      expect(await handled()).toMatch(/^try again at \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\n$/);
      expect(await handled()).toBe('the range covers 28 days; at most 7 days can be asked for at once\n');

      // "## Retries"'s client through a reset: the hook prints the retry, and the report comes.
      const reset = await fetch(`${refusingUrl}/admin/scenarios`, {
        method: 'POST',
        headers: { Authorization: 'Bearer admin-token-of-this-test', 'Content-Type': 'application/json' },
        body: JSON.stringify({ target: 'data', connection: 'reset', times: 1 }),
      });
      expect(reset.status).toBe(201);
      const retrying = readFileSync(path.join(project, 'retries.js'), 'utf8').replace(serverUrl, refusingUrl);
      writeFileSync(path.join(project, 'retries-reset.js'), retrying);
      const retried = await run(process.execPath, ['retries-reset.js'], { cwd: project, env: userEnv() });
      const volumeUrl = `${refusingUrl}/api/volume/20180206/20180207/day/ALL`;
      expect(retried).toEqual({ stdout: '', stderr: expect.stringMatching(new RegExp(`^retry 1 of ${volumeUrl} in \\d+ ms: no answer from ${volumeUrl}: \\S+\n$`)) as unknown });
    } finally {
      await stopIfRunning(refusing);
    }

    writeFileSync(
      path.join(project, 'require.cjs'),
      `const client = require('${PACKAGE_NAME}');
       const modules = Object.keys(require.cache).filter((module) => module !== __filename);
       console.log(JSON.stringify({ exports: Object.keys(client).sort(), modules }));`,
    );
    const required = JSON.parse((await run(process.execPath, ['require.cjs'], { cwd: project })).stdout) as { exports: string[]; modules: string[] };
    expect(required.exports).toEqual(PUBLIC_VALUES);
    const installedDist = path.join(project, 'node_modules', PACKAGE_NAME, 'dist');
    expect(required.modules.map((module) => path.relative(installedDist, module)).sort()).toEqual(COMPILED_MODULES);

    // Node finds the named exports of CommonJS by reading it; `default`, `__esModule` (and, from Node 23, `module.exports`) come with them.
    writeFileSync(path.join(project, 'import.mjs'), `import * as client from '${PACKAGE_NAME}';\nconsole.log(JSON.stringify(Object.keys(client).sort()));`);
    const imported = JSON.parse((await run(process.execPath, ['import.mjs'], { cwd: project })).stdout) as string[];
    expect(imported.filter((name) => !['default', '__esModule', 'module.exports'].includes(name))).toEqual(PUBLIC_VALUES);
  });

  test("from a checkout, by path: the checkout's folder linked, strictly typed, the example runs", async () => {
    const project = await newProject(workDir);
    await runBlock(installBlock('### From a checkout, by path'), project, { [DOC_CHECKOUT]: ROOT }, userEnv());
    const linked = path.join(project, 'node_modules', PACKAGE_NAME);
    expect(lstatSync(linked).isSymbolicLink()).toBe(true);
    expect(realpathSync(linked)).toBe(realpathSync(__dirname));
    await expectUsable(project);
  });

  test('from git: a clone beside the project, the client built with its own TypeScript and packed; strictly typed, the example runs', async () => {
    // The repository as a clone of it would be now: the files git tracks or would add, committed afresh.
    const origin = path.join(workDir, 'origin');
    const { stdout: listed } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT });
    for (const file of listed.split('\0').filter((name) => name !== '' && existsSync(path.join(ROOT, name)))) {
      cpSync(path.join(ROOT, file), path.join(origin, file));
    }
    const git = { ...userEnv(), GIT_AUTHOR_NAME: 'test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'test', GIT_COMMITTER_EMAIL: 'test@example.com' };
    await run('bash', ['-e', '-c', 'git init -q -b main && git add -A && git commit -q -m snapshot'], { cwd: origin, env: git });

    const project = await newProject(workDir);
    // TypeScript is the one package it may fetch, when npm's cache does not have it.
    await runBlock(installBlock('### From git'), project, { [DOC_GIT_URL]: `file://${origin}` }, userEnv({ npm_config_prefer_offline: 'true' }));
    expect(existsSync(path.join(workDir, 'ivr-reporting', 'src/client/node_modules/typescript/package.json'))).toBe(true);
    expect(readdirSync(project).filter((file) => file.endsWith('.tgz'))).toEqual([TARBALL]);
    await expectUsable(project);
  });
});
