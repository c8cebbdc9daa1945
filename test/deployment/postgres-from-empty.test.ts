import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServerProcess, type ServerProcess, stopIfRunning } from '../support/server-process';
import { describeWithPostgres, testDatabaseUrl } from '../support/services';

const run = promisify(execFile);
const GUIDE = readFileSync(path.resolve(__dirname, '../../docs/deployment.md'), 'utf8');

/** The shell commands of the guide's section, as a reader copies them. */
function sectionCommands(title: string): string[] {
  const start = GUIDE.indexOf(`## ${title}\n`);
  const section = GUIDE.slice(start, GUIDE.indexOf('\n## ', start + 3));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '');
}

let server: ServerProcess | undefined;
let cleanUp: (() => Promise<unknown>) | undefined;

afterEach(async () => {
  await stopIfRunning(server);
  await cleanUp?.();
  server = undefined;
  cleanUp = undefined;
});

describeWithPostgres('docs/deployment.md, "PostgreSQL from an empty machine"', () => {
  test('its commands create the role and the database a server then starts on and serves from', async () => {
    const [install, createRole, createDatabase, startServer] = sectionCommands('PostgreSQL from an empty machine');
    expect(install).toBe('sudo apt-get install -y postgresql');

    // The test run's PostgreSQL stands for the package's (libpq's PG* variables point the commands at
    // it), and a name of the test's own for `ivr`, so that runs never meet.
    const admin = new URL(testDatabaseUrl as string);
    const name = `ivr_${randomBytes(4).toString('hex')}`;
    const env = { PATH: process.env.PATH, PGHOST: admin.hostname, PGPORT: admin.port, PGUSER: admin.username, PGDATABASE: 'postgres' };
    const asReaderRuns = (command: string) => command.replace(/^sudo -u postgres /, '').replaceAll(/\bivr\b/g, name);
    cleanUp = () =>
      run('bash', ['-c', `dropdb --if-exists ${name} && psql -c 'DROP ROLE IF EXISTS ${name}'`], { env }).catch(() => undefined);
    await run('bash', ['-c', asReaderRuns(createRole as string)], { env });
    await run('bash', ['-c', asReaderRuns(createDatabase as string)], { env });

    const settings = /^STORE=postgres DATABASE_URL=(\S+) npm start$/.exec(startServer as string);
    expect(settings).not.toBeNull();
    const databaseUrl = new URL(asReaderRuns(settings?.[1] as string));
    databaseUrl.host = admin.host;
    server = startServerProcess({ STORE: 'postgres', DATABASE_URL: databaseUrl.href });
    const url = await server.listening();
    expect(server.messages.text()).toContain('(PostgreSQL store with demo data)');
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    const login = await fetch(`${url}/api/auth`, { method: 'POST', body: new URLSearchParams({ tool: 'dev', login: 'demo', password: 'demo-password' }) });
    expect(login.status).toBe(200);
  });
});
