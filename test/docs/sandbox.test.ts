import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServerProcess, stopIfRunning, type ServerProcess } from '../support/server-process';

const run = promisify(execFile);
const SANDBOX_DOC = readFileSync(path.resolve(__dirname, '../../docs/sandbox.md'), 'utf8');
const DOC_BASE = 'http://127.0.0.1:3000';

const blocks = [...SANDBOX_DOC.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
/** The shell set-up the recipes assume, as the page writes it. */
const adminHeaders = /and, in the shell you run them from, `(ADMIN=\(.*\))`\./.exec(SANDBOX_DOC)?.[1];

let server: ServerProcess | undefined;

afterEach(() => stopIfRunning(server));

describe("docs/sandbox.md's recipes", () => {
  test('run as written: each request is answered 2xx, and the scenarios it adds are listed', async () => {
    const [start, ...recipes] = blocks;
    const variables = /^((?:\w+=\S+ )+)npm start\n$/.exec(start ?? '');
    expect(variables).not.toBeNull();
    expect(adminHeaders).toBeDefined();
    server = startServerProcess(Object.fromEntries(variables![1]!.trim().split(' ').map((pair) => pair.split('=') as [string, string])));
    const url = await server.listening();
    expect(recipes).toHaveLength(6);
    for (const recipe of recipes) {
      const script = `${adminHeaders}\n${recipe.replace(/^curl -s /gm, 'curl -s -o /dev/null -w "%{http_code}\\n" ').replaceAll(DOC_BASE, url)}`;
      expect({ recipe, status: (await run('bash', ['-c', script])).stdout }).toEqual({ recipe, status: expect.stringMatching(/^20[01]\n$/) as unknown });
    }
    const listed = await run('curl', ['-s', `${url}/admin/scenarios`, '-H', 'Authorization: Bearer sandbox-admin-token']);
    const { scenarios } = JSON.parse(listed.stdout) as { scenarios: { target: string }[] };
    expect(scenarios.map(({ target }) => target)).toEqual(['data', 'data', 'flow']);
  });
});
