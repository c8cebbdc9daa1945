import request from 'supertest';
import { composeApp } from '../composition-root';
import { loadConfig } from '../configuration';
import { createLogger } from '../logger';
import type { RunningServer } from '../listen';
import { createMemoryStore } from '../storage/memory/memory-store';
import { ADMIN_TOKEN, BEARER } from '../../test/support/admin';
import { FakeClock } from '../../test/support/fake-clock';
import { serve } from '../../test/support/http';
import { LogLines } from '../../test/support/log-lines';
import { HIDDEN, isSecretName, loggedUrl } from './access-log';

const SHOWN_HIDDEN = encodeURIComponent(HIDDEN);

describe('which query parameters carry a secret', () => {
  test.each([
    'password', 'passwd', 'pwd', 'token', 'access_token', 'refresh_token', 'id_token', 'api_key', 'apikey', 'API-KEY',
    'key', 'X-Api-Key', 'secret', 'client_secret', 'auth', 'authorization', 'Authorization', 'signature', 'X-Amz-Signature',
    'sig', 'url_sig', 'session', 'sessionid', 'cookie', 'credential', 'credentials', 'TOKEN', 'Password',
  ])('%s does', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  test.each(['phone', 'from', 'to', 'tool', 'login', 'service', 'after', 'design', 'signal', 'options', 'format'])('%s does not', (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});

describe('a URL as a log line shows it', () => {
  test('each secret hidden, every other parameter kept in its place, a repeated one each time', () => {
    expect(loggedUrl('/a/b?token=t1&phone=1&Access_Token=t2&token=t3&from=2024-01-01')).toBe(
      `/a/b?token=${SHOWN_HIDDEN}&phone=1&Access_Token=${SHOWN_HIDDEN}&token=${SHOWN_HIDDEN}&from=2024-01-01`,
    );
  });

  test('as it is without a secret or a query string', () => {
    expect(loggedUrl('/api/calls?phone=1&from=a%20b')).toBe('/api/calls?phone=1&from=a%20b');
    expect(loggedUrl('/api/calls')).toBe('/api/calls');
  });
});

describe('the access line', () => {
  let server: RunningServer;
  let logs: LogLines;

  beforeEach(async () => {
    logs = new LogLines();
    const app = composeApp(loadConfig({ ADMIN_TOKEN }), { store: createMemoryStore(), clock: new FakeClock(), logger: createLogger('info', logs) });
    server = await serve(app);
  });

  afterEach(() => server.close());

  test('hides every secret of the query string, in the URL and in the parsed query, and keeps the rest', async () => {
    const response = await request(server.url).get('/api/unknown?token=t-1&access_token=t-2&api_key=t-3&key=t-4&secret=t-5&phone=1');
    expect(response.status).toBe(404);
    const completed = await logs.waitFor('request completed');
    expect(completed.req).toMatchObject({
      url: `/api/unknown?token=${SHOWN_HIDDEN}&access_token=${SHOWN_HIDDEN}&api_key=${SHOWN_HIDDEN}&key=${SHOWN_HIDDEN}&secret=${SHOWN_HIDDEN}&phone=1`,
      query: { token: HIDDEN, access_token: HIDDEN, api_key: HIDDEN, key: HIDDEN, secret: HIDDEN, phone: '1' },
    });
    expect(JSON.stringify(logs.lines)).not.toMatch(/t-[1-5]/);
  });

  test('never shows the admin token, sent in the query string or in the Authorization header', async () => {
    const inQuery = await request(server.url).get(`/admin/survey/calls?token=${ADMIN_TOKEN}`);
    const inHeader = await request(server.url).get(`/admin/survey/calls?access_token=${ADMIN_TOKEN}`).set('Authorization', BEARER).set('Cookie', `session=${ADMIN_TOKEN}`);
    expect(inHeader.status).toBe(200);
    for (const response of [inQuery, inHeader]) {
      const id = response.headers['x-request-id'] as string;
      await logs.waitFor((line) => line.msg === 'request completed' && (line.req as { id: string }).id === id);
    }
    expect(JSON.stringify(logs.lines)).not.toContain(ADMIN_TOKEN);
  });
});
