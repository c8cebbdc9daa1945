// The answers no ivr-reporting server gives but a proxy or another server may: the real server's are
// covered by client.test.ts.
import { createClient } from './client';
import { ApiError, errorOfAnswer, RateLimitedError, ServerError, type ErrorAnswer } from './errors';

const NOW = Date.parse('2018-02-07T15:00:00.000Z');
const URL_OF_REPORT = 'http://127.0.0.1:9/api/volume/20180206/20180207/day/ALL';

function answer(status: number, headers: Record<string, string>, body = ''): ErrorAnswer {
  return { status, statusText: '', headers: new Headers(headers), body, url: URL_OF_REPORT };
}

describe('errorOfAnswer', () => {
  test('reads the message out of an XML error body, its entities decoded', () => {
    const body = '<?xml version="1.0"?><result><error>a &lt;b&gt; &amp; &#x27;c&#39; &quot;d&quot;</error></result>';
    const error = errorOfAnswer(answer(400, { 'Content-Type': 'application/xml; charset=utf-8' }, body), NOW);
    expect(error.message).toBe(`a <b> & 'c' "d"`);
  });

  test("an error body that is not the server's is told by its status, with no code", () => {
    const error = errorOfAnswer({ ...answer(502, { 'Content-Type': 'text/html' }, '<html>bad gateway</html>'), statusText: 'Bad Gateway' }, NOW);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, message: '502 Bad Gateway', code: undefined, requestId: undefined, retryAfterSeconds: undefined });
  });

  test('a 429 without Retry-After takes its wait from X-RateLimit-Reset', () => {
    const error = errorOfAnswer(answer(429, { 'X-RateLimit-Reset': String(NOW / 1000 + 90) }), NOW);
    expect(error).toMatchObject({ retryAfterSeconds: 90, resetAt: new Date(NOW + 90_000) });
  });

  test.each([
    ['seconds', '120'],
    ['an HTTP date', 'Wed, 07 Feb 2018 15:02:00 GMT'],
  ])('a 429 without X-RateLimit-Reset takes its reset time from Retry-After in %s', (_form, retryAfter) => {
    const error = errorOfAnswer(answer(429, { 'Retry-After': retryAfter }), NOW);
    expect(error).toMatchObject({ retryAfterSeconds: 120, resetAt: new Date(NOW + 120_000) });
  });

  test('a 404 is an ApiError of its status', () => {
    const headers = { 'Content-Type': 'application/json', 'X-Error-Code': 'IVR_NOT_FOUND' };
    const error = errorOfAnswer(answer(404, headers, '{"error":"no resource at /api/x"}'), NOW);
    expect(error.constructor).toBe(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'IVR_NOT_FOUND', message: 'no resource at /api/x' });
  });
});

describe('waiting on a 429 the server did not time', () => {
  const SECRET = '0123456789abcdef0123456789abcdef';

  /** A server that issues credentials, then answers the data requests with `answers`, in turn. */
  function serverAnswering(...answers: Response[]): typeof fetch {
    const pending = [new Response(JSON.stringify({ login: SECRET, password: SECRET }), { status: 200 }), ...answers];
    return () => Promise.resolve(pending.shift() ?? new Response('no more answers', { status: 599 }));
  }

  const options = { baseUrl: 'http://127.0.0.1:9', tool: 'dev', login: 'alice', password: 'secret-password', maxRateLimitWaitMs: 60_000 } as const;

  test('a 429 saying neither Retry-After nor X-RateLimit-Reset is thrown at once, whatever the bound', async () => {
    const slept: number[] = [];
    const client = createClient({
      ...options,
      fetch: serverAnswering(new Response('{"error":"too many connections"}', { status: 429, headers: { 'Content-Type': 'application/json' } })),
      sleep: (ms) => Promise.resolve(void slept.push(ms)),
    });
    const error = await client.volume({ start: '20180206', end: '20180207', period: 'day' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ message: 'too many connections', retryAfterSeconds: undefined, resetAt: undefined });
    expect(slept).toEqual([]);
  });

  test('Retry-After: 0 is waited as one second, so a server saying 0 is not asked in a loop', async () => {
    const slept: number[] = [];
    const client = createClient({
      ...options,
      fetch: serverAnswering(new Response('', { status: 429, headers: { 'Retry-After': '0' } }), new Response('{"calls":{}}', { status: 200 })),
      sleep: (ms) => Promise.resolve(void slept.push(ms)),
    });
    expect(await client.callerProfile({ start: '20180206', end: '20180207', period: 'day' })).toEqual({ calls: {} });
    expect(slept).toEqual([1000]);
  });
});
