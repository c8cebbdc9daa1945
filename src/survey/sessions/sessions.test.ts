import request from 'supertest';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { post, responseBody, sessionCookieOf, svcEval, svcEvalResponseOf } from '../../../test/survey-clients/support';

const yes = svcEval(['Agree?'], ['yes']);
const SECOND = 1000;

let server: TestServer;

afterEach(() => server.close());

async function answer(cookie?: string): Promise<{ response: string; cookie: string }> {
  const reply = await post(server.url, yes, cookie === undefined ? {} : { Cookie: cookie });
  expect(reply.status).toBe(200);
  return { response: svcEvalResponseOf(reply.text), cookie: sessionCookieOf(reply) };
}

describe('the survey session cookie', () => {
  beforeEach(async () => {
    server = await startTestServer();
  });

  test('is 128 random bits in hex, HttpOnly, SameSite=Lax, limited to the service path, with no expiry', async () => {
    const reply = await post(server.url, yes);
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(responseBody('accepted'));
    expect(reply.get('Set-Cookie')).toEqual([expect.stringMatching(/^survey_session=[0-9a-f]{32}; Path=\/survey; HttpOnly; SameSite=Lax$/)]);
  });

  test('is Secure when the request came over https through a trusted proxy', async () => {
    await server.close();
    server = await startTestServer({ TRUST_PROXY: 'true' });
    const reply = await post(server.url, yes, { 'X-Forwarded-Proto': 'https' });
    expect(reply.get('Set-Cookie')).toEqual([expect.stringMatching(/^survey_session=[0-9a-f]{32}; Path=\/survey; HttpOnly; Secure; SameSite=Lax$/)]);
  });

  test('sent back, continues the survey under the same id', async () => {
    const first = await answer();
    const second = await answer(first.cookie);
    expect([first.response, second.response]).toEqual(['accepted', 'accepted again']);
    expect(second.cookie).toBe(first.cookie);
  });

  test('among other cookies, is still found', async () => {
    const first = await answer();
    expect((await answer(`theme=dark; ${first.cookie}; lang=en`)).response).toBe('accepted again');
  });

  test('as a quoted value, which the cookie syntax allows, is still found', async () => {
    const first = await answer();
    const id = first.cookie.slice('survey_session='.length);
    expect((await answer(`survey_session="${id}"`)).response).toBe('accepted again');
  });

  test.each([
    ['unknown to the server', `survey_session=${'0'.repeat(32)}`],
    ['not 32 hex digits', 'survey_session=../../etc/passwd'],
    ['a malformed escape', 'survey_session=%FF%'],
    ['an empty value', 'survey_session='],
  ])('%s, starts a new survey with a new id', async (_case, cookie) => {
    const reply = await answer(cookie);
    expect(reply.response).toBe('accepted');
    expect(reply.cookie).not.toBe(cookie);
    expect(reply.cookie).toMatch(/^survey_session=[0-9a-f]{32}$/);
  });
});

describe('idle expiry (SURVEY_SESSION_TTL_SECONDS, 3600 by default) on the injected clock', () => {
  test('a survey idle for less than the TTL continues; idle for the TTL, it is new', async () => {
    server = await startTestServer();
    const first = await answer();
    server.clock.advance(3600 * SECOND - 1);
    const second = await answer(first.cookie);
    expect(second).toEqual({ response: 'accepted again', cookie: first.cookie });

    server.clock.advance(3600 * SECOND);
    const third = await answer(first.cookie);
    expect(third.response).toBe('accepted');
    expect(third.cookie).not.toBe(first.cookie);
  });

  test('the TTL counts from the last call, so a survey in use never expires', async () => {
    server = await startTestServer({ SURVEY_SESSION_TTL_SECONDS: '60' });
    const first = await answer();
    for (let call = 0; call < 5; call += 1) {
      server.clock.advance(59 * SECOND);
      expect(await answer(first.cookie)).toEqual({ response: 'accepted again', cookie: first.cookie });
    }
    server.clock.advance(60 * SECOND);
    expect((await answer(first.cookie)).response).toBe('accepted');
  });

  test('a call that faults does not refresh the session', async () => {
    server = await startTestServer({ SURVEY_SESSION_TTL_SECONDS: '60' });
    const first = await answer();
    server.clock.advance(30 * SECOND);
    const faulted = await post(server.url, svcEval(['Q1', 'Q2'], ['yes']), { Cookie: first.cookie });
    expect(faulted.status).toBe(500);
    expect(faulted.get('Set-Cookie')).toBeUndefined();
    server.clock.advance(30 * SECOND);
    expect((await answer(first.cookie)).response).toBe('accepted');
  });
});

test('the survey service and the reporting API answer on the same server', async () => {
  server = await startTestServer();
  expect((await post(server.url, yes)).status).toBe(200);
  const reporting = await request(server.url).get('/api/nothing-here');
  expect(reporting.status).toBe(404);
  expect(reporting.body).toEqual({ error: 'no resource at /api/nothing-here' });
});
