// The client as a user of the package gets it: dist/ (built by jest's global setup) through package.json's
// exports map, from a project of its own that has the package in node_modules.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { startServerProcess, stopIfRunning, type ServerProcess } from '../../test/support/server-process';

const ROOT = path.resolve(__dirname, '../..');
const DIST_CLIENT = path.join(ROOT, 'dist/client');
const CLIENT_DOC = readFileSync(path.join(ROOT, 'docs/client.md'), 'utf8');
/** The first TypeScript block after docs/client.md's "## Example". */
const DOC_EXAMPLE = /## Example\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(CLIENT_DOC)?.[1] ?? '';
const DOC_BASE_URL = 'http://127.0.0.1:3000';

let consumer: string;

beforeAll(() => {
  consumer = mkdtempSync(path.join(tmpdir(), 'ivr-reporting-consumer-'));
  mkdirSync(path.join(consumer, 'node_modules/@types'), { recursive: true });
  symlinkSync(ROOT, path.join(consumer, 'node_modules/ivr-reporting'), 'dir');
  symlinkSync(path.join(ROOT, 'node_modules/@types/node'), path.join(consumer, 'node_modules/@types/node'), 'dir');
  writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
});

afterAll(() => rmSync(consumer, { recursive: true, force: true }));

/** Runs a script in the consumer project and returns what it printed as JSON. */
function runInConsumer(file: string, source: string): unknown {
  writeFileSync(path.join(consumer, file), source);
  return JSON.parse(execFileSync(process.execPath, [file], { cwd: consumer, encoding: 'utf8' })) as unknown;
}

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

test("the compiled client requires nothing but its own files: no zod, no server module, no Node module", () => {
  const required = readdirSync(DIST_CLIENT)
    .filter((file) => file.endsWith('.js'))
    .flatMap((file) => [...readFileSync(path.join(DIST_CLIENT, file), 'utf8').matchAll(/require\(([^)]*)\)/g)].map((match) => match[1]));
  expect(new Set(required)).toEqual(new Set(['"./client"', '"./errors"', '"./kept-reports"']));
});

test('require("ivr-reporting/client") loads the client through the exports map, and no module outside dist/client', () => {
  const loaded = runInConsumer(
    'require.cjs',
    `const client = require('ivr-reporting/client');
     const modules = Object.keys(require.cache).filter((module) => module !== __filename);
     console.log(JSON.stringify({ exports: Object.keys(client).sort(), modules }));`,
  ) as { exports: string[]; modules: string[] };
  expect(loaded.exports).toEqual(PUBLIC_VALUES);
  const modules = loaded.modules.map((module) => path.relative(DIST_CLIENT, module)).sort();
  expect(modules).toEqual(['client.js', 'errors.js', 'index.js', 'kept-reports.js']);
});

test('import { createClient } from "ivr-reporting/client" works from an ES module, and the other entry points still resolve', () => {
  const resolved = runInConsumer(
    'import.mjs',
    `import { createRequire } from 'node:module';
     import { createClient, RateLimitedError } from 'ivr-reporting/client';
     const require = createRequire(import.meta.url);
     console.log(JSON.stringify({
       imported: [typeof createClient, typeof RateLimitedError],
       main: require.resolve('ivr-reporting'),
       packageJson: require.resolve('ivr-reporting/package.json'),
     }));`,
  );
  expect(resolved).toEqual({
    imported: ['function', 'function'],
    main: path.join(ROOT, 'dist/main.js'),
    packageJson: path.join(ROOT, 'package.json'),
  });
});

// Each line is a claim about the published types: an assignment that must compile, or one marked to fail.
const CONSUMER_SOURCE = `
import { createClient, RateLimitedError, type FlowEntry, type GeographicReport, type VolumeReport } from 'ivr-reporting/client';

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

test('a TypeScript project gets precise types through the exports map: the reports, XML as text, the parameters checked', () => {
  const uses = path.join(consumer, 'uses.ts');
  writeFileSync(uses, CONSUMER_SOURCE);
  // The documentation's example is an ES module (top-level await): .mts.
  const example = path.join(consumer, 'example.mts');
  writeFileSync(example, DOC_EXAMPLE);
  const program = ts.createProgram([uses, example], {
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    // The server's declarations that the report types are read from import Express's types, a devDependency.
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  expect(problems).toEqual([]);
});

describe("docs/client.md's example", () => {
  let server: ServerProcess | undefined;

  afterEach(() => stopIfRunning(server));

  test('runs as written against the demo data of npm start, printing each week and the start of the XML', async () => {
    server = startServerProcess({});
    const url = await server.listening();
    expect(DOC_EXAMPLE).toContain(DOC_BASE_URL);
    const { outputText } = ts.transpileModule(DOC_EXAMPLE.replace(DOC_BASE_URL, url), {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(path.join(consumer, 'example.mjs'), outputText);
    const { stdout } = await promisify(execFile)(process.execPath, ['example.mjs'], { cwd: consumer, encoding: 'utf8' });
    const lines = stdout.trimEnd().split('\n');
    const weeks = lines.slice(0, -1);
    expect([4, 5]).toContain(weeks.length);
    for (const week of weeks) expect(week).toMatch(/^week of \w{3} \w{3} \d{2} \d{4}: \d+ calls, \d+(\.\d+)? minutes$/);
    expect(lines.at(-1)).toBe('<?xml version="1.0" encoding="UTF-8"?>');
  });
});
