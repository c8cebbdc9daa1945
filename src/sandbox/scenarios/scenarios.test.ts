import type { Express } from 'express';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ADMIN_TOKEN, BEARER } from '../../../test/support/admin';
import { basic, serve } from '../../../test/support/http';
import { documentSchemas, operationById } from '../../../test/support/openapi';
import type { ApiDocument } from '../../openapi/document';
import { buildOperationsApp, credentialsFrom, valueOf, type OperationsApp } from '../../../test/support/operations';
import { addAccount } from '../../../test/support/test-app';
import { SOAP_ACTION, svcEval } from '../../../test/survey-clients/support';
import { METRIC_NAMES } from '../../operations/app-metrics';
import { MOST_HELD_REQUESTS } from './forced-answers';

// The fake clock's start (test/support/fake-clock.ts): 2018-02-07T15:00:00Z, in the window of 15:00-15:15.
const START = '2018-02-07T15:00:00.000Z';
const WINDOW_END_SECOND = Date.UTC(2018, 1, 7, 15, 15) / 1000;
const EVENTS = '/api/events/20180201/20180207/day/ALL';
const VOLUME = '/api/volume/20180201/20180207/day/ALL';
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let sandbox: OperationsApp;
let app: Express;
let alice: string;

async function setUp(env: NodeJS.ProcessEnv = {}, random?: () => number): Promise<void> {
  sandbox = buildOperationsApp({ ADMIN_TOKEN, ...env }, undefined, undefined, random);
  app = sandbox.app;
  await addAccount(sandbox.store);
  await addAccount(sandbox.store, { login: 'bob' });
  const issued = await credentialsFrom(app);
  alice = basic(issued.login, issued.password);
}

const addScenario = (body: unknown) => request(app).post('/admin/scenarios').set('Authorization', BEARER).send(body as object);
const listScenarios = () => request(app).get('/admin/scenarios').set('Authorization', BEARER);
const events = (authorization = alice) => request(app).get(EVENTS).set('Authorization', authorization);

async function scenarioId(body: unknown): Promise<string> {
  const response = await addScenario(body);
  expect(response.status).toBe(201);
  return (response.body as { id: string }).id;
}

function expectRefusal(response: request.Response, status: number, code: string, error: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['x-error-code']).toBe(code);
  expect(response.body).toEqual({ error });
}

describe('POST /admin/scenarios', () => {
  beforeEach(() => setUp());

  test('adds a scenario and answers it with its id, its place and its use', async () => {
    const response = await addScenario({ target: 'data', tool: 'dev', login: 'alice', status: 429, times: 3 });
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const { id } = response.body as { id: string };
    expect(id).toMatch(ID);
    expect(response.headers.location).toBe(`/admin/scenarios/${id}`);
    const view = { id, target: 'data', tool: 'dev', login: 'alice', status: 429, times: 3, fired: 0, active: true, created_at: START };
    expect(response.body).toEqual(view);
    expect((await listScenarios()).body).toEqual({ scenarios: [view] });
    expect((await request(app).get(`/admin/scenarios/${id}`).set('Authorization', BEARER)).body).toEqual(view);
  });

  test('keeps every field of a survey scenario as given, the address as written', async () => {
    const response = await addScenario({ target: 'survey', client_address: '::ffff:10.0.0.7', status: 503, fault_string: 'down', delay_ms: 5 });
    expect(response.body).toEqual({
      id: expect.stringMatching(ID) as unknown,
      target: 'survey',
      client_address: '10.0.0.7',
      status: 503,
      fault_string: 'down',
      delay_ms: 5,
      fired: 0,
      active: true,
      created_at: START,
    });
  });

  test('keeps a delay given as a distribution as it was given', async () => {
    const uniform = await addScenario({ target: 'data', delay_ms: { uniform: [100, 900] } });
    expect(uniform.status).toBe(201);
    const uniformView = { id: expect.stringMatching(ID) as unknown, target: 'data', delay_ms: { uniform: [100, 900] }, fired: 0, active: true, created_at: START };
    expect(uniform.body).toEqual(uniformView);
    const logNormal = await addScenario({ target: 'survey', status: 503, delay_ms: { median: 200, p99: 2000 }, times: 2 });
    const logNormalView = {
      id: expect.stringMatching(ID) as unknown,
      target: 'survey',
      status: 503,
      delay_ms: { median: 200, p99: 2000 },
      times: 2,
      fired: 0,
      active: true,
      created_at: START,
    };
    expect(logNormal.body).toEqual(logNormalView);
    expect((await listScenarios()).body).toEqual({ scenarios: [uniformView, logNormalView] });
    const { id } = logNormal.body as { id: string };
    expect((await request(app).get(`/admin/scenarios/${id}`).set('Authorization', BEARER)).body).toEqual(logNormalView);
  });

  test('keeps a connection fault as given, a drip with its rate', async () => {
    const reset = await addScenario({ target: 'auth', connection: 'reset', delay_ms: 10 });
    expect(reset.status).toBe(201);
    expect(reset.body).toEqual({ id: expect.stringMatching(ID) as unknown, target: 'auth', delay_ms: 10, connection: 'reset', fired: 0, active: true, created_at: START });
    const drip = await addScenario({ target: 'survey', status: 503, connection: 'drip', bytes_per_second: 500 });
    expect(drip.body).toEqual({
      id: expect.stringMatching(ID) as unknown,
      target: 'survey',
      status: 503,
      connection: 'drip',
      bytes_per_second: 500,
      fired: 0,
      active: true,
      created_at: START,
    });
  });

  test('keeps a probability and its seed as given', async () => {
    const response = await addScenario({ target: 'data', status: 500, probability: 0.05, seed: 42 });
    expect(response.status).toBe(201);
    const view = { id: expect.stringMatching(ID) as unknown, target: 'data', status: 500, probability: 0.05, seed: 42, fired: 0, active: true, created_at: START };
    expect(response.body).toEqual(view);
    expect((await listScenarios()).body).toEqual({ scenarios: [view] });
  });

  test('draws the seed of a probability given without one, and shows it, so that the run can be had again', async () => {
    await setUp({}, () => 0.25);
    const response = await addScenario({ target: 'survey', status: 503, probability: 1 });
    expect(response.status).toBe(201);
    expect(response.body).toEqual(expect.objectContaining({ probability: 1, seed: 536_870_912 }));
  });

  test.each([
    [{ target: 'data', status: 500, probability: 0 }, 'probability: must be above 0'],
    [{ target: 'data', status: 500, probability: -0.5 }, 'probability: must be above 0'],
    [{ target: 'data', status: 500, probability: 1.01 }, 'probability: must be at most 1'],
    [{ target: 'data', status: 500, probability: '0.1' }, 'probability: must be a number'],
    [{ target: 'data', status: 500, seed: 7 }, 'seed: needs a probability'],
    [{ target: 'data', status: 500, probability: 0.1, seed: -1 }, 'seed: must be at least 0'],
    [{ target: 'data', status: 500, probability: 0.1, seed: 2_147_483_648 }, 'seed: must be at most 2147483647'],
    [{ target: 'data', status: 500, probability: 0.1, seed: 1.5 }, 'seed: must be a whole number'],
  ])('refuses the chance %j: %s', async (body, error) => {
    expectRefusal(await addScenario(body), 400, 'IVR_INVALID_PARAMETER', error);
    expect((await listScenarios()).body).toEqual({ scenarios: [] });
  });

  const EITHER_FORM = 'delay_ms: must be a whole number of milliseconds, or one of {"uniform": [min, max]} and {"median": m, "p99": n}';

  test.each([
    [{ target: 'data', delay_ms: { uniform: [900, 100] } }, 'delay_ms.uniform: its min must not be above its max'],
    [{ target: 'data', delay_ms: { uniform: [-1, 100] } }, 'delay_ms.uniform.0: must be at least 0'],
    [{ target: 'data', delay_ms: { uniform: [0, 60_001] } }, 'delay_ms.uniform.1: must be at most 60000'],
    [{ target: 'data', delay_ms: { uniform: [0.5, 100] } }, EITHER_FORM],
    [{ target: 'data', delay_ms: { median: 2000, p99: 200 } }, 'delay_ms.median: must not be above p99'],
    [{ target: 'data', delay_ms: { median: 0, p99: 200 } }, 'delay_ms.median: must be at least 1'],
    [{ target: 'data', delay_ms: { median: 200, p99: 60_001 } }, 'delay_ms.p99: must be at most 60000'],
    [{ target: 'data', delay_ms: { median: 200, p99: 2000, mean: 300 } }, 'delay_ms: a log-normal delay takes median and p99 alone, not mean'],
    [{ target: 'data', delay_ms: { uniform: [100, 900], seed: 1 } }, 'delay_ms: a uniform delay takes uniform alone, not seed'],
    [{ target: 'data', delay_ms: { uniform: [100, 900], median: 200 } }, 'delay_ms: a uniform delay takes uniform alone, not median'],
    [{ target: 'data', delay_ms: { uniform: [100, 900], median: 200, p99: 2000 } }, EITHER_FORM],
    [{ target: 'data', delay_ms: { median: 200 } }, EITHER_FORM],
    [{ target: 'data', delay_ms: { uniform: [100] } }, EITHER_FORM],
    [{ target: 'data', delay_ms: '300' }, EITHER_FORM],
  ])('refuses the delay %j: %s', async (body, error) => {
    expectRefusal(await addScenario(body), 400, 'IVR_INVALID_PARAMETER', error);
    expect((await listScenarios()).body).toEqual({ scenarios: [] });
  });

  test.each([[[]], [[100]], [[100, 200, 300]]])('documents a uniform delay of %j as refused, as the server refuses it', async (bounds) => {
    const body = { target: 'data', delay_ms: { uniform: bounds } };
    const document = (await request(app).get('/openapi.json')).body as ApiDocument;
    const documented = documentSchemas(document).request(operationById(document, 'addScenario'), 'application/json');
    expect(documented(body)).toBe(false);
    expectRefusal(await addScenario(body), 400, 'IVR_INVALID_PARAMETER', EITHER_FORM);
  });

  test.each([
    [{}, 'target: must be one of auth, data, volume, events, performance, caller-profile, geographic, flow, survey'],
    [{ target: 'data' }, 'status: a scenario needs a status, a delay_ms or a connection'],
    [{ target: 'data', status: 404 }, 'status: must be one of 401, 429, 500, 503 (for the survey 429, 500, 503)'],
    [{ target: 'survey', status: 401 }, 'status: must be one of 429, 500, 503 for the survey'],
    [{ target: 'data', status: 500, tool: 'dev' }, 'login: tool and login go together'],
    [{ target: 'survey', status: 500, tool: 'dev', login: 'alice' }, 'tool: the survey has no accounts: match by client_address instead'],
    [{ target: 'data', status: 500, fault_string: 'no' }, 'fault_string: is for the survey only'],
    [{ target: 'survey', delay_ms: 5, fault_string: 'no' }, 'fault_string: needs a status'],
    [{ target: 'data', delay_ms: 60_001 }, 'delay_ms: must be at most 60000'],
    [{ target: 'data', status: 500, times: 0 }, 'times: must be at least 1'],
    [{ target: 'data', status: 500, retry_after_seconds: 2 }, 'retry_after_seconds: needs status 429 or 503'],
    [{ target: 'data', status: 500, client_address: 'localhost' }, 'client_address: must be an IPv4 or IPv6 address'],
    [{ target: 'data', connection: 'slow' }, 'connection: must be one of reset, empty, truncated, drip'],
    [{ target: 'data', connection: 'reset', status: 500 }, 'status: cannot go with connection reset, which sends no status'],
    [{ target: 'survey', connection: 'empty', status: 503, fault_string: 'down' }, 'status: cannot go with connection empty, which sends no status'],
    [{ target: 'data', connection: 'drip' }, 'bytes_per_second: a drip needs it'],
    [{ target: 'data', connection: 'truncated', bytes_per_second: 100 }, 'bytes_per_second: needs connection drip'],
    [{ target: 'data', status: 500, bytes_per_second: 100 }, 'bytes_per_second: needs connection drip'],
    [{ target: 'data', connection: 'drip', bytes_per_second: 0 }, 'bytes_per_second: must be at least 1'],
    [{ target: 'data', connection: 'drip', bytes_per_second: 1_000_001 }, 'bytes_per_second: must be at most 1000000'],
    [{ target: 'data', connection: 'drip', bytes_per_second: 10.5 }, 'bytes_per_second: must be a whole number of bytes'],
  ])('refuses %j: %s', async (body, error) => {
    expectRefusal(await addScenario(body), 400, 'IVR_INVALID_PARAMETER', error);
    expect((await listScenarios()).body).toEqual({ scenarios: [] });
  });

  test('refuses a body that is not JSON', async () => {
    const response = await request(app).post('/admin/scenarios').set('Authorization', BEARER).type('form').send('target=data');
    expectRefusal(response, 415, 'IVR_UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json (Content-Type)');
  });

  test('is behind the admin token', async () => {
    const response = await request(app).post('/admin/scenarios').send({ target: 'data', status: 500 });
    expect(response.status).toBe(401);
    expect(response.headers['x-error-code']).toBe('IVR_ADMIN_UNAUTHORIZED');
  });

  test('says which methods the paths take', async () => {
    const collection = await request(app).put('/admin/scenarios').set('Authorization', BEARER);
    expect(collection.status).toBe(405);
    expect(collection.headers.allow).toBe('GET, HEAD, POST, DELETE');
    const one = await request(app).post('/admin/scenarios/00000000-0000-4000-8000-000000000000').set('Authorization', BEARER);
    expect(one.status).toBe(405);
    expect(one.headers.allow).toBe('GET, HEAD, DELETE');
  });
});

describe('POST /admin/scenarios with SANDBOX_SCENARIOS=false', () => {
  test('checks the body, then refuses with 409, and no request is forced', async () => {
    await setUp({ SANDBOX_SCENARIOS: 'false' });
    expectRefusal(await addScenario({ target: 'data' }), 400, 'IVR_INVALID_PARAMETER', 'status: a scenario needs a status, a delay_ms or a connection');
    expectRefusal(
      await addScenario({ target: 'data', status: 500 }),
      409,
      'IVR_SCENARIOS_OFF',
      'scenarios are off on this server: start it with SANDBOX_SCENARIOS=true (the default, but with NODE_ENV=production) to add them',
    );
    expect((await events()).status).toBe(200);
  });
});

describe('POST /admin/scenarios with NODE_ENV=production: no scenario in production unless asked for', () => {
  const login = () => request(app).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });

  test('refuses with 409 unless SANDBOX_SCENARIOS=true names them, and real logins go on working', async () => {
    await setUp({ NODE_ENV: 'production' });
    expectRefusal(
      await addScenario({ target: 'auth', status: 503 }),
      409,
      'IVR_SCENARIOS_OFF',
      'scenarios are off on this server: start it with SANDBOX_SCENARIOS=true (the default, but with NODE_ENV=production) to add them',
    );
    expect((await listScenarios()).body).toEqual({ scenarios: [] });
    const loggedIn = await login();
    expect(loggedIn.status).toBe(200);
    expect(loggedIn.headers['x-sandbox-scenarios-active']).toBeUndefined();
  });

  test('adds them and forces their answers with SANDBOX_SCENARIOS=true', async () => {
    await setUp({ NODE_ENV: 'production', SANDBOX_SCENARIOS: 'true' });
    await scenarioId({ target: 'auth', status: 503, times: 1 });
    expectRefusal(await login(), 500, 'IVR_DEPENDENCY_UNAVAILABLE', 'unknown error');
    expect((await login()).status).toBe(200);
  });
});

describe('POST /admin/scenarios past SANDBOX_MAX_SCENARIOS', () => {
  test('refuses with 409 while that many have answers left, and adds again once one is used up or deleted', async () => {
    await setUp({ SANDBOX_MAX_SCENARIOS: '3' });
    const once = await scenarioId({ target: 'data', status: 500, times: 1 });
    const others = [await scenarioId({ target: 'auth', status: 429 }), await scenarioId({ target: 'volume', status: 429 })];
    const refused = await addScenario({ target: 'survey', status: 503 });
    expectRefusal(
      refused,
      409,
      'IVR_TOO_MANY_SCENARIOS',
      '3 scenarios have answers left, the most SANDBOX_MAX_SCENARIOS allows: delete some (DELETE /admin/scenarios/{id}, or DELETE /admin/scenarios for all) before adding another',
    );
    expect((await listScenarios()).body).toMatchObject({ scenarios: [{ id: once }, { id: others[0] }, { id: others[1] }] });
    // Used up, it is still listed, no longer counted, and no longer answers.
    expect((await events()).status).toBe(500);
    const fourth = await scenarioId({ target: 'survey', status: 503 });
    expect((await listScenarios()).body).toMatchObject({
      scenarios: [{ id: once, fired: 1, active: false }, { id: others[0] }, { id: others[1] }, { id: fourth }],
    });
    expect((await events()).status).toBe(200);
    expect((await addScenario({ target: 'survey', status: 503 })).status).toBe(409);
    expect((await request(app).delete(`/admin/scenarios/${fourth}`).set('Authorization', BEARER)).status).toBe(204);
    expect((await addScenario({ target: 'survey', status: 503 })).status).toBe(201);
  });

  test('holds 100 by default', async () => {
    await setUp();
    for (let added = 0; added < 100; added += 1) await scenarioId({ target: 'auth', status: 429, client_address: '10.0.0.1' });
    expect((await addScenario({ target: 'auth', status: 429 })).headers['x-error-code']).toBe('IVR_TOO_MANY_SCENARIOS');
  });
});

describe('DELETE /admin/scenarios', () => {
  beforeEach(() => setUp());

  test('removes one scenario, which then no longer answers, and says 404 for one it does not know', async () => {
    const id = await scenarioId({ target: 'data', status: 500 });
    const removed = await request(app).delete(`/admin/scenarios/${id}`).set('Authorization', BEARER);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await events()).status).toBe(200);
    expectRefusal(await request(app).delete(`/admin/scenarios/${id}`).set('Authorization', BEARER), 404, 'IVR_SCENARIO_NOT_FOUND', `no scenario ${id}`);
    expectRefusal(await request(app).get(`/admin/scenarios/${id}`).set('Authorization', BEARER), 404, 'IVR_SCENARIO_NOT_FOUND', `no scenario ${id}`);
  });

  test('refuses an id that no scenario can have', async () => {
    const response = await request(app).delete('/admin/scenarios/nothing').set('Authorization', BEARER);
    expectRefusal(response, 400, 'IVR_INVALID_PARAMETER', 'id: must be a scenario id, as POST /admin/scenarios answered it (a UUID)');
  });

  test('removes every scenario and says how many', async () => {
    await scenarioId({ target: 'data', status: 500 });
    await scenarioId({ target: 'auth', status: 429 });
    const response = await request(app).delete('/admin/scenarios').set('Authorization', BEARER);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ removed: 2 });
    expect((await listScenarios()).body).toEqual({ scenarios: [] });
  });
});

describe('a scenario that answers by chance', () => {
  beforeEach(() => setUp({ DATA_RATE_LIMIT: '1000000' }));

  /** Which of `count` reports, sent one after another, the scenario answered with its 500. */
  async function failedOf(count: number): Promise<number[]> {
    const running = await serve(app);
    try {
      const failed: number[] = [];
      for (let index = 0; index < count; index += 1) {
        const response = await fetch(`${running.url}${EVENTS}`, { headers: { Authorization: alice } });
        await response.arrayBuffer();
        if (response.status === 500) failed.push(index);
        else expect(response.status).toBe(200);
      }
      return failed;
    } finally {
      await running.close();
    }
  }

  test('fails the same requests of 1,000 on every run with a seed: at probability 0.1, between 70 and 130 of them', async () => {
    const rule = { target: 'data', status: 500, probability: 0.1, seed: 2026 };
    const id = await scenarioId(rule);
    const first = await failedOf(1000);
    expect(first.length).toBeGreaterThanOrEqual(70);
    expect(first.length).toBeLessThanOrEqual(130);
    expect((await request(app).get(`/admin/scenarios/${id}`).set('Authorization', BEARER)).body).toEqual(expect.objectContaining({ fired: first.length }));
    await request(app).delete('/admin/scenarios').set('Authorization', BEARER);
    await scenarioId(rule);
    expect(await failedOf(1000)).toEqual(first);
    // 2,000 reports one after another: bounded by what a loaded machine takes for them, not by jest's default.
  }, 180_000);
});

describe('the answers a data scenario forces', () => {
  beforeEach(() => setUp());

  test("answers the account's next three data requests with the data group's 429, then the real answer", async () => {
    const id = await scenarioId({ target: 'data', tool: 'dev', login: 'alice', status: 429, times: 3 });
    for (const stillActive of ['1', '1', undefined]) {
      const response = await events();
      expectRefusal(response, 429, 'IVR_RATE_LIMITED', 'rate limit exceeded; retry after the time in Retry-After');
      expect(response.headers['retry-after']).toBe('900');
      expect(response.headers['x-ratelimit-limit']).toBe('150');
      expect(response.headers['x-ratelimit-remaining']).toBe('0');
      expect(response.headers['x-ratelimit-reset']).toBe(String(WINDOW_END_SECOND));
      expect(response.headers['x-sandbox-scenario']).toBe(id);
      expect(response.headers['x-sandbox-scenarios-active']).toBe(stillActive);
    }
    const real = await events();
    expect(real.status).toBe(200);
    expect(real.headers['x-sandbox-scenario']).toBeUndefined();
    expect(real.headers['x-ratelimit-remaining']).toBe('146');
    expect((await listScenarios()).body).toEqual({
      scenarios: [{ id, target: 'data', tool: 'dev', login: 'alice', status: 429, times: 3, fired: 3, active: false, created_at: START }],
    });
    expect(await valueOf(sandbox.metrics, METRIC_NAMES.scenarioAnswers, { target: 'data', answer: '429' })).toBe(3);
  });

  test('answers 429 with the Retry-After given, and the reset it makes', async () => {
    await scenarioId({ target: 'data', status: 429, retry_after_seconds: 2, times: 1 });
    const response = await events();
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.headers['x-ratelimit-reset']).toBe(String(Date.parse(START) / 1000 + 2));
  });

  test('answers in XML when the client asks for it', async () => {
    await scenarioId({ target: 'events', status: 500 });
    const response = await events().set('Accept', 'application/xml');
    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.text).toBe('<?xml version="1.0" encoding="UTF-8"?><result><error>unknown error</error></result>');
  });

  test('answers 401 with the Basic challenge, as for credentials that expired', async () => {
    await scenarioId({ target: 'data', status: 401, times: 1 });
    const response = await events();
    expectRefusal(response, 401, 'IVR_UNAUTHORIZED', 'missing, invalid or expired credentials, or the account is inactive; authenticate at /api/auth');
    expect(response.headers['www-authenticate']).toBe('Basic realm="IVR reporting API"');
    expect((await events()).status).toBe(200);
  });

  test("answers 503 as the reporting API answers an outage: a 500 with Retry-After", async () => {
    await scenarioId({ target: 'data', status: 503 });
    const response = await events();
    expectRefusal(response, 500, 'IVR_DEPENDENCY_UNAVAILABLE', 'unknown error');
    expect(response.headers['retry-after']).toBe('5');
  });

  test('answers until deleted when no times are given', async () => {
    await scenarioId({ target: 'data', status: 500 });
    for (let request = 0; request < 5; request += 1) expect((await events()).status).toBe(500);
    expect((await events()).headers['x-sandbox-scenarios-active']).toBe('1');
  });

  test('forces only the resource it names, the account it names and the address it names', async () => {
    await scenarioId({ target: 'volume', status: 500 });
    await scenarioId({ target: 'data', tool: 'dev', login: 'bob', status: 500 });
    await scenarioId({ target: 'data', client_address: '10.0.0.1', status: 500 });
    expect((await events()).status).toBe(200);
    expect((await request(app).get(VOLUME).set('Authorization', alice)).status).toBe(500);
    await scenarioId({ target: 'data', client_address: '127.0.0.1', status: 503, times: 1 });
    expect((await events()).status).toBe(500);
    expect((await events()).status).toBe(200);
  });

  test('delays the real answer by at least delay_ms and says which scenario did', async () => {
    const id = await scenarioId({ target: 'data', delay_ms: 300, times: 1 });
    const sent = performance.now();
    const response = await events();
    expect(performance.now() - sent).toBeGreaterThanOrEqual(300);
    expect(response.status).toBe(200);
    expect(response.headers['x-sandbox-scenario']).toBe(id);
    expect(await valueOf(sandbox.metrics, METRIC_NAMES.scenarioAnswers, { target: 'data', answer: 'delay' })).toBe(1);
  });
});

describe('the delays drawn from a distribution', () => {
  /** Gives `value` at every draw, and counts the draws. */
  function fixedRandom(value: number): { random: () => number; draws: () => number } {
    let draws = 0;
    return {
      random: () => {
        draws += 1;
        return value;
      },
      draws: () => draws,
    };
  }

  // A draw of 0 waits the least: with Math.random in place of the fake, a request would wait up to a minute and the test time out.
  test('each request draws its own uniform delay from the injected randomness', async () => {
    const fake = fixedRandom(0);
    await setUp({}, fake.random);
    const id = await scenarioId({ target: 'data', delay_ms: { uniform: [0, 60_000] }, times: 2 });
    for (const draws of [1, 2]) {
      const response = await events();
      expect(response.status).toBe(200);
      expect(response.headers['x-sandbox-scenario']).toBe(id);
      expect(fake.draws()).toBe(draws);
    }
    expect((await events()).headers['x-sandbox-scenario']).toBeUndefined();
    expect(fake.draws()).toBe(2);
    expect(await valueOf(sandbox.metrics, METRIC_NAMES.scenarioAnswers, { target: 'data', answer: 'delay' })).toBe(2);
  });

  // Uniforms of 0 make Box–Muller's normal value 0: the median, 1 ms.
  test('each request draws its own log-normal delay from two uniforms, then gets the status', async () => {
    const fake = fixedRandom(0);
    await setUp({}, fake.random);
    await scenarioId({ target: 'data', status: 500, delay_ms: { median: 1, p99: 60_000 }, times: 2 });
    for (const draws of [2, 4]) {
      expectRefusal(await events(), 500, 'IVR_INTERNAL', 'unknown error');
      expect(fake.draws()).toBe(draws);
    }
  });

  test('a fixed delay draws nothing', async () => {
    const fake = fixedRandom(0);
    await setUp({}, fake.random);
    await scenarioId({ target: 'data', delay_ms: 1, times: 1 });
    expect((await events()).status).toBe(200);
    expect(fake.draws()).toBe(0);
  });
});

describe('the answers an auth scenario forces', () => {
  beforeEach(() => setUp());

  const login = (loginName = 'alice') =>
    request(app).post('/api/auth').type('form').send({ tool: 'dev', login: loginName, password: 'secret-password' });

  test("answers a login with the authentication group's 429", async () => {
    await scenarioId({ target: 'auth', status: 429, times: 1 });
    const response = await login();
    expectRefusal(response, 429, 'IVR_RATE_LIMITED', 'rate limit exceeded; retry after the time in Retry-After');
    expect(response.headers['x-ratelimit-limit']).toBe('15');
    expect(response.headers['x-ratelimit-remaining']).toBe('0');
    expect(response.headers['retry-after']).toBe('900');
    expect((await login()).status).toBe(200);
  });

  test("answers the named account's login with the invalid-login 401, and another's not", async () => {
    await scenarioId({ target: 'auth', tool: 'dev', login: 'alice', status: 401 });
    const response = await login();
    expectRefusal(response, 401, 'IVR_INVALID_LOGIN', 'invalid login or password, or the account is inactive');
    expect(response.headers['www-authenticate']).toBe('Form realm="IVR reporting API"');
    expect((await login('bob')).status).toBe(200);
  });
});

describe('the answers a survey scenario forces', () => {
  beforeEach(() => setUp());

  const soapCall = () =>
    request(app).post('/survey').set({ 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: SOAP_ACTION }).send(svcEval(['Agree?'], ['yes']));
  const restCall = () => request(app).post('/survey/rest').type('form').send('question_texts[]=Agree%3F&answers[]=yes');

  test('answers a SOAP call with a soap:Server fault of the given faultstring', async () => {
    const id = await scenarioId({ target: 'survey', status: 500, fault_string: 'the survey is closed', times: 1 });
    const response = await soapCall();
    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(response.headers['x-error-code']).toBe('IVR_SURVEY_HANDLER_FAILED');
    expect(response.headers['x-sandbox-scenario']).toBe(id);
    expect(response.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>' +
        '<faultcode>soap:Server</faultcode><faultstring>the survey is closed</faultstring></soap:Fault></soap:Body></soap:Envelope>',
    );
    expect((await soapCall()).status).toBe(200);
  });

  test('answers a REST call with the status and the fault string as its error', async () => {
    await scenarioId({ target: 'survey', status: 503, fault_string: 'maintenance' });
    const response = await restCall();
    expectRefusal(response, 503, 'IVR_DEPENDENCY_UNAVAILABLE', 'maintenance');
    expect(response.headers['retry-after']).toBe('5');
    expect(await valueOf(sandbox.metrics, METRIC_NAMES.scenarioAnswers, { target: 'survey', answer: '503' })).toBe(1);
  });

  test("answers a SOAP call with the survey group's 429 fault", async () => {
    await scenarioId({ target: 'survey', status: 429 });
    const response = await soapCall();
    expect(response.status).toBe(429);
    expect(response.headers['x-ratelimit-limit']).toBe('20000');
    expect(response.text).toContain('<faultcode>soap:Client</faultcode><faultstring>rate limit exceeded; retry after the time in Retry-After</faultstring>');
  });
});

describe('the requests delays and drips hold at once', () => {
  beforeEach(() => setUp());

  test.each([
    ['a delayed survey call waits no more', { target: 'survey', delay_ms: 60_000 }, 'delay'],
    ['a dripped answer goes whole at once', { target: 'survey', connection: 'drip', bytes_per_second: 1 }, 'drip'],
  ])(`are at most ${MOST_HELD_REQUESTS}: past them %s, so what they hold stays bounded`, async (_case, rule, answer) => {
    const id = await scenarioId(rule);
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const body = svcEval(['Agree?'], ['yes']);
    const call = (signal?: AbortSignal) =>
      fetch(`http://127.0.0.1:${port}/survey`, { method: 'POST', headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: SOAP_ACTION }, body, signal });
    const leave = new AbortController();
    let heldAnswered = 0;
    // A dripping answer sends its head at once: a whole body is what tells one that was not held.
    const held = Array.from({ length: MOST_HELD_REQUESTS }, () =>
      call(leave.signal)
        .then((response) => response.text())
        .then(
          () => (heldAnswered += 1),
          () => undefined,
        ),
    );
    try {
      // Each held request is counted as its scenario answers it, before it waits or drips.
      const holding = () => valueOf(sandbox.metrics, METRIC_NAMES.scenarioAnswers, { target: 'survey', answer });
      while ((await holding()) !== MOST_HELD_REQUESTS) await new Promise((resolve) => setImmediate(resolve));

      const beyond = await call();
      expect(beyond.status).toBe(200);
      expect(beyond.headers.get('x-sandbox-scenario')).toBe(id);
      expect(await beyond.text()).toContain('<svcEvalResponse>accepted</svcEvalResponse>');
      expect(heldAnswered).toBe(0);
    } finally {
      // A client that leaves ends its wait, or its drip.
      leave.abort();
      await Promise.all(held);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
