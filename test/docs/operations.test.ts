import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Redis } from 'ioredis';
import request from 'supertest';
import { parse } from 'yaml';
import { composeApp } from '../../src/composition-root';
import { loadConfig } from '../../src/configuration';
import type { RunningServer } from '../../src/listen';
import { createLogger } from '../../src/logger';
import { openPostgresStore } from '../../src/storage/postgres/postgres-store';
import { connectRedis } from '../../src/storage/redis/redis-client';
import { withRedisSharedState } from '../../src/storage/shared-state';
import type { Store } from '../../src/storage/store';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../support/dependency-timeout';
import { docSection, fencedBlocks } from '../support/doc-section';
import { FakeClock } from '../support/fake-clock';
import { serve } from '../support/http';
import { buildOperationsApp } from '../support/operations';
import { startServerProcess, stopIfRunning, type ServerProcess } from '../support/server-process';
import { createTestSchema, describeWithPostgresAndRedis, testRedisUrl, uniqueRedisPrefix, type TestSchema } from '../support/services';
import { proxyForUrl, type TcpProxy } from '../support/tcp-proxy';

/*
 * docs/operations.md's blocks: the readiness answers as the server gives them, the probes' and Prometheus's
 * configurations held to what the server serves and its defaults, the exemplar and the grep that leads
 * from it to a log line run against a server process, and the queries' names held to the metrics.
 */

const run = promisify(execFile);
const DOC = 'docs/operations.md';
const DEFAULTS = loadConfig({});
const seconds = (duration: string) => Number(/^(\d+)s$/.exec(duration)?.[1]);

describeWithPostgresAndRedis('"`GET /readyz`: readiness"', () => {
  const blocks = fencedBlocks(docSection(DOC, '`GET /readyz`: readiness'));
  let schema: TestSchema | undefined;
  let proxy: TcpProxy | undefined;
  let redis: Redis | undefined;
  let store: Store | undefined;
  let running: RunningServer | undefined;

  afterAll(async () => {
    running?.server.closeAllConnections();
    await running?.close();
    await store?.close();
    redis?.disconnect();
    await proxy?.close();
    await schema?.drop();
  });

  test('shows the answer with PostgreSQL and Redis ready, then with PostgreSQL gone, as the server writes them', async () => {
    expect(blocks.map(({ language }) => language)).toEqual(['json', 'json']);
    const [ready, unavailable] = blocks.map(({ text }) => text.trim());
    schema = await createTestSchema();
    const through = await proxyForUrl(schema.url);
    proxy = through.proxy;
    const logger = createLogger('silent');
    redis = await connectRedis(testRedisUrl!, logger, DEPENDENCY_TIMEOUT_SECONDS);
    store = withRedisSharedState(await openPostgresStore(through.url, logger, DEPENDENCY_TIMEOUT_SECONDS, schema.pooler), redis, uniqueRedisPrefix());
    running = await serve(composeApp(loadConfig({}), { store, clock: new FakeClock(), logger }));

    const both = await request(running.url).get('/readyz');
    expect([both.status, both.text]).toEqual([200, ready]);
    await proxy.cut();
    const withoutPostgres = await request(running.url).get('/readyz');
    expect([withoutPostgres.status, withoutPostgres.text]).toEqual([503, unavailable]);
  });
});

describe('"Load-balancer probes"', () => {
  const blocks = fencedBlocks(docSection(DOC, 'Load-balancer probes'));
  const [kubernetes, haproxy] = blocks;
  let running: RunningServer;

  beforeAll(async () => {
    running = await serve(buildOperationsApp().app);
  });

  afterAll(() => running.close());

  const answers = async (method: string, probePath: string) => (await request(running.url)[method.toLowerCase() as 'get'](probePath)).status;

  test("has Kubernetes's probes and HAProxy's check", () => {
    expect(blocks.map(({ language }) => language)).toEqual(['yaml', 'haproxy']);
  });

  test("Kubernetes's probes ask the server's default port, liveness /healthz, readiness /readyz, which waits less than the probe", async () => {
    type Probe = { httpGet: { path: string; port: number }; periodSeconds: number; timeoutSeconds: number; failureThreshold: number };
    const { livenessProbe, readinessProbe } = parse(kubernetes!.text) as { livenessProbe: Probe; readinessProbe: Probe };
    expect([livenessProbe.httpGet, readinessProbe.httpGet]).toEqual([
      { path: '/healthz', port: DEFAULTS.server.port },
      { path: '/readyz', port: DEFAULTS.server.port },
    ]);
    expect(readinessProbe.timeoutSeconds).toBeGreaterThan(DEFAULTS.operations.readinessTimeoutSeconds);
    expect(await answers('GET', livenessProbe.httpGet.path)).toBe(200);
    expect(await answers('GET', readinessProbe.httpGet.path)).toBe(200);
    // "Shutting down" counts its drain from this probe.
    const drain = readinessProbe.periodSeconds * readinessProbe.failureThreshold + readinessProbe.timeoutSeconds;
    expect(docSection(DOC, 'Shutting down')).toContain(`(${drain} s with the Kubernetes example above`);
  });

  test("HAProxy's check asks GET /readyz on the default port for a 200, waiting longer than readiness does", async () => {
    const lines = haproxy!.text.trim().split('\n').map((line) => line.trim());
    const [, method, checkPath] = /^option httpchk (\S+) (\S+)$/.exec(lines.find((line) => line.startsWith('option httpchk')) ?? '') ?? [];
    const expected = Number(/^http-check expect status (\d+)$/.exec(lines.find((line) => line.startsWith('http-check')) ?? '')?.[1]);
    const timeout = seconds(/^timeout check (\S+)$/.exec(lines.find((line) => line.startsWith('timeout check')) ?? '')?.[1] ?? '');
    const ports = lines.filter((line) => line.startsWith('server ')).map((line) => line.split(/\s+/)[2]?.split(':')[1]);
    expect([method, checkPath, expected, ports]).toEqual(['GET', '/readyz', 200, [String(DEFAULTS.server.port), String(DEFAULTS.server.port)]]);
    expect(timeout).toBeGreaterThan(DEFAULTS.operations.readinessTimeoutSeconds);
    expect(await answers(method!, checkPath!)).toBe(expected);
  });
});

describe('"`GET /metrics`: Prometheus"', () => {
  const blocks = fencedBlocks(docSection(DOC, '`GET /metrics`: Prometheus'));
  const [exemplar, grep, prometheus, queries] = blocks;
  const METRICS_TOKEN = 'metrics-token-of-this-test';
  /** What Prometheus sends: OpenMetrics first. */
  const PROMETHEUS_ACCEPT = 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';
  let server: ServerProcess;
  let url: string;
  let workDir: string;

  beforeAll(async () => {
    server = startServerProcess({ METRICS_TOKEN, LOG_LEVEL: 'info' });
    url = await server.listening();
    workDir = await mkdtemp(path.join(tmpdir(), 'operations-doc-'));
  });

  afterAll(async () => {
    await stopIfRunning(server, 'SIGTERM');
    await rm(workDir, { recursive: true, force: true });
  });

  /** A report of the demo account's, as a client asks it. */
  async function askReport(): Promise<void> {
    const auth = await request(url).post('/api/auth').type('form').send({ tool: 'dev', login: 'demo', password: 'demo-password' });
    const { login, password } = auth.body as { login: string; password: string };
    expect((await request(url).get('/api/events/20180201/20180208/day/ALL').auth(login, password)).status).toBe(200);
  }

  test('has the exemplar, the grep, the scrape configuration and the queries', () => {
    expect(blocks.map(({ language }) => language)).toEqual(['', 'sh', 'yaml', 'promql']);
  });

  test("the exemplar is a bucket's line as a scrape shows it, and the grep finds its request's access line in the log", async () => {
    await askReport();
    const scrape = await request(url).get('/metrics').set({ Authorization: `Bearer ${METRICS_TOKEN}`, Accept: PROMETHEUS_ACCEPT });
    // The line shown with its numbers and id as this run's: the bucket, the count, the id, the latency, the time.
    const shape = exemplar!.text
      .trim()
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace('le="2\\.5"', 'le="[0-9.]+"')
      .replace(/\\} 17 # /, '\\} \\d+ # ')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, '([0-9a-f-]{36})')
      // The time is Date.now() / 1000 as JavaScript writes it: a millisecond ending in 0 loses that digit.
      .replace(/ 1\\\.83 1795435491\\\.867$/, ' [0-9.e-]+ \\d+(?:\\.\\d{1,3})?');
    const [, requestId] = new RegExp(`^${shape}$`, 'm').exec(scrape.text) ?? [];
    expect(requestId).toBeDefined();

    await server.logs.waitFor(new RegExp(`"id":"${requestId}"`));
    await writeFile(path.join(workDir, 'server.log'), server.logs.text());
    const documentedId = /"id":"([0-9a-f-]{36})"/.exec(grep!.text)?.[1];
    const { stdout } = await run('bash', ['-c', grep!.text.replaceAll(documentedId!, requestId!)], { cwd: workDir });
    const found = stdout.trim().split('\n').map((line) => JSON.parse(line) as { req: { id: string; method: string; url: string }; res: { statusCode: number } });
    expect(found.map(({ req, res }) => [req.id, req.method, req.url, res.statusCode])).toEqual([
      [requestId, 'GET', '/api/events/20180201/20180208/day/ALL', 200],
    ]);
  });

  test('the scrape configuration asks /metrics on the default port with the token as Prometheus sends it, and waits longer than a readiness check', async () => {
    const [job] = (parse(prometheus!.text) as { scrape_configs: Array<Record<string, unknown>> }).scrape_configs;
    const { metrics_path, scheme, scrape_timeout, authorization, static_configs } = job as {
      metrics_path: string;
      scheme: string;
      scrape_timeout: string;
      authorization: { type: string; credentials_file: string };
      static_configs: Array<{ targets: string[] }>;
    };
    expect(static_configs.flatMap(({ targets }) => targets.map((target) => target.split(':')[1]))).toEqual(['3000', '3000'].map(() => String(DEFAULTS.server.port)));
    expect(seconds(scrape_timeout)).toBeGreaterThan(DEFAULTS.operations.readinessTimeoutSeconds);
    expect(`${scheme}:`).toBe(new URL(url).protocol);
    // The credentials file holds the METRICS_TOKEN value alone.
    const scrape = await request(url).get(metrics_path).set({ Authorization: `${authorization.type} ${METRICS_TOKEN}`, Accept: PROMETHEUS_ACCEPT });
    expect([scrape.status, scrape.headers['content-type']]).toEqual([200, 'application/openmetrics-text; version=1.0.0; charset=utf-8']);
    expect((await request(url).get(metrics_path).set('Accept', PROMETHEUS_ACCEPT)).status).toBe(401);
  });

  test('the queries name only metrics the server exposes, by labels they have', async () => {
    const { app, metrics } = buildOperationsApp();
    const exposed = (await request(app).get('/metrics')).text;
    const typed = new Map([...exposed.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => [name!, type!]));
    const lines = queries!.text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(lines).toHaveLength(9);
    for (const line of lines) {
      const names = [...line.matchAll(/\b(?:ivr|nodejs|process)_[a-z0-9_]+/g)].map(([name]) => name);
      // A histogram is queried by its buckets.
      const families = names.map((name) => (typed.has(name) ? name : name.replace(/_bucket$/, '')));
      expect(families.map((family) => [family, typed.has(family)])).toEqual(families.map((family) => [family, true]));
      const labels = [...line.matchAll(/by \(([^)]*)\)/g)].flatMap(([, list]) => list!.split(',').map((label) => label.trim()));
      labels.push(...[...line.matchAll(/\{(\w+)[=!~]/g)].map(([, label]) => label!));
      // instance is the label Prometheus gives each target; le, a histogram's buckets'.
      const own = labels.filter((label) => label !== 'instance' && label !== 'le');
      const labelNames = families.flatMap((family) => {
        const metric = metrics.registry.getSingleMetric(family) as unknown as { labelNames?: readonly string[] } | undefined;
        return metric?.labelNames ?? [];
      });
      expect(own.filter((label) => !labelNames.includes(label))).toEqual([]);
    }
  });
});
