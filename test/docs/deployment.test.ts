import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { docSection, fencedBlocks } from '../support/doc-section';
import { startServerProcess, stopIfRunning, type ServerProcess } from '../support/server-process';
import {
  createTestSchema,
  describeWithPostgres,
  describeWithPostgresAndRedis,
  describeWithReplica,
  replicaCaughtUp,
  testDatabaseUrl,
  testRedisUrl,
  type TestSchema,
} from '../support/services';

/*
 * docs/deployment.md's environments and PgBouncer's configuration, each started as written with only the
 * hosts, ports, credentials and files replaced by this machine's test services. (Its sections from an empty
 * machine are run by test/deployment/from-an-empty-machine.test.ts.)
 */

const DOC = 'docs/deployment.md';

let servers: ServerProcess[] = [];
let schema: TestSchema | undefined;

afterEach(async () => {
  await Promise.all(servers.map((server) => stopIfRunning(server, 'SIGTERM')));
  servers = [];
  await schema?.drop();
  schema = undefined;
});

/** The section's blocks, after checking their languages: a block added to it fails here until a test runs it. */
function sectionBlocks(title: string, languages: readonly string[]): string[] {
  const blocks = fencedBlocks(docSection(DOC, title));
  expect(blocks.map(({ language }) => language)).toEqual(languages);
  return blocks.map(({ text }) => text);
}

/** The variables of a block of `NAME=value` lines, their comments dropped. */
function environmentOf(block: string): Record<string, string> {
  return Object.fromEntries(
    block
      .trim()
      .split('\n')
      .map((line) => {
        const assignment = /^([A-Z_]+)=(\S*)\s*(#.*)?$/.exec(line);
        if (assignment === null) throw new Error(`not a NAME=value line: ${line}`);
        return [assignment[1]!, assignment[2]!];
      }),
  );
}

function started(env: NodeJS.ProcessEnv): ServerProcess {
  const server = startServerProcess(env);
  servers.push(server);
  return server;
}

async function readiness(url: string): Promise<unknown> {
  const answer = await fetch(`${url}/readyz`);
  return [answer.status, await answer.json()];
}

/** A loopback port free now. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function onPrimary(statements: readonly string[]): Promise<void> {
  const client = new Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A survey page through the REST twin; resolves with its status and body. */
async function surveyPage(url: string, answer: string): Promise<string> {
  const form = new FormData();
  form.append('question_texts[]', 'Agree?');
  form.append('answers[]', answer);
  const reply = await fetch(`${url}/survey/rest`, { method: 'POST', body: form });
  return `${reply.status} ${await reply.text()}`;
}

const INSTANCES_TITLE = 'Two instances behind a proxy';

describeWithPostgresAndRedis(`${DOC}: ${INSTANCES_TITLE}`, () => {
  test('two instances started with the environment as written share PostgreSQL and Redis, and advertise PUBLIC_URL', async () => {
    const [, environment] = sectionBlocks(INSTANCES_TITLE, ['text', 'sh']);
    const written = environmentOf(environment!);
    expect(Object.keys(written)).toEqual(['STORE', 'DATABASE_URL', 'REDIS_URL', 'HOST', 'PORT', 'TRUST_PROXY', 'PUBLIC_URL', 'ADMIN_TOKEN', 'SEED_FILE']);
    schema = await createTestSchema();
    // Tests bind loopback, two instances on one host get ports of their own, as the page says, and the token the page leaves out is one.
    expect(written.ADMIN_TOKEN).toBe('...');
    const own = { ...written, DATABASE_URL: schema.url, REDIS_URL: testRedisUrl, HOST: '127.0.0.1', PORT: '0', ADMIN_TOKEN: 'the-same-on-both-instances' };
    const instances = [started(own), started(own)];
    const urls = await Promise.all(instances.map((instance) => instance.listening()));
    for (const [index, url] of urls.entries()) {
      expect(instances[index]!.messages.text()).toContain('Rate limits and survey sessions: Redis (REDIS_URL), shared by every instance');
      expect(await readiness(url)).toEqual([200, { status: 'ready', checks: { store: { status: 'ready' }, redis: { status: 'ready' } } }]);
      expect(await (await fetch(`${url}/survey?wsdl`)).text()).toContain(`<soap:address location="${written.PUBLIC_URL}/survey"/>`);
    }
    // One survey across both: its session is in Redis.
    const first = await fetch(`${urls[0]}/survey/rest`, { method: 'POST', body: new URLSearchParams({ 'question_texts[]': 'Agree?', 'answers[]': 'yes' }) });
    const cookie = first.headers.get('set-cookie')?.split(';')[0] ?? '';
    const second = await fetch(`${urls[1]}/survey/rest`, { method: 'POST', body: new URLSearchParams({ 'question_texts[]': 'Agree?', 'answers[]': 'yes' }), headers: { Cookie: cookie } });
    expect([await first.text(), await second.text()]).toEqual(['accepted', 'accepted again']);
  });
});

const PGBOUNCER = '/usr/sbin/pgbouncer';
const PGBOUNCER_TITLE = 'Behind PgBouncer';
/** .ci/services.sh installs PgBouncer; elsewhere, without it, the section's test is skipped, as suites skip for a missing service. */
const describeWithPgbouncerProgram = existsSync(PGBOUNCER) || process.env.CI === 'true' ? describeWithPostgres : describe.skip;

describeWithPgbouncerProgram(`${DOC}: ${PGBOUNCER_TITLE}`, () => {
  const name = `ivr_doc_${randomBytes(6).toString('hex')}`;
  let folder = '';
  let pgbouncer: ChildProcess | undefined;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'deployment-doc-'));
    // The role and database the page names, of this test's own, with the statement bound it tells operators to set.
    await onPrimary([`CREATE ROLE ${name} LOGIN PASSWORD 'choose-a-password'`, `ALTER ROLE ${name} SET statement_timeout = '5s'`, `CREATE DATABASE ${name} OWNER ${name}`]);
  });

  afterAll(async () => {
    if (pgbouncer !== undefined && pgbouncer.exitCode === null) {
      pgbouncer.kill('SIGTERM');
      await once(pgbouncer, 'close');
    }
    await onPrimary([`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `DROP ROLE IF EXISTS ${name}`]);
    rmSync(folder, { recursive: true, force: true });
  });

  test("PgBouncer runs with the page's pgbouncer.ini, and an instance with its two lines works through it", async () => {
    const [ini, environment] = sectionBlocks(PGBOUNCER_TITLE, ['ini', 'sh']);
    const primary = new URL(testDatabaseUrl!);
    const port = await freePort();
    const configuration = path.join(folder, 'pgbouncer.ini');
    const userlist = path.join(folder, 'userlist.txt');
    writeFileSync(
      configuration,
      ini!
        .replace('host=db.internal port=5432 dbname=ivr', `host=${primary.hostname} port=${primary.port} dbname=${name}`)
        .replace('listen_addr = 0.0.0.0', 'listen_addr = 127.0.0.1')
        .replace('listen_port = 6432', `listen_port = ${port}`)
        .replace('/etc/pgbouncer/userlist.txt', userlist),
    );
    writeFileSync(userlist, `"${name}" "choose-a-password"\n`);
    // PgBouncer refuses to run as root: as root (CI), it runs as the postgres user, as .ci/services.sh runs it.
    const asPostgres = process.getuid?.() === 0 ? await postgresUser() : undefined;
    if (asPostgres !== undefined) for (const file of [folder, configuration, userlist]) chownSync(file, asPostgres.uid, asPostgres.gid);
    pgbouncer = spawn(PGBOUNCER, [configuration], { ...asPostgres, stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let written = '';
      pgbouncer!.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        written += chunk;
        if (written.includes(`listening on 127.0.0.1:${port}`)) resolve();
      });
      pgbouncer!.once('close', (code) => reject(new Error(`pgbouncer exited with ${code}:\n${written}`)));
    });

    const written = environmentOf(environment!);
    expect(Object.keys(written)).toEqual(['DATABASE_URL', 'DATABASE_POOLER']);
    const own = { ...written, DATABASE_URL: written.DATABASE_URL!.replace('ivr:choose-a-password@pgbouncer.internal:6432', `${name}:choose-a-password@127.0.0.1:${port}`) };
    // With the rest of an instance's environment: STORE=postgres, from "Two instances behind a proxy".
    const server = started({ STORE: 'postgres', ...own });
    const url = await server.listening();
    expect(await readiness(url)).toEqual([200, { status: 'ready', checks: { store: { status: 'ready' } } }]);
    // Survey sessions in PostgreSQL, through PgBouncer's transactions; and no warning about the role's statement bound.
    expect([await surveyPage(url, 'yes'), await surveyPage(url, 'no')]).toEqual(['200 accepted', '200 rejected']);
    expect(server.logs.text()).not.toMatch(/statement_timeout/);
  });
});

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const id = (option: string) =>
    new Promise<number>((resolve, reject) => {
      const child = spawn('id', [option, 'postgres']);
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.once('close', (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error('no postgres user'))));
    });
  return { uid: await id('-u'), gid: await id('-g') };
}

const REPLICAS_TITLE = 'Read replicas';

describeWithReplica(`${DOC}: ${REPLICAS_TITLE}`, () => {
  test('an instance started with the environment as written, both replicas the test replica, is ready and checks each replica', async () => {
    const [environment] = sectionBlocks(REPLICAS_TITLE, ['sh']);
    const written = environmentOf(environment!);
    expect(Object.keys(written)).toEqual(['STORE', 'DATABASE_URL', 'DATABASE_READ_URL']);
    schema = await createTestSchema();
    await replicaCaughtUp(testDatabaseUrl!, schema.replicaUrl!);
    const replicas = written.DATABASE_READ_URL!.split(',');
    expect(replicas).toHaveLength(2);
    const server = started({ ...written, DATABASE_URL: schema.url, DATABASE_READ_URL: replicas.map(() => schema!.replicaUrl!).join(',') });
    const url = await server.listening();
    expect(await readiness(url)).toEqual([
      200,
      { status: 'ready', checks: { store: { status: 'ready' }, 'replica-1': { status: 'ready', optional: true }, 'replica-2': { status: 'ready', optional: true } } },
    ]);
  });
});
