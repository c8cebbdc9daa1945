import path from 'node:path';
import request from 'supertest';
import { composeApp } from '../../composition-root';
import { loadConfig } from '../../configuration';
import { ConfigError } from '../../config/config-error';
import { createLogger } from '../../logger';
import { listen, listenOptions, type RunningServer } from '../../listen';
import { start } from '../../composition-root';
import { createMemoryStore } from '../../storage/memory/memory-store';
import { loadSurveyHandler } from './handler-module';
import type { SurveyHandler } from '../../domain/survey-handler';
import { FakeClock } from '../../../test/support/fake-clock';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { faultBody, post, responseBody, sessionCookieOf, svcEval } from '../../../test/survey-clients/support';
import { LogLines } from '../../../test/support/log-lines';
import { DEFAULT_EVALUATION_BOUNDS } from '../../../test/support/survey-handler';

const FIXTURES = path.join(__dirname, 'fixtures');
const ONCE = { reload: false, bounds: DEFAULT_EVALUATION_BOUNDS, logger: createLogger('silent') } as const;
const fixture = (name: string) => loadSurveyHandler(path.join(FIXTURES, name), process.cwd(), ONCE);
const HANDLER_FAILED = 'the survey handler failed; the server log has the cause';

describe('loading the module SURVEY_HANDLER names', () => {
  // An ES module's default export is taken too; handler-process.test.ts shows it, since jest's own
  // require cannot load ES modules on Node 20.
  test('module.exports = fn and an export named evaluate are taken', () => {
    expect(typeof fixture('echo-handler.js')).toBe('function');
    expect(typeof fixture('throwing-handler.js')).toBe('function');
  });

  test('a path is resolved from the given working directory', async () => {
    const handler = loadSurveyHandler('fixtures/echo-handler.js', __dirname, ONCE);
    const evaluation = await handler({ questionTexts: ['q'], answers: ['a'], state: undefined });
    expect(evaluation).toEqual({ response: '{"questionTexts":["q"],"answers":["a"]}', state: { calls: 1 } });
  });

  test('a missing module is a ConfigError naming SURVEY_HANDLER and the resolved path', () => {
    const resolved = path.join(__dirname, 'no-such-handler.js');
    const loading = () => loadSurveyHandler('./no-such-handler.js', __dirname, ONCE);
    expect(loading).toThrow(ConfigError);
    expect(loading).toThrow(`SURVEY_HANDLER="./no-such-handler.js": cannot load ${resolved}: Cannot find module '${resolved}'`);
  });

  test('a module that exports no function is a ConfigError saying what to export', () => {
    const resolved = path.join(FIXTURES, 'no-function.js');
    expect(() => loadSurveyHandler('fixtures/no-function.js', __dirname, ONCE)).toThrow(
      new ConfigError(
        `SURVEY_HANDLER="fixtures/no-function.js": ${resolved} exports no function; ` +
          'use module.exports = fn, a default export, or an export named evaluate',
      ),
    );
  });
});

describe('start() with SURVEY_HANDLER', () => {
  const env = { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent' };

  test('serves svcEval with the named module, loaded relative to the working directory', async () => {
    const started = await start({ ...env, SURVEY_HANDLER: path.relative(process.cwd(), path.join(FIXTURES, 'echo-handler.js')) });
    try {
      const reply = await post(started.running.url, svcEval(['Q1'], ['A1']));
      expect(reply.status).toBe(200);
      expect(reply.text).toBe(responseBody('{"questionTexts":["Q1"],"answers":["A1"]}'));
    } finally {
      await started.stop();
    }
  });

  test('stops before listening when the module cannot be loaded', async () => {
    await expect(start({ ...env, SURVEY_HANDLER: 'missing/handler.js' })).rejects.toThrow(
      `SURVEY_HANDLER="missing/handler.js": cannot load ${path.resolve('missing/handler.js')}: Cannot find module`,
    );
  });
});

describe('a handler that fails gives a soap:Server fault, and the server carries on', () => {
  let server: TestServer;

  afterEach(() => server.close());

  const cases: [string, SurveyHandler][] = [
    ['throws', fixture('throwing-handler.js')],
    [
      'rejects',
      async () => {
        await Promise.resolve();
        throw new Error('scoring service unreachable');
      },
    ],
    ['returns a bare string', fixture('bare-string-handler.js')],
    ['returns a state JSON cannot hold', () => ({ response: 'accepted', state: { big: 1n } })],
    ['returns a response with a character XML cannot carry', () => ({ response: 'a\u0001b', state: null })],
    ['returns a response with a lone surrogate', () => ({ response: 'a\uD800b', state: null })],
    ['never settles (SURVEY_HANDLER_TIMEOUT_SECONDS=1)', () => new Promise<never>(() => undefined)],
  ];

  test.each(cases)('a handler that %s', async (_case, surveyHandler) => {
    server = await startTestServer({ SURVEY_HANDLER_TIMEOUT_SECONDS: '1' }, { surveyHandler });
    const reply = await post(server.url, svcEval(['Q1'], ['yes']));
    expect(reply.status).toBe(500);
    expect(reply.get('Content-Type')).toBe('text/xml; charset=utf-8');
    expect(reply.get('Set-Cookie')).toBeUndefined();
    expect(reply.text).toBe(faultBody('soap:Server', HANDLER_FAILED));
    const again = await post(server.url, svcEval(['Q1'], ['yes']));
    expect(again.status).toBe(500);
    const reporting = await request(server.url).post('/api/auth').type('form').send({ tool: 'x' });
    expect(reporting.status).toBe(400);
  });
});

describe('the cause of a handler failure', () => {
  let running: RunningServer;

  afterEach(() => running.close());

  test('is logged with the request id, and never sent to the caller', async () => {
    const logs = new LogLines();
    const app = composeApp(loadConfig({}), { store: createMemoryStore(),
      clock: new FakeClock(),
      logger: createLogger('info', logs),
      surveyHandler: fixture('throwing-handler.js'),
    });
    running = await listen(app, '127.0.0.1', 0, listenOptions(loadConfig({}).server));
    const reply = await post(running.url, svcEval(['Q1'], ['yes']));
    expect(reply.status).toBe(500);
    expect(reply.text).not.toContain('/srv/secret');
    const failure = await logs.waitFor('the survey handler failed');
    expect(failure).toMatchObject({
      level: 50,
      requestId: reply.get('X-Request-Id'),
      err: { message: 'cannot open /srv/secret/scores.db' },
    });
  });
});

describe('state between the calls of one survey', () => {
  let server: TestServer;

  afterEach(() => server.close());

  test('the handler gets back what it returned, after a JSON round trip', async () => {
    const seen: unknown[] = [];
    server = await startTestServer({}, {
      surveyHandler: ({ state }) => {
        seen.push(state);
        return { response: 'ok', state: { when: new Date(Date.UTC(2018, 1, 7)), nothing: undefined, list: [1, 'two'] } };
      },
    });
    const first = await post(server.url, svcEval([], []));
    await post(server.url, svcEval([], []), { Cookie: sessionCookieOf(first) });
    expect(seen).toEqual([undefined, { when: '2018-02-07T00:00:00.000Z', list: [1, 'two'] }]);
  });
});
