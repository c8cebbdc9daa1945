import request from 'supertest';
import { startTestServer, type TestServer } from '../../test/support/test-server';
import { faultBody, post, responseBody, sessionCookieOf, svcEval, svcEvalResponseOf } from '../../test/survey-clients/support';

let server: TestServer;

afterEach(() => server.close());

const yes = svcEval(['Agree?'], ['yes']);

describe('the per-address limit on svcEval calls (SURVEY_RATE_LIMIT)', () => {
  beforeEach(async () => {
    server = await startTestServer({ SURVEY_RATE_LIMIT: '2', RATE_LIMIT_WINDOW_SECONDS: '900', TRUST_PROXY: 'true' });
  });

  test('beyond the limit, a call gets 429 with Retry-After and a soap:Client fault', async () => {
    const first = await post(server.url, yes);
    expect(first.status).toBe(200);
    expect(first.get('X-RateLimit-Limit')).toBe('2');
    expect(first.get('X-RateLimit-Remaining')).toBe('1');
    expect((await post(server.url, yes)).get('X-RateLimit-Remaining')).toBe('0');
    const refused = await post(server.url, yes);
    expect(refused.status).toBe(429);
    expect(refused.get('Content-Type')).toBe('text/xml; charset=utf-8');
    expect(refused.get('Retry-After')).toBe('900');
    expect(refused.get('Set-Cookie')).toBeUndefined();
    expect(refused.text).toBe(faultBody('soap:Client', 'rate limit exceeded; retry after the time in Retry-After'));
  });

  test('the REST twin counts in the same group, and is refused with the API error body', async () => {
    await post(server.url, yes);
    await request(server.url).post('/survey/rest').type('form').send({ 'question_texts[]': 'Q', 'answers[]': 'yes' }).expect(200);
    const refused = await request(server.url).post('/survey/rest').type('form').send({ 'question_texts[]': 'Q', 'answers[]': 'yes' });
    expect(refused.status).toBe(429);
    expect(refused.get('Retry-After')).toBe('900');
    expect(refused.body).toEqual({ error: 'rate limit exceeded; retry after the time in Retry-After' });
  });

  test('each client address has its own count, and the WSDL is not counted', async () => {
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    await post(server.url, yes, from('192.0.2.1'));
    await post(server.url, yes, from('192.0.2.1'));
    expect((await post(server.url, yes, from('192.0.2.1'))).status).toBe(429);
    expect((await post(server.url, yes, from('192.0.2.2'))).status).toBe(200);
    const wsdl = await request(server.url).get('/survey?wsdl').set(from('192.0.2.1'));
    expect(wsdl.status).toBe(200);
    expect(wsdl.get('X-RateLimit-Limit')).toBeUndefined();
  });
});

describe('live sessions are capped (SURVEY_MAX_SESSIONS)', () => {
  test('beyond the cap, the longest idle survey is forgotten and its cookie starts a new one', async () => {
    server = await startTestServer({ SURVEY_MAX_SESSIONS: '2' });
    const surveys = [];
    for (let index = 0; index < 3; index += 1) {
      server.clock.advance(1000);
      surveys.push(sessionCookieOf(await post(server.url, yes)));
    }
    const [oldest, second, newest] = surveys;
    const answerWith = async (cookie: string | undefined) => svcEvalResponseOf((await post(server.url, yes, { Cookie: cookie ?? '' })).text);
    expect(await answerWith(newest)).toBe('accepted again');
    expect(await answerWith(second)).toBe('accepted again');
    expect(await answerWith(oldest)).toBe('accepted');
  });
});

describe('the session_id part names the survey', () => {
  beforeEach(async () => {
    server = await startTestServer();
  });

  const withSessionId = (answer: string, sessionId: string) => svcEval(['Agree?'], [answer], `<session_id>${sessionId}</session_id>`);

  test('calls with the same session_id continue one survey without a cookie', async () => {
    expect((await post(server.url, withSessionId('yes', 'respondent-1'))).text).toBe(responseBody('accepted'));
    expect((await post(server.url, withSessionId('yes', 'respondent-1'))).text).toBe(responseBody('accepted again'));
    expect((await post(server.url, withSessionId('yes', 'respondent-2'))).text).toBe(responseBody('accepted'));
  });

  test('the session_id wins over a cookie of another survey', async () => {
    const cookie = sessionCookieOf(await post(server.url, yes));
    expect((await post(server.url, withSessionId('yes', 'respondent-3'), { Cookie: cookie })).text).toBe(responseBody('accepted'));
    expect((await post(server.url, yes, { Cookie: cookie })).text).toBe(responseBody('accepted again'));
  });

  test('the SOAP call and its REST twin share a survey named by session_id', async () => {
    await post(server.url, withSessionId('yes', 'respondent-4'));
    const rest = await request(server.url).post('/survey/rest').type('form').send({ 'question_texts[]': 'Q', 'answers[]': 'yes', session_id: 'respondent-4' });
    expect(rest.text).toBe('accepted again');
  });
});
