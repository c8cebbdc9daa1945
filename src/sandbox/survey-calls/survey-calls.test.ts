import request from 'supertest';
import { admin, startAdminServer, type AdminServer } from '../../../test/support/admin';
import { plumEval, post, sessionCookieOf, svcEval } from '../../../test/survey-clients/support';
import { serve } from '../../../test/support/http';
import { buildTestApp } from '../../../test/support/test-app';
import { callInspector, CallRing } from './inspector';
import { shownAnswer, shownText } from './call-entry';

// The fake clock's start (test/support/fake-clock.ts).
const START = '2018-02-07T15:00:00.000Z';

/** A WAV file's header and then silence: 2,048 bytes. */
const WAV = Buffer.concat([Buffer.from('RIFF\x00\x08\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(2048 - 16)]);
const WAV_BASE64 = WAV.toString('base64');
const WAV_FIRST_BYTES = WAV.subarray(0, 16).toString('hex');

let running: AdminServer | undefined;

afterEach(async () => {
  await running?.server.close();
  running = undefined;
});

async function start(env: NodeJS.ProcessEnv = {}): Promise<AdminServer> {
  running = await startAdminServer(env);
  return running;
}

const calls = (url: string, query = '') => admin(url).get(`/admin/survey/calls${query}`);

function restForm(questionTexts: readonly string[], answers: readonly string[]): FormData {
  const form = new FormData();
  for (const text of questionTexts) form.append('question_texts[]', text);
  for (const answer of answers) form.append('answers[]', answer);
  return form;
}

describe('the ring', () => {
  test('keeps the last entries up to its capacity, newest first, each numbered; a new one takes the oldest one\'s place', () => {
    const ring = new CallRing<{ seq: number; name: string }>(3);
    expect(ring.newestFirst()).toEqual([]);
    for (const name of ['a', 'b']) ring.add((seq) => ({ seq, name }));
    expect(ring.newestFirst()).toEqual([{ seq: 2, name: 'b' }, { seq: 1, name: 'a' }]);
    for (const name of ['c', 'd', 'e']) ring.add((seq) => ({ seq, name }));
    expect(ring.newestFirst().map(({ name }) => name)).toEqual(['e', 'd', 'c']);
    expect(ring.newestFirst(3).map(({ seq }) => seq)).toEqual([5, 4]);
    expect(ring.newestFirst(5)).toEqual([]);
  });

  test('tells its listeners of each entry until they unsubscribe; a failing listener is dropped, the others still told', () => {
    const ring = new CallRing<{ seq: number }>(2);
    const heard: number[] = [];
    const unsubscribe = ring.subscribe(({ seq }) => heard.push(seq));
    ring.subscribe(() => {
      throw new Error('gone');
    });
    ring.add((seq) => ({ seq }));
    ring.add((seq) => ({ seq }));
    unsubscribe();
    ring.add((seq) => ({ seq }));
    expect(heard).toEqual([1, 2]);
  });

  test('holds at least one entry', () => {
    expect(() => callInspector(0)).toThrow(RangeError);
  });
});

describe('what an entry keeps of a text', () => {
  test('a text up to 1,000 characters whole, a longer one cut with its length', () => {
    expect(shownText('x'.repeat(1000))).toBe('x'.repeat(1000));
    expect(shownText('x'.repeat(1001))).toEqual({ text: 'x'.repeat(1000), length: 1001, truncated: true });
    // Never half of a surrogate pair.
    expect(shownText(`${'x'.repeat(999)}😀`)).toEqual({ text: 'x'.repeat(999), length: 1001, truncated: true });
  });

  test('a recording as Base64 text by its size, type and first bytes, with line breaks or without', () => {
    expect(shownAnswer(WAV_BASE64)).toEqual({ recording: { size: 2048, type: 'audio/wav', first_bytes: WAV_FIRST_BYTES } });
    const wrapped = WAV_BASE64.replace(/(.{76})/g, '$1\r\n');
    expect(shownAnswer(wrapped)).toEqual({ recording: { size: 2048, type: 'audio/wav', first_bytes: WAV_FIRST_BYTES } });
    const unknown = Buffer.alloc(300, 7);
    expect(shownAnswer(unknown.toString('base64'))).toEqual({ recording: { size: 300, first_bytes: unknown.subarray(0, 16).toString('hex') } });
    expect(shownAnswer('yes')).toBe('yes');
  });

  test('Base64 padded with = and followed by a line break is a recording; an = inside it, or text that is only spaces, is not', () => {
    const padded = Buffer.alloc(299, 7).toString('base64');
    expect(padded.endsWith('=')).toBe(true);
    expect(shownAnswer(`${padded}\r\n`)).toEqual({ recording: { size: 299, first_bytes: '07'.repeat(16) } });
    const equalsInside = `${padded.slice(0, 100)}=${padded.slice(100)}`;
    expect(shownAnswer(equalsInside)).toBe(equalsInside);
    expect(shownAnswer(' '.repeat(200))).toEqual(' '.repeat(200));
  });

  test('an answer of 10 Mi characters, Base64 or not, is shown without a stack overflow (a pattern anchored at both ends overflowed)', () => {
    const letters = 'A'.repeat(10 * 1024 * 1024);
    expect(shownAnswer(letters)).toEqual({ recording: { size: 7_864_320, first_bytes: '00'.repeat(16) } });
    expect(shownAnswer(`${letters}!`)).toEqual({ text: 'A'.repeat(1000), length: 10 * 1024 * 1024 + 1, truncated: true });
  });
});

describe('GET /admin/survey/calls', () => {
  test('shows a svcEval call, its session and its answer, newest first after a plumEval call', async () => {
    const { url } = await start();
    const first = await post(url, svcEval(['Agree?', 'Your message'], ['yes', WAV_BASE64]));
    expect(first.status).toBe(200);
    const cookie = sessionCookieOf(first);
    const session = cookie.split('=')[1];
    const second = await post(url, plumEval(['Agree?'], ['no'], { ani_ip: '192.0.2.1', dnis: '18005550100' }), { Cookie: cookie }, '/survey/plum');
    expect(second.status).toBe(200);
    const response = await calls(url);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({
      capacity: 200,
      calls: [
        {
          seq: 2,
          at: START,
          service: 'survey',
          path: '/survey/plum',
          flavour: 'plumEval',
          // The cookie sent continued the survey, on the other service.
          session,
          parts: { question_texts: ['Agree?'], answers: ['no'], ani_ip: '192.0.2.1', dnis: '18005550100', session_id: null, files: [] },
          outcome: { answer: 'rejected' },
          handler_ms: expect.any(Number) as unknown,
        },
        {
          seq: 1,
          at: START,
          service: 'survey',
          path: '/survey',
          flavour: 'svcEval',
          session,
          parts: {
            question_texts: ['Agree?', 'Your message'],
            answers: ['yes', { recording: { size: 2048, type: 'audio/wav', first_bytes: WAV_FIRST_BYTES } }],
            ani_ip: null,
            dnis: null,
            session_id: null,
            files: [],
          },
          outcome: { answer: 'accepted' },
          handler_ms: expect.any(Number) as unknown,
        },
      ],
    });
    expect(JSON.stringify(response.body)).not.toContain(WAV_BASE64.slice(0, 100));
  });

  test('shows a REST call with its file parts by name, type, size and first bytes', async () => {
    const { url } = await start();
    const form = restForm(['Agree?', 'Your message'], ['yes', 'file-1.wav']);
    form.append('recording', new Blob([WAV], { type: 'audio/wav' }), 'file-1.wav');
    const answered = await fetch(`${url}/survey/rest`, { method: 'POST', body: form });
    expect(await answered.text()).toBe('accepted');
    const session = (answered.headers.get('set-cookie') ?? '').split(';')[0]?.split('=')[1];
    expect((await calls(url)).body).toEqual({
      capacity: 200,
      calls: [
        {
          seq: 1,
          at: START,
          service: 'survey',
          path: '/survey/rest',
          flavour: 'rest',
          session,
          parts: {
            question_texts: ['Agree?', 'Your message'],
            answers: ['yes', 'file-1.wav'],
            ani_ip: null,
            dnis: null,
            session_id: null,
            files: [{ name: 'file-1.wav', content_type: 'audio/wav', size: 2048, first_bytes: WAV_FIRST_BYTES }],
          },
          outcome: { answer: 'accepted' },
          handler_ms: expect.any(Number) as unknown,
        },
      ],
    });
  });

  test('shows a fault with the session cookie sent: a call whose parts break a rule, and one a scenario forced', async () => {
    const cookieSession = '0123456789abcdef0123456789abcdef';
    const { url } = await start();
    expect((await post(url, svcEval(['A?', 'B?'], ['yes']))).status).toBe(500);
    const scenario = await admin(url).post('/admin/scenarios').send({ target: 'survey', status: 500, fault_string: 'forced', times: 1 });
    expect(scenario.status).toBe(201);
    const forced = await fetch(`${url}/survey/rest`, { method: 'POST', body: restForm(['Agree?'], ['yes']), headers: { Cookie: `survey_session=${cookieSession}` } });
    expect(forced.status).toBe(500);
    const { body } = await calls(url);
    expect(body).toMatchObject({
      calls: [
        {
          seq: 2,
          flavour: 'rest',
          session: cookieSession,
          outcome: { fault: { code: 'IVR_SURVEY_HANDLER_FAILED', message: 'forced' } },
          handler_ms: null,
        },
        {
          seq: 1,
          flavour: 'svcEval',
          session: null,
          parts: { question_texts: ['A?', 'B?'], answers: ['yes'] },
          outcome: {
            fault: {
              code: 'IVR_INVALID_SURVEY_CALL',
              message: 'question_texts has 2 items but answers has 1 item; answers[i] must be the answer to question_texts[i]',
            },
          },
        },
      ],
    });
  });

  test('keeps no call refused before it was read', async () => {
    const { url } = await start();
    expect((await post(url, '<not xml')).status).toBe(500);
    expect((await calls(url)).body).toEqual({ capacity: 200, calls: [] });
  });

  test('filters by session, and gives only the calls after a seq', async () => {
    const { url } = await start();
    const first = await post(url, svcEval(['Agree?'], ['yes']));
    const cookie = sessionCookieOf(first);
    await post(url, svcEval(['Agree?'], ['no']));
    await post(url, svcEval(['Agree?'], ['yes']), { Cookie: cookie });
    const session = cookie.split('=')[1] ?? '';
    const mine = await calls(url, `?session=${session}`);
    expect((mine.body as { calls: { seq: number; session: string }[] }).calls.map(({ seq }) => seq)).toEqual([3, 1]);
    const after = await calls(url, '?after=1');
    expect((after.body as { calls: { seq: number }[] }).calls.map(({ seq }) => seq)).toEqual([3, 2]);
    const both = await calls(url, `?after=1&session=${session}`);
    expect((both.body as { calls: { seq: number }[] }).calls.map(({ seq }) => seq)).toEqual([3]);
    expect((await calls(url, '?after=3')).body).toEqual({ capacity: 200, calls: [] });
  });

  test('keeps only the last SURVEY_INSPECT_CALLS calls', async () => {
    const { url } = await start({ SURVEY_INSPECT_CALLS: '2' });
    for (let call = 0; call < 3; call += 1) await post(url, svcEval(['Agree?'], ['yes']));
    const { body } = await calls(url);
    expect((body as { capacity: number; calls: { seq: number }[] }).calls.map(({ seq }) => seq)).toEqual([3, 2]);
  });

  test('keeps nothing with SURVEY_INSPECT_CALLS=0', async () => {
    const { url } = await start({ SURVEY_INSPECT_CALLS: '0' });
    expect((await post(url, svcEval(['Agree?'], ['yes']))).status).toBe(200);
    expect((await calls(url)).body).toEqual({ capacity: 0, calls: [] });
  });

  test.each([
    ['?after=-1', 'after: must be a whole number (a seq)'],
    ['?after=x', 'after: must be a whole number (a seq)'],
    ['?session=a%20b', 'session: must be a session id: 1 to 128 letters, digits, _ or -'],
  ])('refuses %s with 400', async (query, message) => {
    const { url } = await start();
    const response = await calls(url, query);
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_INVALID_PARAMETER');
    expect(response.body).toEqual({ error: message });
  });

  test('is behind the admin token, and answers 405 with Allow to another method', async () => {
    const { url } = await start();
    expect((await request(url).get('/admin/survey/calls')).status).toBe(401);
    const response = await admin(url).post('/admin/survey/calls');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  test('does not exist without ADMIN_TOKEN, and then no call is kept', async () => {
    const testApp = buildTestApp({});
    const server = await serve(testApp.app);
    try {
      expect((await post(server.url, svcEval(['Agree?'], ['yes']))).status).toBe(200);
      expect((await request(server.url).get('/admin/survey/calls')).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

/** Reads a stream of server-sent events until `until` holds of what came; never waits on a timer. */
async function readEvents(body: ReadableStream<Uint8Array>, until: (text: string) => boolean): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

function eventsIn(text: string): { id: string; data: { seq: number; outcome: unknown } }[] {
  return [...text.matchAll(/event: call\nid: (\d+)\ndata: (.*)\n\n/g)].map(([, id, data]) => ({ id: id ?? '', data: JSON.parse(data ?? '') as { seq: number; outcome: unknown } }));
}

describe('GET /admin/survey/calls/stream', () => {
  const open = (url: string, signal: AbortSignal, headers: Record<string, string> = {}) =>
    fetch(`${url}/admin/survey/calls/stream`, { headers: { Authorization: `Bearer test-admin-token-0123456789`, ...headers }, signal });

  test('sends each call as it comes, as an event numbered by its seq', async () => {
    const { url } = await start();
    const controller = new AbortController();
    try {
      const stream = await open(url, controller.signal);
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const body = stream.body as ReadableStream<Uint8Array>;
      // The stream is open (its first comment came) before the call is made.
      await readEvents(body, (text) => text.includes('\n\n'));
      expect((await post(url, svcEval(['Agree?'], ['yes']))).status).toBe(200);
      const events = eventsIn(await readEvents(body, (text) => eventsIn(text).length >= 1));
      expect(events).toEqual([{ id: '1', data: expect.objectContaining({ seq: 1, outcome: { answer: 'accepted' } }) as unknown }]);
    } finally {
      controller.abort();
    }
  });

  test('first sends the calls kept after Last-Event-ID, oldest first', async () => {
    const { url } = await start();
    for (const answer of ['yes', 'no', 'yes']) await post(url, svcEval(['Agree?'], [answer]));
    const controller = new AbortController();
    try {
      const stream = await open(url, controller.signal, { 'Last-Event-ID': '1' });
      const events = eventsIn(await readEvents(stream.body as ReadableStream<Uint8Array>, (text) => eventsIn(text).length >= 2));
      expect(events.map(({ id }) => id)).toEqual(['2', '3']);
    } finally {
      controller.abort();
    }
  });

  test('refuses a Last-Event-ID that is not a seq with 400', async () => {
    const { url } = await start();
    const response = await admin(url).get('/admin/survey/calls/stream').set('Last-Event-ID', 'x');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Last-Event-ID: must be a whole number (a seq)' });
  });

  test('refuses one stream more than the most at once with 503 and Retry-After', async () => {
    const { url } = await start();
    const controller = new AbortController();
    try {
      const streams = await Promise.all(Array.from({ length: 10 }, () => open(url, controller.signal)));
      expect(streams.map(({ status }) => status)).toEqual(Array.from({ length: 10 }, () => 200));
      const refused = await admin(url).get('/admin/survey/calls/stream');
      expect(refused.status).toBe(503);
      expect(refused.headers['x-error-code']).toBe('IVR_TOO_MANY_STREAMS');
      expect(refused.headers['retry-after']).toBe('5');
    } finally {
      controller.abort();
    }
  });
});
