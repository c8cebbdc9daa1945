import { once } from 'node:events';
import { connect } from 'node:net';
import request from 'supertest';
import { composeApp } from '../composition-root';
import { loadConfig } from '../configuration';
import { createLogger } from '../logger';
import { listen, listenOptions, type RunningServer } from '../listen';
import { createMemoryStore } from '../storage/memory/memory-store';
import type { SurveyHandler } from '../domain/survey-handler';
import { FakeClock } from '../../test/support/fake-clock';
import { LogLines } from '../../test/support/log-lines';
import { faultBody, post, responseBody, svcEval } from '../../test/survey-clients/support';

// One second, so that the idle cases end quickly; the tests wait for the answers, never for the clock.
const IDLE_SECONDS = 1;

let running: RunningServer;
let logs: LogLines;

async function start(surveyHandler?: SurveyHandler): Promise<void> {
  logs = new LogLines();
  const config = loadConfig({ REQUEST_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS) });
  const logger = createLogger('info', logs);
  const app = composeApp(config, { store: createMemoryStore(), clock: new FakeClock(), logger, surveyHandler });
  running = await listen(app, '127.0.0.1', 0, listenOptions(config.server, logger));
}

afterEach(async () => {
  running.server.closeAllConnections();
  await running.close();
});

interface RawAnswer {
  readonly head: string;
  readonly body: string;
}

/** Sends bytes as they are on a new connection; resolves with what came back once the server closed it. */
async function raw(bytes: string): Promise<RawAnswer> {
  const url = new URL(running.url);
  const socket = connect(Number(url.port), url.hostname);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.write(bytes);
  await once(socket, 'close');
  const split = received.indexOf('\r\n\r\n');
  return { head: received.slice(0, split), body: received.slice(split + 4) };
}

function header(head: string, name: string): string | undefined {
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
}

function expectRefused(answer: RawAnswer, error: string, code: string): void {
  expect(header(answer.head, 'X-Error-Code')).toBe(code);
  expect(answer.head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
  expect(header(answer.head, 'Content-Type')).toBe('application/json; charset=utf-8');
  expect(header(answer.head, 'Connection')).toBe('close');
  expect(header(answer.head, 'X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(JSON.parse(answer.body)).toEqual({ error });
}

async function expectStillServing(): Promise<void> {
  expect((await request(running.url).get('/api/unknown')).status).toBe(404);
}

describe('requests refused by the HTTP parser', () => {
  beforeEach(() => start());

  test('a method that is not HTTP gets 400 with a JSON body, a request id and Connection: close', async () => {
    const answer = await raw('FETCH /api/auth HTTP/1.1\r\nHost: x\r\n\r\n');
    expectRefused(answer, 'the request method is not valid HTTP', 'IVR_MALFORMED_REQUEST');
    const logged = await logs.waitFor('request refused by the HTTP parser');
    expect(logged).toMatchObject({ level: 40, requestId: header(answer.head, 'X-Request-Id'), code: 'IVR_MALFORMED_REQUEST', parserCode: 'HPE_INVALID_METHOD' });
    await expectStillServing();
  });

  test('headers over the size limit get 400 naming the limit, not 431', async () => {
    expectRefused(await raw(`GET /api/auth HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`), 'the request headers are larger than 16384 bytes', 'IVR_HEADERS_TOO_LARGE');
    await expectStillServing();
  });

  test('a header line that is not HTTP gets 400 saying what the parser found', async () => {
    const answer = await raw('GET /api/auth HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(answer.head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/^the request is not valid HTTP: \S/) });
  });

  test.each(['/api/auth', '/survey', '/healthz'])('an HTTP/1.1 request without Host to %s gets 400 with a JSON body instead of an empty one', async (path) => {
    const answer = await raw(`GET ${path} HTTP/1.1\r\n\r\n`);
    expectRefused(answer, 'an HTTP/1.1 request must have a Host header', 'IVR_MISSING_HOST');
    const logged = await logs.waitFor('request refused: its head');
    expect(logged).toMatchObject({
      level: 40,
      requestId: header(answer.head, 'X-Request-Id'),
      code: 'IVR_MISSING_HOST',
      reason: 'an HTTP/1.1 request must have a Host header',
    });
    await expectStillServing();
  });

  test('an HTTP/1.0 request without Host is answered: the version does not require one', async () => {
    const answer = await raw('GET /healthz HTTP/1.0\r\n\r\n');
    expect(answer.head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
  });

  test('a request with more than 2,000 headers gets 400 saying so, where Node would drop the rest (Host among them)', async () => {
    // Short ones, so that 2,000 of them stay well under the 16 KiB of headers Node reads.
    const headers = (count: number) => 'a:1\r\n'.repeat(count);
    expectRefused(await raw(`GET /healthz HTTP/1.1\r\n${headers(2000)}Host: x\r\n\r\n`), 'the request has more than 2,000 headers', 'IVR_TOO_MANY_HEADERS');
    const answer = await raw(`GET /healthz HTTP/1.1\r\n${headers(1998)}Host: x\r\nConnection: close\r\n\r\n`);
    expect(answer.head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  });

  test('CONNECT gets 405 with Allow and a JSON body, where Node would close the connection without a word', async () => {
    const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(answer.head.split('\r\n')[0]).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(header(answer.head, 'Content-Type')).toBe('application/json; charset=utf-8');
    expect(header(answer.head, 'Allow')).toBe('GET, HEAD, POST, PUT, DELETE');
    expect(header(answer.head, 'Connection')).toBe('close');
    expect(header(answer.head, 'X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(header(answer.head, 'X-Error-Code')).toBe('IVR_METHOD_NOT_ALLOWED');
    expect(JSON.parse(answer.body)).toEqual({ error: 'CONNECT is not allowed: this server is not a proxy' });
    expect(await logs.waitFor('request refused: CONNECT')).toMatchObject({ code: 'IVR_METHOD_NOT_ALLOWED' });
    await expectStillServing();
  });

  test('an Expect other than 100-continue gets 400 with a JSON body instead of an empty 417', async () => {
    expectRefused(
      await raw('POST /api/auth HTTP/1.1\r\nHost: x\r\nExpect: tea\r\nContent-Length: 0\r\n\r\n'),
      'Expect: tea is not supported; send the request without it, or with Expect: 100-continue',
      'IVR_UNSUPPORTED_EXPECT',
    );
    await expectStillServing();
  });
});

describe('the idle timeout (REQUEST_IDLE_TIMEOUT_SECONDS)', () => {
  test('is the only bound on a request: headers and silence, never the total time of an upload', async () => {
    await start();
    expect([running.server.requestTimeout, running.server.headersTimeout, running.server.timeout]).toEqual([0, 1000, 1000]);
  });

  test('answers headers that stop arriving with 400 and closes the connection', async () => {
    await start();
    expectRefused(await raw('GET /api/events/20180201/20180201/day/ALL HTTP/1.1\r\nHost: x\r\n'), 'the request headers did not all arrive within 1 s', 'IVR_HEADERS_STALLED');
  });

  test('answers a form body that stops arriving with 400 and closes the connection, logging no error', async () => {
    await start();
    const answer = await raw(
      'POST /api/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ntool=dev',
    );
    expectRefused(answer, 'the request body stopped arriving: nothing came for 1 s', 'IVR_BODY_STALLED');
    expect(logs.lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    await expectStillServing();
  });

  test('answers a SOAP body that stops arriving with a soap:Client fault and closes the connection', async () => {
    await start();
    const answer = await raw('POST /survey HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 500\r\n\r\n<soap:Envelope');
    expect(answer.head.split('\r\n')[0]).toBe('HTTP/1.1 500 Internal Server Error');
    expect(header(answer.head, 'Connection')).toBe('close');
    expect(answer.body).toBe(faultBody('soap:Client', 'the request body stopped arriving: nothing came for 1 s'));
  });

  test('leaves alone a request whose body is in while the app works on it past the timeout', async () => {
    let release: () => void = () => undefined;
    const working = new Promise<void>((resolve) => (release = resolve));
    await start(async () => {
      await working;
      return { response: 'accepted', state: null };
    });
    // The handler answers only once the connection has been idle for the whole timeout.
    running.server.once('timeout', () => release());
    const reply = await post(running.url, svcEval(['Q1'], ['yes']));
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(responseBody('accepted'));
  });
});
