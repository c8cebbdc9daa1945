import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { codeBlocks, docSection, ROOT } from '../support/doc-section';
import { expectLoginAsShown, expectSurveyCallAsShown, expectWeeklyReportsAsShown } from '../support/readme-tour';
import { describeWith, PHP_SOAP, PODMAN, requireForFile } from '../support/real-programs';
import { collect } from '../support/server-process';

/*
 * The Dockerfile and compose.yaml as docs/deployment.md runs them, with podman and podman-compose: the
 * image built, two instances on PostgreSQL and Redis, and the README's tour answered by them. No registry
 * is reachable here, so the registry images they name are stood in for by images of Debian's packages
 * (container/stand-ins.sh, built once per machine), named through the variables the files offer.
 */
requireForFile(PODMAN);

const run = promisify(execFile);
const SECTION = docSection('docs/deployment.md', 'In containers');
const [STEPS] = codeBlocks(SECTION, 'sh');
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const NODE_IMAGE = `localhost/ivr-stand-in/node:${process.versions.node.split('.')[0]}`;
/** podman-compose 1.0 names a project after its folder, whatever compose.yaml says: each run a name of its own. */
const PROJECT = `ivr-test-${randomBytes(4).toString('hex')}`;
const MINUTES = 60_000;

const environment: NodeJS.ProcessEnv = {
  ...process.env,
  POSTGRES_IMAGE: 'localhost/ivr-stand-in/postgres:bookworm',
  REDIS_IMAGE: 'localhost/ivr-stand-in/redis:bookworm',
  // Published on loopback ports of the system's choosing, so that runs and other servers never meet.
  PUBLISH_A: '127.0.0.1:',
  PUBLISH_B: '127.0.0.1:',
  DEMO_DATA: 'true',
  // What the page's steps export, for the steps run apart and for the tear-down.
  POSTGRES_PASSWORD: /^export POSTGRES_PASSWORD=(.+)$/m.exec(STEPS ?? '')?.[1],
};

const shell = async (script: string) => (await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: ROOT, env: environment, maxBuffer: 64 * 1024 * 1024 })).stdout;
const container = (service: string) => `${PROJECT}_${service}_1`;

/** Resolves once a container's output (both streams, as one) shows `pattern`; rejects if the output ends first. */
async function logged(service: string, pattern: RegExp): Promise<void> {
  const follow = spawn('sh', ['-c', `exec podman logs --follow ${container(service)} 2>&1`]);
  const ended = once(follow, 'close').then(([code]) => code as number | null);
  try {
    await collect(follow.stdout, ended, `${container(service)}'s output`).waitFor(pattern);
  } finally {
    follow.kill();
  }
}

async function publishedAddress(service: string): Promise<string> {
  return `http://${(await run('podman', ['port', container(service), '3000'])).stdout.trim()}`;
}

let instanceA: string;
let instanceB: string;

beforeAll(async () => {
  await run('bash', [path.join(__dirname, 'container/stand-ins.sh'), 'podman', process.execPath], { env: process.env, timeout: 15 * MINUTES });
  // The page's steps as written, but for two changes: the base image, which no registry serves here, and the project's name.
  const steps = (STEPS ?? '')
    .replace('podman build ', `podman build --build-arg NODE_IMAGE=${NODE_IMAGE} `)
    .replaceAll('podman-compose ', `podman-compose -p ${PROJECT} `);
  const lastStep = steps.trimEnd().lastIndexOf('\n');
  await shell(steps.slice(0, lastStep));
  // What the page says to wait for before the instances start (the first start of PostgreSQL listens on no
  // address while it creates the database; the second on every address).
  await Promise.all([logged('postgres', /listening on IPv4 address "0\.0\.0\.0", port 5432/), logged('redis', /Ready to accept connections/)]);
  await shell(steps.slice(lastStep));
  await Promise.all(['instance-a', 'instance-b'].map((service) => logged(service, /^IVR reporting server listening on /m)));
  [instanceA, instanceB] = await Promise.all([publishedAddress('instance-a'), publishedAddress('instance-b')]);
}, 30 * MINUTES);

afterAll(async () => {
  await run('podman-compose', ['-p', PROJECT, 'down', '--volumes'], { cwd: ROOT, env: environment, timeout: 5 * MINUTES });
}, 5 * MINUTES);

describe('docs/deployment.md, "In containers"', () => {
  test('builds the image the compose file runs, tagged with the package version', () => {
    expect(STEPS).toContain(`podman build --format docker -t ivr-reporting:${VERSION} .`);
    expect(readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8')).toContain(`image: \${IVR_IMAGE:-ivr-reporting:${VERSION}}`);
  });

  test('runs both instances as the unprivileged node user, in production, started once each', async () => {
    for (const service of ['instance-a', 'instance-b']) {
      expect((await run('podman', ['exec', container(service), 'id', '-un'])).stdout).toBe('node\n');
      expect((await run('podman', ['exec', container(service), 'printenv', 'NODE_ENV'])).stdout).toBe('production\n');
      expect((await run('podman', ['inspect', '--format', '{{.RestartCount}}', container(service)])).stdout).toBe('0\n');
    }
  });

  test("answers the image's HEALTHCHECK", async () => {
    await expect(run('podman', ['healthcheck', 'run', container('instance-a')])).resolves.toEqual({ stdout: '', stderr: '' });
  });

  test('answers the README tour on instance A: a login and the weekly reports', async () => {
    await expectLoginAsShown(shell, instanceA);
    await expectWeeklyReportsAsShown(shell, instanceA);
  });

  test('shares the data through PostgreSQL: credentials from instance A open a report on instance B', async () => {
    const credentials = (await (await fetch(`${instanceA}/api/auth`, { method: 'POST', body: new URLSearchParams({ tool: 'dev', login: 'demo', password: 'demo-password' }) })).json()) as {
      login: string;
      password: string;
    };
    const basic = Buffer.from(`${credentials.login}:${credentials.password}`).toString('base64');
    const report = await fetch(`${instanceB}/api/events/20260101/20260107/day/ALL`, { headers: { authorization: `Basic ${basic}` } });
    expect(report.status).toBe(200);
    expect(Object.keys((await report.json()) as object)).toEqual(['calls', 'log_events', 'loops_per_call', 'form_items', 'loops', 'average_form_items']);
  });

  describeWith(PHP_SOAP)('the survey service', () => {
    test("answers the README tour's SoapClient call, its session kept in Redis", async () => {
      await expectSurveyCallAsShown(shell, instanceA);
    });
  });

  test('stops an instance on SIGTERM (podman stop) with exit 0 after finishing what is in flight', async () => {
    await run('podman', ['stop', '--time', '60', container('instance-b')], { timeout: 2 * MINUTES });
    // Read once it has exited: a follower of the output may end with the container before its last lines.
    expect((await run('podman', ['logs', container('instance-b')])).stdout).toContain('"msg":"shutting down: finishing requests in flight"');
    expect((await run('podman', ['inspect', '--format', '{{.State.ExitCode}}', container('instance-b')])).stdout).toBe('0\n');
  });
});
