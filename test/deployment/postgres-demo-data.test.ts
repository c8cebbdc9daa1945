import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PUBLIC_DEMO_ACCOUNT_WARNING } from '../../src/startup-data/demo/demo-account';
import { codeBlocks, docSection, ROOT } from '../support/doc-section';
import { startServerProcess, type ServerProcess, stopIfRunning } from '../support/server-process';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/services';

const run = promisify(execFile);
let schema: TestSchema;
const servers: ServerProcess[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await stopIfRunning(server);
  await schema.drop();
});

function startOn(env: NodeJS.ProcessEnv = {}): ServerProcess {
  const server = startServerProcess({ STORE: 'postgres', DATABASE_URL: schema.url, ...env });
  servers.push(server);
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited()).toBe(0);
}

async function startAndStop(): Promise<string> {
  const server = startOn();
  await server.listening();
  await stop(server);
  return server.messages.text();
}

/** The status of POST /api/auth with the demo account's published login. */
async function demoLogin(url: string): Promise<number> {
  const body = new URLSearchParams({ tool: 'dev', login: 'demo', password: 'demo-password' });
  return (await fetch(`${url}/api/auth`, { method: 'POST', body })).status;
}

describeWithPostgres('the demo data on PostgreSQL', () => {
  test('is created on the first start without SEED_FILE and left as it is on the next', async () => {
    schema = await createTestSchema();
    expect(await startAndStop()).toContain('(PostgreSQL store with demo data)');
    const second = await startAndStop();
    expect(second).not.toContain('Demo account:');
    expect(second).toMatch(
      /^IVR reporting server listening on http:\/\/127\.0\.0\.1:\d+ \(PostgreSQL store\)\nRate limits and survey sessions: PostgreSQL, shared by every instance \(REDIS_URL moves them to Redis\)\nDashboard: http:\/\/127\.0\.0\.1:\d+\/\n/,
    );
    expect(second.endsWith('\n\nStop with Ctrl+C.\n')).toBe(true);
  });

  test('docs/deployment.md, "Demo data": a production start warns of the account an earlier start left, and the command shown deletes it', async () => {
    const [command, ...others] = codeBlocks(docSection('docs/deployment.md', 'Demo data'), 'sh');
    expect(others).toEqual([]);
    schema = await createTestSchema();
    await startAndStop();
    const token = 'the-admin-token-of-this-test';
    const production = startOn({ NODE_ENV: 'production', PUBLIC_URL: 'https://ivr.example.com', ADMIN_TOKEN: token });
    const url = await production.listening();
    expect(production.messages.text()).toContain(`\nWarning: ${PUBLIC_DEMO_ACCOUNT_WARNING}\n`);
    expect(await demoLogin(url)).toBe(200);

    // The page's token and address are placeholders; the tool runs from the project folder, as the page's npx does.
    const script = (command ?? '').replace('ADMIN_TOKEN=...', `ADMIN_TOKEN=${token}`).replace('https://ivr.example.com', url);
    const { stdout } = await run('bash', ['-c', script], { cwd: ROOT, env: { PATH: process.env.PATH } });
    expect(stdout).toBe('deleted dev/demo (numbers 18005550100, 18005550101, 18005550102 released, their calls deleted)\n');
    expect(await demoLogin(url)).toBe(401);
    await stop(production);

    const next = startOn({ NODE_ENV: 'production', PUBLIC_URL: 'https://ivr.example.com' });
    const nextUrl = await next.listening();
    expect(next.messages.text()).not.toContain('Warning:');
    expect(await demoLogin(nextUrl)).toBe(401);
  });
});
