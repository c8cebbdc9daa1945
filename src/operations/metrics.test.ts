import request from 'supertest';
import { loadConfig } from '../configuration';
import { ConfigError } from '../config/config-error';
import { METRIC_NAMES } from './app-metrics';
import type { RunningServer } from '../listen';
import { markingFailures } from '../storage/dependency-error';
import { createMemoryStore } from '../storage/memory/memory-store';
import type { Store } from '../storage/store';
import { hangUpMidBody } from '../../test/support/hang-up';
import { serve } from '../../test/support/http';
import { addAccount } from '../../test/support/test-app';
import { answerSurvey, buildOperationsApp, credentialsFrom, sampleIn, valueOf, type OperationsApp } from '../../test/support/operations';

const PROMETHEUS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const OPENMETRICS_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8';
/** What Prometheus 3 sends: OpenMetrics first, the text format as a fallback. */
const PROMETHEUS_ACCEPT =
  'application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,' +
  'text/plain;version=1.0.0;escaping=allow-utf-8;q=0.3,text/plain;version=0.0.4;q=0.2,*/*;q=0.1';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const ADMIN_TOKEN = 'operations-admin-token-0123';
const EVENTS_ROUTE = '/api/events/:start/:end/:period/:phone';
const UNAUTHORIZED = { error: 'missing or wrong metrics token; send Authorization: Bearer <METRICS_TOKEN>' };

const scrape = (app: OperationsApp['app'], accept?: string) => {
  const pending = request(app).get('/metrics');
  return accept === undefined ? pending : pending.set('Accept', accept);
};

describe('GET /metrics', () => {
  test('answers the Prometheus text format by default: the process metrics, event-loop delay included, and the app metrics', async () => {
    const { app } = buildOperationsApp();
    const response = await scrape(app);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(PROMETHEUS_TYPE);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.vary).toBe('Accept');
    const types = response.text.split('\n').filter((line) => line.startsWith('# TYPE '));
    expect(types).toEqual(
      expect.arrayContaining([
        '# TYPE process_cpu_seconds_total counter',
        '# TYPE process_resident_memory_bytes gauge',
        '# TYPE nodejs_eventloop_lag_seconds gauge',
        '# TYPE nodejs_eventloop_lag_p99_seconds gauge',
        '# TYPE nodejs_gc_duration_seconds histogram',
        `# TYPE ${METRIC_NAMES.requests} counter`,
        `# TYPE ${METRIC_NAMES.latency} histogram`,
        `# TYPE ${METRIC_NAMES.refusals} counter`,
        `# TYPE ${METRIC_NAMES.importedCalls} counter`,
        `# TYPE ${METRIC_NAMES.dependencyErrors} counter`,
        `# TYPE ${METRIC_NAMES.surveySessions} gauge`,
      ]),
    );
    expect(Number(sampleIn(response.text, 'nodejs_eventloop_lag_p99_seconds'))).toBeGreaterThanOrEqual(0);
  });

  test('answers OpenMetrics when the scraper prefers it, as Prometheus does, and both formats keep their counter names', async () => {
    const { app } = buildOperationsApp();
    const open = await scrape(app, PROMETHEUS_ACCEPT);
    expect(open.status).toBe(200);
    expect(open.headers['content-type']).toBe(OPENMETRICS_TYPE);
    expect(open.text.endsWith('\n# EOF\n')).toBe(true);
    expect(open.text).toContain('# TYPE ivr_imported_calls counter\n');
    expect(sampleIn(open.text, 'ivr_imported_calls_total{outcome="ingested"}')).toBe('0');

    // prom-client renames a counter written as OpenMetrics; a later scrape in the text format must not show it.
    const text = await scrape(app, 'text/plain');
    expect(text.headers['content-type']).toBe(PROMETHEUS_TYPE);
    expect(text.text).toContain('# TYPE ivr_imported_calls_total counter\n');
    expect(sampleIn(text.text, 'ivr_imported_calls_total{outcome="ingested"}')).toBe('0');
    expect(text.text).toContain('# TYPE process_cpu_seconds_total counter\n');
  });

  test.each([
    ['no Accept', undefined, PROMETHEUS_TYPE],
    ['OpenMetrics with parameters the served version lacks', 'application/openmetrics-text; version=0.0.1; escaping=underscores', OPENMETRICS_TYPE],
    ['a quoted parameter holding a comma', 'application/openmetrics-text;escaping="a,b";q=0.5,text/plain;q=0.4', OPENMETRICS_TYPE],
    ['OpenMetrics below any type', 'application/openmetrics-text;q=0.5, */*', PROMETHEUS_TYPE],
    ['neither format', 'application/json', PROMETHEUS_TYPE],
    ['OpenMetrics refused', 'application/openmetrics-text;q=0', PROMETHEUS_TYPE],
    // Answered in the text format until the one negotiator chose for /metrics too.
    ['any application type, which the text format is not', 'application/*', OPENMETRICS_TYPE],
    ['OpenMetrics as much as any text, by the more specific range', 'application/openmetrics-text;q=0.5, text/*;q=0.5', OPENMETRICS_TYPE],
    ['both as much, OpenMetrics first', 'application/openmetrics-text;q=0.5, text/plain;q=0.5', OPENMETRICS_TYPE],
    ['both as much, the text format first', 'text/plain;q=0.5, application/openmetrics-text;q=0.5', PROMETHEUS_TYPE],
  ])('negotiates the format as the reports are negotiated, parameters aside: %s', async (_case, accept, type) => {
    const { app } = buildOperationsApp();
    const response = await scrape(app, accept);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(type);
  });

  test('answers other methods with 405', async () => {
    const { app } = buildOperationsApp();
    const response = await request(app).post('/metrics');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  describe('with METRICS_TOKEN set', () => {
    const expectRefused = (response: request.Response) => {
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="ivr-reporting metrics"');
      expect(response.headers['x-error-code']).toBe('IVR_METRICS_UNAUTHORIZED');
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toEqual(UNAUTHORIZED);
      expect(response.text).not.toContain('ivr_');
    };

    test('refuses a scrape without the token, with a wrong one, or with other credentials, with 401 and a Bearer challenge', async () => {
      const { app } = buildOperationsApp({ METRICS_TOKEN, ADMIN_TOKEN });
      expectRefused(await scrape(app));
      expectRefused(await scrape(app, PROMETHEUS_ACCEPT));
      expectRefused(await scrape(app).set('Authorization', `Bearer ${METRICS_TOKEN.slice(0, -1)}`));
      expectRefused(await scrape(app).set('Authorization', `Bearer ${ADMIN_TOKEN}`));
      expectRefused(await scrape(app).auth('prometheus', METRICS_TOKEN));
    });

    test('serves a scrape with Authorization: Bearer <METRICS_TOKEN>', async () => {
      const { app } = buildOperationsApp({ METRICS_TOKEN });
      const response = await scrape(app).set('Authorization', `Bearer ${METRICS_TOKEN}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe(PROMETHEUS_TYPE);
      expect(response.text).toContain(`# TYPE ${METRIC_NAMES.requests} counter`);
    });

    test('leaves the probes open', async () => {
      const { app } = buildOperationsApp({ METRICS_TOKEN });
      expect((await request(app).get('/healthz')).status).toBe(200);
      expect((await request(app).get('/readyz')).status).toBe(200);
    });

    test('is at least 16 characters, and a refused value is never repeated', () => {
      expect(loadConfig({ METRICS_TOKEN }).operations.metricsToken).toBe(METRICS_TOKEN);
      expect(loadConfig({ METRICS_TOKEN: '  ' }).operations.metricsToken).toBeUndefined();
      expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(
        new ConfigError('invalid configuration: METRICS_TOKEN (value not shown): must be at least 16 characters'),
      );
    });
  });
});

describe('request metrics', () => {
  test('label requests by route pattern, never by the path asked, and every path no route answers as unknown', async () => {
    const testApp = buildOperationsApp();
    const { app, store, metrics } = testApp;
    await addAccount(store, { phones: ['15550001', '15550002'] });
    const { login, password } = await credentialsFrom(app);
    for (const path of ['/api/events/20180201/20180201/day/ALL', '/api/events/20180101/20180301/month/15550002']) {
      expect((await request(app).get(path).auth(login, password)).status).toBe(200);
    }
    // Refused by the route's own authentication: answered by the error handler, still labelled by the route.
    expect((await request(app).get('/api/events/20180201/20180201/day/ALL')).status).toBe(401);
    expect((await request(app).delete('/api/events/20180201/20180201/day/ALL')).status).toBe(405);
    expect((await request(app).get('/api/no/such/resource')).status).toBe(404);
    expect((await request(app).get('/favicon.ico')).status).toBe(404);
    expect((await answerSurvey(app)).status).toBe(200);

    const requests = (route: string, method: string, status: string) => valueOf(metrics, METRIC_NAMES.requests, { route, method, status });
    expect(await requests('/api/auth', 'POST', '200')).toBe(1);
    expect(await requests(EVENTS_ROUTE, 'GET', '200')).toBe(2);
    expect(await requests(EVENTS_ROUTE, 'GET', '401')).toBe(1);
    expect(await requests(EVENTS_ROUTE, 'DELETE', '405')).toBe(1);
    expect(await requests('unknown', 'GET', '404')).toBe(2);
    expect(await requests('/survey', 'POST', '200')).toBe(1);

    const text = (await scrape(app)).text;
    expect(text).not.toContain('20180201');
    expect(text).not.toContain('/api/no/such');
    expect(sampleIn(text, `ivr_http_request_duration_seconds_count{route="${EVENTS_ROUTE}",method="GET"}`)).toBe('3');
    expect(sampleIn(text, 'ivr_http_request_duration_seconds_count{route="unknown",method="GET"}')).toBe('2');
    expect(sampleIn(text, 'ivr_http_request_duration_seconds_bucket{le="+Inf",route="/api/auth",method="POST"}')).toBe('1');
    // The scrape counts itself once its answer has ended: the next scrape shows it.
    expect(sampleIn((await scrape(app)).text, 'ivr_http_requests_total{route="/metrics",method="GET",status="200"}')).toBe('1');
  });

  test('put the request id of the access log and X-Request-Id on the latency exemplars (OpenMetrics)', async () => {
    const { app, logs } = buildOperationsApp();
    const response = await request(app).get('/nowhere');
    const requestId = response.headers['x-request-id'] as string;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const accessLine = await logs.waitFor('request completed');
    expect((accessLine.req as { id: string }).id).toBe(requestId);

    const open = (await scrape(app, PROMETHEUS_ACCEPT)).text;
    const buckets = open.split('\n').filter((line) => line.startsWith('ivr_http_request_duration_seconds_bucket{') && line.includes('route="unknown"'));
    const withExemplar = buckets.filter((line) => line.includes(' # {'));
    expect(withExemplar).toHaveLength(1);
    expect(withExemplar[0]).toMatch(new RegExp(`^ivr_http_request_duration_seconds_bucket\\{le="[^"]+",route="unknown",method="GET"\\} 1 # \\{request_id="${requestId}"\\} [0-9.e-]+ [0-9.]+$`));
    // The text format has no exemplars.
    expect((await scrape(app)).text).not.toContain('request_id');
  });

  test('count a request whose client left before the answer as aborted', async () => {
    const testApp = buildOperationsApp();
    const running: RunningServer = await serve(testApp.app);
    try {
      await hangUpMidBody(running, 'POST /api/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"tool":');
      // The access log writes its line on the same event, after the metrics.
      await testApp.logs.waitFor('request aborted');
      expect(await valueOf(testApp.metrics, METRIC_NAMES.requests, { route: '/api/auth', method: 'POST', status: 'aborted' })).toBe(1);
    } finally {
      running.server.closeAllConnections();
      await running.close();
    }
  });
});

describe('rate-limit refusals', () => {
  test('are counted by limit group, once per 429', async () => {
    const testApp = buildOperationsApp({ AUTH_RATE_LIMIT: '1', DATA_RATE_LIMIT: '1', SURVEY_RATE_LIMIT: '1', ADMIN_TOKEN, ADMIN_RATE_LIMIT: '1' });
    const { app, store, metrics } = testApp;
    await addAccount(store, { phones: ['15550001'] });
    const refused = (group: string) => valueOf(metrics, METRIC_NAMES.refusals, { group });
    expect(await refused('authentication')).toBeUndefined();

    const { login, password } = await credentialsFrom(app);
    expect((await request(app).post('/api/auth').type('form').send({ tool: 'dev' })).status).toBe(429);
    expect((await request(app).post('/api/auth').type('form').send({ tool: 'dev' })).status).toBe(429);
    expect(await refused('authentication')).toBe(2);

    const events = () => request(app).get('/api/events/20180201/20180201/day/ALL').auth(login, password);
    expect((await events()).status).toBe(200);
    expect((await events()).status).toBe(429);
    expect(await refused('data')).toBe(1);

    const survey = () => answerSurvey(app);
    expect((await survey()).status).toBe(200);
    expect((await survey()).status).toBe(429);
    expect(await refused('survey')).toBe(1);

    const accounts = () => request(app).get('/admin/accounts').set('Authorization', `Bearer ${ADMIN_TOKEN}`);
    expect((await accounts()).status).toBe(200);
    expect((await accounts()).status).toBe(429);
    expect(await refused('admin')).toBe(1);

    expect(sampleIn((await scrape(app)).text, 'ivr_rate_limit_refusals_total{group="authentication"}')).toBe('2');
  });
});

describe('call imports', () => {
  test('count the records ingested, duplicate and rejected, as the import answer does', async () => {
    const { app, store, metrics } = buildOperationsApp({ ADMIN_TOKEN });
    await addAccount(store, { phones: ['15550001'] });
    const record = (callId: string, phone: string) =>
      JSON.stringify({ call_id: callId, phone, started_at: '2018-02-07T10:00:00Z', log_events: 1, loops: 0, form_items: 0 });
    const imported = (outcome: string) => valueOf(metrics, METRIC_NAMES.importedCalls, { outcome });
    expect([await imported('ingested'), await imported('duplicate'), await imported('rejected')]).toEqual([0, 0, 0]);

    const lines = [record('c1', '15550001'), record('c2', '15550001'), record('c1', '15550001'), record('c3', '15559999'), '{"call_id": "c4",', '{}'];
    const response = await request(app)
      .post('/admin/calls')
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(lines.join('\n'));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ received: 6, inserted: 2, duplicates: 1 });
    expect((response.body as { rejected: unknown[] }).rejected).toHaveLength(3);
    expect([await imported('ingested'), await imported('duplicate'), await imported('rejected')]).toEqual([2, 1, 3]);

    await request(app)
      .post('/admin/calls')
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('Content-Type', 'application/json')
      .send(`[${record('c2', '15550001')},${record('c5', '15550001')}]`);
    expect([await imported('ingested'), await imported('duplicate'), await imported('rejected')]).toEqual([3, 2, 3]);
  });
});

describe('dependency errors', () => {
  /** The in-memory store with its rate-limit counters and survey sessions in a Redis that has gone away. */
  function storeWithRedisGone(): Store {
    const memory = createMemoryStore();
    const gone = () => Promise.reject(new Error('Connection is closed.'));
    return {
      ...memory,
      rateLimits: markingFailures('redis', { hit: gone, decrement: gone, reset: gone }),
      surveySessions: markingFailures('redis', { get: gone, save: gone, live: gone }),
      dependencies: [...memory.dependencies, { name: 'redis', check: gone }],
    };
  }

  test('count each failed store call against its dependency, whatever became of the error', async () => {
    const { app, store, metrics } = buildOperationsApp({}, storeWithRedisGone());
    await addAccount(store, { phones: ['15550001'] });
    const errorsOf = (dependency: string) => valueOf(metrics, METRIC_NAMES.dependencyErrors, { dependency });
    expect([await errorsOf('store'), await errorsOf('redis')]).toEqual([0, 0]);

    // The authentication group fails closed: the error reaches the error handler, a 500.
    const auth = await request(app).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });
    expect(auth.status).toBe(500);
    expect(await errorsOf('redis')).toBe(1);

    // The survey service answers a fault, and its rate limit fails open: neither reaches the error handler.
    const survey = await answerSurvey(app);
    expect(survey.status).toBe(500);
    expect(await errorsOf('redis')).toBe(3);
    expect(await errorsOf('store')).toBe(0);
  });

  test('leave out errors no dependency caused', async () => {
    const memory = createMemoryStore();
    const broken: Store = { ...memory, rateLimits: { ...memory.rateLimits, hit: () => Promise.reject(new Error('a bug')) } };
    const { app, metrics } = buildOperationsApp({}, broken);
    expect((await request(app).post('/api/auth').type('form').send({ tool: 'dev' })).status).toBe(500);
    expect(await valueOf(metrics, METRIC_NAMES.dependencyErrors, { dependency: 'store' })).toBe(0);
  });
});

describe('live survey sessions', () => {
  test('are counted in the store at each scrape, expired ones left out', async () => {
    const { app, clock } = buildOperationsApp({ SURVEY_SESSION_TTL_SECONDS: '60' });
    const live = async () => sampleIn((await scrape(app)).text, METRIC_NAMES.surveySessions);
    expect(await live()).toBe('0');
    for (let survey = 0; survey < 3; survey += 1) expect((await answerSurvey(app)).status).toBe(200);
    expect(await live()).toBe('3');
    clock.advance(61_000);
    expect(await live()).toBe('0');
  });

  test('are left out when the store fails, and the rest of the scrape still comes', async () => {
    const memory = createMemoryStore();
    const failing: Store = { ...memory, surveySessions: { ...memory.surveySessions, live: () => Promise.reject(new Error('down')) } };
    const { app } = buildOperationsApp({}, failing);
    const response = await scrape(app);
    expect(response.status).toBe(200);
    expect(response.text).toContain(`# TYPE ${METRIC_NAMES.surveySessions} gauge\n`);
    expect(sampleIn(response.text, METRIC_NAMES.surveySessions)).toBeUndefined();
    expect(response.text).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
  });

  test('are left out once READINESS_TIMEOUT_SECONDS have passed when the store hangs', async () => {
    const memory = createMemoryStore();
    const hung: Store = { ...memory, surveySessions: { ...memory.surveySessions, live: () => new Promise<number>(() => undefined) } };
    const { app } = buildOperationsApp({ READINESS_TIMEOUT_SECONDS: '1' }, hung);
    const response = await scrape(app);
    expect(response.status).toBe(200);
    expect(sampleIn(response.text, METRIC_NAMES.surveySessions)).toBeUndefined();
  });
});

describe('metrics of separate apps in one process', () => {
  test('are kept apart: each app has its own registry', async () => {
    const first = buildOperationsApp();
    const second = buildOperationsApp();
    await request(first.app).get('/nowhere');
    expect(await valueOf(first.metrics, METRIC_NAMES.requests, { route: 'unknown', method: 'GET', status: '404' })).toBe(1);
    expect(await valueOf(second.metrics, METRIC_NAMES.requests, { route: 'unknown', method: 'GET', status: '404' })).toBeUndefined();
  });
});
