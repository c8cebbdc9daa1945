import request from 'supertest';
import { composeApp } from '../composition-root';
import { loadConfig } from '../configuration';
import { createLogger } from '../logger';
import type { RunningServer } from '../listen';
import { createMemoryStore } from '../storage/memory/memory-store';
import type { Store } from '../storage/store';
import { authenticate } from '../../test/support/reporting';
import { FakeClock } from '../../test/support/fake-clock';
import { hangUpMidBody } from '../../test/support/hang-up';
import { serve } from '../../test/support/http';
import { addAccount } from '../../test/support/test-app';
import { LogLines } from '../../test/support/log-lines';

let server: RunningServer;
let logs: LogLines;
let store: Store;

beforeEach(async () => {
  logs = new LogLines();
  const memory = createMemoryStore();
  store = {
    ...memory,
    calls: {
      ...memory.calls,
      dailyTotals: () => Promise.reject(new Error('disk on fire at /var/lib/secret/path')),
    },
  };
  const app = composeApp(loadConfig({}), { store, clock: new FakeClock(), logger: createLogger('info', logs) });
  server = await serve(app);
  await addAccount(store, { phones: ['15550001'] });
});

afterEach(() => server.close());

describe('errors common to the reporting API', () => {
  test('returns 404 with an error body for an unknown path, its catalogue code in X-Error-Code and on the access line', async () => {
    const response = await request(server.url).get('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['x-error-code']).toBe('IVR_NOT_FOUND');
    expect(response.body).toEqual({ error: 'no resource at /api/nothing-here' });
    const id = response.headers['x-request-id'] as string;
    const completed = await logs.waitFor((line) => line.msg === 'request completed' && (line.req as { id: string }).id === id);
    expect(completed).toMatchObject({ level: 30, res: { statusCode: 404 }, code: 'IVR_NOT_FOUND' });
  });

  test('sends no X-Error-Code, and logs no code, with an answer that is not a refusal', async () => {
    const response = await request(server.url).get('/healthz');
    expect(response.status).toBe(200);
    expect(response.headers['x-error-code']).toBeUndefined();
  });

  test('returns 404 for an event path with a missing segment', async () => {
    const response = await request(server.url).get('/api/events/20180201/20180208/day').set('Accept', 'application/xml');
    expect(response.status).toBe(404);
    expect(response.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><result><error>no resource at /api/events/20180201/20180208/day</error></result>',
    );
  });

  test('returns 500 as unknown error and logs the cause with the request id, never sending it', async () => {
    const credentials = await authenticate(server.url);
    const response = await request(server.url)
      .get('/api/events/20180201/20180201/day/ALL')
      .auth(credentials.login, credentials.password);
    expect(response.status).toBe(500);
    expect(response.headers['x-error-code']).toBe('IVR_INTERNAL');
    expect(response.body).toEqual({ error: 'unknown error' });
    expect(response.text).not.toContain('disk on fire');
    const requestId = response.headers['x-request-id'] as string;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const logged = await logs.waitFor('unhandled error');
    expect(logged).toMatchObject({ level: 50, requestId, err: { message: 'disk on fire at /var/lib/secret/path' } });
    expect(JSON.stringify(logs.lines)).not.toContain(credentials.password);
    expect(JSON.stringify(logs.lines)).not.toContain(Buffer.from(`${credentials.login}:${credentials.password}`).toString('base64'));
  });

  test('never logs a tool password sent in the query string', async () => {
    const response = await request(server.url)
      .post('/api/auth?tool=dev&login=alice&password=Top%26Secret-123')
      .type('form')
      .send('');
    expect(response.status).toBe(401);
    const completed = await logs.waitFor('request completed');
    expect(completed.req).toMatchObject({
      url: '/api/auth?tool=dev&login=alice&password=%5BRedacted%5D',
      query: { tool: 'dev', login: 'alice', password: '[Redacted]' },
    });
    expect(JSON.stringify(logs.lines)).not.toMatch(/Top.{0,3}Secret/);
  });

  test('gives every response its own request id and logs the request with it', async () => {
    const first = await request(server.url).get('/api/unknown');
    const second = await request(server.url).get('/api/unknown');
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    for (const response of [first, second]) {
      const id = response.headers['x-request-id'] as string;
      const completed = await logs.waitFor((line) => line.msg === 'request completed' && (line.req as { id: string }).id === id);
      expect(completed).toMatchObject({ level: 30, res: { statusCode: 404 } });
    }
  });
});

describe('a client that hangs up', () => {
  test('is logged as a warning, not as an unhandled error, and the server goes on answering', async () => {
    await hangUpMidBody(server, 'POST /api/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"tool":');
    const warning = await logs.waitFor('the client closed the connection before the answer');
    expect(warning).toMatchObject({ level: 40 });
    expect(logs.lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
    expect((await request(server.url).get('/api/unknown')).status).toBe(404);
  });
});
