import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { codeBlocks, docSection, markdownSection } from '../support/doc-section';
import { accepting } from '../support/loopback-port';
import { startServerProcess, type ServerProcess, stopIfRunning } from '../support/server-process';
import { describeOnDeploymentMachine } from '../support/services';

/*
 * docs/deployment.md's "PostgreSQL from an empty machine" and "Redis from an empty machine": their blocks
 * agree with each other, docs/configuration.md and .env.example (always); and, where TEST_DEPLOYMENT_DOC=true lets
 * the test change the machine, they run as written, line after line, on its packaged PostgreSQL (port
 * 5432) and Redis (6379), as root and with sudo, and the server starts on what they set up.
 */

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const GUIDE = readFileSync(path.join(ROOT, 'docs/deployment.md'), 'utf8');

/** A section's commands as the guide gives them: as root, then the same with sudo, then the server's start. */
interface Steps {
  readonly asRoot: readonly string[];
  readonly withSudo: readonly string[];
  readonly start: string;
}

const lines = (block: string) => block.split('\n').filter((line) => line.trim() !== '');

function steps(title: string): Steps {
  const blocks = codeBlocks(markdownSection(GUIDE, title, 'docs/deployment.md'), 'sh');
  if (blocks.length !== 3) throw new Error(`"${title}" should have three sh blocks (as root, with sudo, the start), not ${blocks.length}`);
  const [asRoot, withSudo, start] = blocks as [string, string, string];
  return { asRoot: lines(asRoot), withSudo: lines(withSudo), start: start.trim() };
}

const POSTGRES = steps('PostgreSQL from an empty machine');
const REDIS = steps('Redis from an empty machine');
/** The lines the server prints when PostgreSQL refuses it, as the guide quotes them. */
const REFUSALS = lines(codeBlocks(markdownSection(GUIDE, 'PostgreSQL from an empty machine'), 'text')[0] ?? '');

/** The environment of a `VAR=value ... npm start` line. */
function startEnvironment(command: string): Record<string, string> {
  const assignments = /^((?:[A-Z_]+=\S+ )+)npm start$/.exec(command)?.[1];
  if (assignments === undefined) throw new Error(`not a "VAR=value ... npm start" line: ${command}`);
  return Object.fromEntries(assignments.trim().split(' ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** The root line as a user with sudo types it: the postgres user's commands through `sudo -u`, the rest after `sudo`. */
const withSudo = (line: string) => (line.startsWith('runuser -u postgres -- ') ? `sudo -u postgres ${line.slice('runuser -u postgres -- '.length)}` : `sudo ${line}`);

describe('docs/deployment.md, "PostgreSQL from an empty machine" and "Redis from an empty machine", as written', () => {
  test.each([
    ['PostgreSQL', POSTGRES],
    ['Redis', REDIS],
  ])('the %s steps with sudo are the steps as root, run through sudo', (_service, { asRoot, withSudo: sudoLines }) => {
    expect(sudoLines).toEqual(asRoot.map(withSudo));
  });

  test('the Redis section starts the server on the database the PostgreSQL section made, with Redis beside it', () => {
    expect(REDIS.start).toBe(POSTGRES.start.replace(' npm start', ' REDIS_URL=redis://127.0.0.1:6379 npm start'));
  });

  test("docs/configuration.md's command is the guide's, with its password", () => {
    expect(codeBlocks(docSection('docs/configuration.md', 'On PostgreSQL and Redis'), 'sh').map((block) => block.trim())).toEqual([REDIS.start]);
  });

  test(".env.example's example DATABASE_URL is the guide's", () => {
    const example = /^# PostgreSQL connection URL, e\.g\. (\S+);/m.exec(readFileSync(path.join(ROOT, '.env.example'), 'utf8'))?.[1];
    expect(example).toBe(startEnvironment(POSTGRES.start).DATABASE_URL);
  });
});

/** Runs one of the guide's lines in bash, from the checkout, as the reader's shell would; rejects with its output if it fails. */
async function runLine(line: string): Promise<void> {
  try {
    await run('bash', ['-c', line], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`the guide's line failed: ${line}\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
}

const output = async (file: string, args: readonly string[]) => (await run(file, args)).stdout;

/** The package's cluster on port 5432 (pg_lsclusters), if there is one. */
async function packageCluster(): Promise<{ version: string; name: string; online: boolean } | undefined> {
  const listing = await output('pg_lsclusters', ['-h']).catch(() => '');
  for (const line of lines(listing)) {
    const [version, name, port, status] = line.split(/\s+/);
    if (port === '5432' && version !== undefined && name !== undefined) return { version, name, online: status?.startsWith('online') === true };
  }
  return undefined;
}

const REDIS_LOG = '/var/log/redis/redis-server.log';

/** Resolves once the file, from byte `from` on, holds `text` (tail -F: the file may not exist yet); rejects if tail ends first. */
async function written(file: string, from: number, text: string): Promise<void> {
  const tail = spawn('tail', ['-c', `+${from + 1}`, '-F', file]);
  let seen = '';
  try {
    await new Promise<void>((resolve, reject) => {
      tail.stdout.setEncoding('utf8');
      tail.stdout.on('data', (chunk: string) => {
        seen += chunk;
        if (seen.includes(text)) resolve();
      });
      tail.once('close', (code) => reject(new Error(`tail ${file} ended (${code}) before "${text}":\n${seen}`)));
    });
  } finally {
    tail.kill();
  }
}

const redisKeys = async () => lines(await output('redis-cli', ['-p', '6379', '--scan', '--pattern', 'ivr-reporting:*']));

/** A server started from the guide's `npm start` line, from the checkout (PORT=0 instead of 3000). */
let server: ServerProcess | undefined;
/** What the test changed on the machine, undone after it, last first. */
let undo: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  await stopIfRunning(server);
  server = undefined;
  const steps = undo.reverse();
  undo = [];
  for (const step of steps) await step();
});

async function expectRefusal(start: string, reason: string): Promise<void> {
  const expected = REFUSALS.find((refusal) => refusal.includes(reason));
  expect(expected).toBeDefined();
  server = startServerProcess(startEnvironment(start));
  expect(await server.exited()).toBe(1);
  expect(server.messages.text()).toBe(`${expected}\n`);
}

/** Starts the server from the guide's line, checks what it serves and stops it; resolves with its banner. */
async function serveFrom(start: string, readiness: unknown): Promise<string> {
  server = startServerProcess(startEnvironment(start));
  const url = await server.listening();
  const ready = await fetch(`${url}/readyz`);
  expect([ready.status, await ready.json()]).toEqual([200, readiness]);
  const login = await fetch(`${url}/api/auth`, { method: 'POST', body: new URLSearchParams({ tool: 'dev', login: 'demo', password: 'demo-password' }) });
  expect(login.status).toBe(200);
  server.child.kill('SIGTERM');
  expect(await server.exited()).toBe(0);
  return server.messages.text();
}

// The package's PostgreSQL and Redis, on their fixed ports, are the machine's: see the guard's variable.
describeOnDeploymentMachine('docs/deployment.md, on this machine (TEST_DEPLOYMENT_DOC=true)', () => {
  beforeAll(() => {
    if (process.getuid?.() !== 0) throw new Error('TEST_DEPLOYMENT_DOC=true runs the guide as root and with sudo: run the tests as root');
  });

  test.each([
    ['as root', 'asRoot'],
    ['with sudo', 'withSudo'],
  ] as const)(
    '%s, its PostgreSQL and Redis steps set up what the server starts on, with the refusals it quotes on the way',
    async (_who, variant) => {
      // PostgreSQL: the cluster is started (when it was not), then the role and the database made, one line after the other.
      const clusterBefore = await packageCluster();
      undo.push(async () => {
        const cluster = await packageCluster();
        if (clusterBefore?.online !== true && cluster?.online === true) await run('pg_ctlcluster', [cluster.version, cluster.name, 'stop']);
      });
      for (const line of POSTGRES[variant]) {
        await runLine(line);
        if (/^(sudo )?service postgresql start$/.test(line)) {
          // The cluster answers now, and refuses a role it does not have as it refuses a wrong password.
          await expectRefusal(POSTGRES.start, 'password authentication failed');
        } else if (line.includes('CREATE ROLE ivr ')) {
          undo.push(() => run('runuser', ['-u', 'postgres', '--', 'psql', '-c', 'DROP ROLE ivr']));
          await expectRefusal(POSTGRES.start, 'database "ivr" does not exist');
        } else if (line.includes('createdb --owner ivr ivr')) {
          undo.push(() => run('runuser', ['-u', 'postgres', '--', 'dropdb', '--force', 'ivr']));
        }
      }
      const first = await serveFrom(POSTGRES.start, { status: 'ready', checks: { store: { status: 'ready' } } });
      expect(first).toContain('(PostgreSQL store with demo data)\n');
      expect(first).toContain('\nRate limits and survey sessions: PostgreSQL, shared by every instance (REDIS_URL moves them to Redis)\n');

      // Redis: started (when it was not), and left with the keys and the snapshot file it had.
      const redisBefore = await accepting(6379);
      const logFrom = existsSync(REDIS_LOG) ? statSync(REDIS_LOG).size : 0;
      const snapshot = '/var/lib/redis/dump.rdb';
      const snapshotBefore = existsSync(snapshot);
      undo.push(async () => {
        if (redisBefore || !(await accepting(6379))) return;
        await run('service', ['redis-server', 'stop']);
        if (!snapshotBefore) rmSync(snapshot, { force: true });
      });
      for (const line of REDIS[variant]) await runLine(line);
      // Without systemd the start script returns once Redis forked, before it listens: it says when it does.
      if (!redisBefore) await written(REDIS_LOG, logFrom, 'Ready to accept connections');
      const keysBefore = new Set(await redisKeys());
      undo.push(async () => {
        const added = (await redisKeys()).filter((key) => !keysBefore.has(key));
        if (added.length > 0) await run('redis-cli', ['-p', '6379', 'DEL', ...added]);
      });
      // The demo account, made by the first start, is there already.
      const second = await serveFrom(REDIS.start, { status: 'ready', checks: { store: { status: 'ready' }, redis: { status: 'ready' } } });
      expect(second).toContain('(PostgreSQL store)\n');
      expect(second).toContain('\nRate limits and survey sessions: Redis (REDIS_URL), shared by every instance\n');
    },
    // apt-get update reaches the package mirror, twice.
    180_000,
  );
});
