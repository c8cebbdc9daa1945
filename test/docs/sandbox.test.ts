import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { codeBlocks, docSection, documentText, fencedBlocks, ROOT } from '../support/doc-section';
import { startServerProcess, stopIfRunning, type ServerProcess } from '../support/server-process';

const run = promisify(execFile);
const SANDBOX_DOC = documentText('docs/sandbox.md');
const DOC_BASE = 'http://127.0.0.1:3000';
const FIRST_RUN = docSection('docs/sandbox.md', 'A first run: the typed client through three 429s and an expiry');
const STARTING = docSection('docs/sandbox.md', 'Starting the sandbox');

/** The server's start every section assumes. */
const [start] = codeBlocks(STARTING, 'sh');
/** The recipes' sections, each with how many blocks it has. */
const RECIPES = [
  [docSection('docs/sandbox.md', 'Recipe: test my retry logic'), 2],
  [docSection('docs/sandbox.md', 'Recipe: test re-authentication after expiry'), 3],
  [docSection('docs/sandbox.md', 'Recipe: test a slow report'), 2],
  [docSection('docs/sandbox.md', 'Recipe: test my client on a flaky network'), 2],
  [docSection('docs/sandbox.md', 'Recipe: a connection reset in the middle of a report'), 1],
  [docSection('docs/sandbox.md', 'Recipe: a survey system against a web service that drops the line'), 1],
] as const;
/** The shell set-up the recipes assume, as the page writes it. */
const adminHeaders = /and, in the shell you run them from, `(ADMIN=\(.*\))`\./.exec(SANDBOX_DOC)?.[1];

let server: ServerProcess | undefined;

afterEach(() => stopIfRunning(server));

/** The server started as the page's first block starts it, on a free port; resolves with its address. */
function startAsWritten(): Promise<string> {
  const variables = /^((?:\w+=\S+ )+)npm start\n$/.exec(start ?? '');
  expect(variables).not.toBeNull();
  server = startServerProcess(Object.fromEntries(variables![1]!.trim().split(' ').map((pair) => pair.split('=') as [string, string])));
  return server.listening();
}

test("docs/sandbox.md's start is one npm start line", () => {
  expect(fencedBlocks(STARTING)).toEqual([{ language: 'sh', text: start }]);
});

describe("docs/sandbox.md's recipes", () => {
  test('run as written: each request is answered 2xx, and the scenarios it adds are listed', async () => {
    expect(adminHeaders).toBeDefined();
    const url = await startAsWritten();
    for (const [section, blocks] of RECIPES) expect(fencedBlocks(section).map(({ language }) => language)).toEqual(Array<string>(blocks).fill('sh'));
    const recipes = RECIPES.flatMap(([section]) => codeBlocks(section, 'sh'));
    // Each answer printed ends its line, so that the shell's prompt does not follow it on the same one.
    const commands = recipes.flatMap((recipe) => recipe.replaceAll('\\\n', '').trimEnd().split('\n'));
    expect(commands.filter((command) => !command.endsWith(" -w '\\n'"))).toEqual([]);
    for (const recipe of recipes) {
      const statusOnly = recipe.replaceAll(" -w '\\n'", '').replace(/^curl -s /gm, 'curl -s -o /dev/null -w "%{http_code}\\n" ');
      const script = `${adminHeaders}\n${statusOnly.replaceAll(DOC_BASE, url)}`;
      expect({ recipe, status: (await run('bash', ['-c', script])).stdout }).toEqual({ recipe, status: expect.stringMatching(/^20[01]\n$/) as unknown });
    }
    const listed = await run('curl', ['-s', `${url}/admin/scenarios`, '-H', 'Authorization: Bearer sandbox-admin-token']);
    const { scenarios } = JSON.parse(listed.stdout) as { scenarios: { target: string }[] };
    expect(scenarios.map(({ target }) => target)).toEqual(['data', 'data', 'flow', 'volume', 'data', 'data', 'events', 'survey']);
  });
});

describe("docs/sandbox.md's first run", () => {
  test('forces three 429s that the typed client waits out, then moves the clock past expiry and the client authenticates again', async () => {
    const blocks = codeBlocks(FIRST_RUN, 'sh');
    expect(fencedBlocks(FIRST_RUN)).toHaveLength(2);
    const [addScenario, runClient] = blocks;
    const url = await startAsWritten();
    const scenario = JSON.parse((await run('bash', ['-c', addScenario!.replaceAll(DOC_BASE, url)])).stdout) as Record<string, unknown>;
    expect(scenario).toMatchObject({ target: 'data', tool: 'dev', login: 'demo', status: 429, retry_after_seconds: 2, times: 3, fired: 0, active: true });
    const { stdout } = await run('bash', ['-c', runClient!.replaceAll(DOC_BASE, url)], { cwd: ROOT });
    const events = (status: number) => new RegExp(`^GET ${url}/api/events/\\d{8}/\\d{8}/day/ALL ${status}$`);
    const calls = /^\{("\d+":\d+,){6}"\d+":\d+\}$/;
    const lines = stdout.trimEnd().split('\n');
    const expected = [
      new RegExp(`^POST ${url}/api/auth 200$`),
      events(429),
      /^waiting 2000 ms$/,
      events(429),
      /^waiting 2000 ms$/,
      events(429),
      /^waiting 2000 ms$/,
      events(200),
      calls,
      events(401),
      new RegExp(`^POST ${url}/api/auth 200$`),
      events(304),
      calls,
    ];
    expect(lines).toHaveLength(expected.length);
    lines.forEach((line, index) => expect(line).toMatch(expected[index]!));
    expect(lines[8]).toBe(lines[12]);
  });
});
