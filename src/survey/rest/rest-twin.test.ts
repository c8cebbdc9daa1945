import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { SurveyCall, SurveyEvaluation } from '../../domain/survey-handler';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

/*
 * The REST twin of svcEval, called with Node's fetch and FormData: a real multipart/form-data client
 * (undici), writing boundaries, file parts and headers as browsers and HTTP libraries do.
 */

let server: TestServer;
let handlerCalls: SurveyCall[];

afterEach(() => server.close());

function recordingHandler(call: SurveyCall): SurveyEvaluation {
  handlerCalls.push(call);
  return { response: call.answers.includes('yes') ? 'accepted' : 'rejected', state: null };
}

async function startServer(env: NodeJS.ProcessEnv = {}, surveyHandler: (call: SurveyCall) => SurveyEvaluation = recordingHandler): Promise<void> {
  handlerCalls = [];
  server = await startTestServer(env, { surveyHandler });
}

function form(questionTexts: readonly string[], answers: readonly string[], extra: Record<string, string> = {}): FormData {
  const body = new FormData();
  for (const text of questionTexts) body.append('question_texts[]', text);
  for (const answer of answers) body.append('answers[]', answer);
  for (const [name, value] of Object.entries(extra)) body.append(name, value);
  return body;
}

const postForm = (body: FormData | string | Uint8Array, headers: Record<string, string> = {}, path = '/survey/rest') =>
  fetch(`${server.url}${path}`, { method: 'POST', body, headers });

async function expectError(response: Response, status: number, code: string, error: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('x-error-code')).toBe(code);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await response.json()).toEqual({ error });
  expect(handlerCalls).toEqual([]);
}

describe('the state table of specification.md §3.2, through the REST twin', () => {
  beforeEach(async () => {
    server = await startTestServer();
  });

  test('answers with the handler\'s string as a text/plain 200 and continues the survey its cookie names', async () => {
    const first = await postForm(form(['Agree?'], ['yes']));
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await first.text()).toBe('accepted');
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^survey_session=[0-9a-f]{32}; Path=\/survey\/rest; HttpOnly; SameSite=Lax$/);
    const sessionCookie = cookie.split(';')[0] ?? '';
    expect(await (await postForm(form(['Agree?'], ['no']), { Cookie: sessionCookie })).text()).toBe('rejected');
    expect(await (await postForm(form(['Agree?'], ['yes']), { Cookie: sessionCookie })).text()).toBe('accepted again');
    expect(await (await postForm(form(['Agree?'], ['yes']))).text()).toBe('accepted');
  });

  test('takes a urlencoded form as well', async () => {
    const body = new URLSearchParams([['question_texts[]', 'Q1'], ['question_texts[]', 'Q2'], ['answers[]', 'no'], ['answers[]', 'yes']]);
    const response = await fetch(`${server.url}/survey/rest`, { method: 'POST', body });
    expect(await response.text()).toBe('accepted');
  });
});

describe('what reaches the handler', () => {
  test('the arrays in order, the optional fields, and each recording as a file named by its answer', async () => {
    await startServer();
    const recording = randomBytes(300_000);
    const body = form(['Your name', 'Record a message', 'Agree?'], ['Ada', 'file-1.wav', 'yes'], { ani_ip: '192.0.2.7', dnis: '15550100', session_id: 's-1' });
    body.append('file-1.wav', new Blob([recording], { type: 'audio/wav' }), 'file-1.wav');
    const response = await postForm(body);
    expect(await response.text()).toBe('accepted');
    const [call] = handlerCalls;
    // Compared apart: deep equality walks a Buffer byte by byte.
    expect(call?.files?.[0]?.data.equals(recording)).toBe(true);
    expect({ ...call, files: call?.files?.map(({ name, contentType }) => ({ name, contentType })) }).toEqual({
      questionTexts: ['Your name', 'Record a message', 'Agree?'],
      answers: ['Ada', 'file-1.wav', 'yes'],
      aniIp: '192.0.2.7',
      dnis: '15550100',
      sessionId: 's-1',
      files: [{ name: 'file-1.wav', contentType: 'audio/wav' }],
      state: undefined,
    });
  });

  test('large forms, several at once, each whole: their last pieces wait their turn of the event loop, and lose nothing', async () => {
    await startServer();
    const recordings = [randomBytes(2_000_000), randomBytes(3_000_000), randomBytes(1_500_000)];
    const responses = await Promise.all(
      recordings.map((recording, index) => {
        const body = form(['Your comments', 'Record a message'], ['c'.repeat(1_200_000 + index), 'message.wav']);
        body.append('recording', new Blob([recording], { type: 'audio/wav' }), 'message.wav');
        return postForm(body);
      }),
    );
    expect(await Promise.all(responses.map((response) => response.text()))).toEqual(['rejected', 'rejected', 'rejected']);
    const received = handlerCalls.map((call) => ({ comment: call.answers[0]?.length, recording: call.files?.[0]?.data.length })).sort((a, b) => (a.comment ?? 0) - (b.comment ?? 0));
    expect(received).toEqual(recordings.map((recording, index) => ({ comment: 1_200_000 + index, recording: recording.length })));
  });

  test('indexed fields, name[0], name[1], ..., in the order of their indexes whatever the order of the fields', async () => {
    await startServer();
    const body = new FormData();
    for (const [name, value] of [['question_texts[1]', 'Q2'], ['answers[10]', 'c'], ['question_texts[0]', 'Q1'], ['answers[1]', 'b'], ['question_texts[10]', 'Q3'], ['answers[0]', 'yes']]) {
      body.append(name as string, value);
    }
    expect(await (await postForm(body)).text()).toBe('accepted');
    expect(handlerCalls.map(({ questionTexts, answers }) => ({ questionTexts, answers }))).toEqual([
      { questionTexts: ['Q1', 'Q2', 'Q3'], answers: ['yes', 'b', 'c'] },
    ]);
  });

  test('a urlencoded form\'s UTF-8 is read whether its bytes are escaped or not, as `curl -d` sends them raw', async () => {
    await startServer();
    const response = await postForm('question_texts[]=Caf%C3%A9%3F&answers[]=café+crème&question_texts[]=😀&answers[]=yes', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(await response.text()).toBe('accepted');
    expect(handlerCalls).toEqual([{ questionTexts: ['Café?', '😀'], answers: ['café crème', 'yes'], files: [], state: undefined }]);
  });

  test('a page with no question sends no array at all: both are empty', async () => {
    await startServer();
    const response = await postForm(new URLSearchParams([['session_id', 's-1']]).toString(), { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(await response.text()).toBe('rejected');
    expect(handlerCalls).toEqual([{ questionTexts: [], answers: [], sessionId: 's-1', files: [], state: undefined }]);
  });

  test('every recording, whether an answer names it or not, under its file name or else its field name', async () => {
    await startServer();
    const body = form(['Record a message'], ['file-1.wav']);
    body.append('file-1.wav', new Blob([Buffer.from('RIFF1')], { type: 'audio/wav' }), 'file-1.wav');
    body.append('file-2.wav', new Blob([Buffer.from('RIFF2')], { type: 'audio/wav' }), 'file-2.wav');
    const raw = `--b\r\nContent-Disposition: form-data; name="answers[]"\r\n\r\nyes\r\n` +
      '--b\r\nContent-Disposition: form-data; name="file-3.wav"\r\nContent-Type: application/octet-stream\r\n\r\nRIFF3\r\n--b--\r\n';
    expect((await postForm(body)).status).toBe(200);
    expect((await postForm(raw, { 'Content-Type': 'multipart/form-data; boundary=b' })).status).toBe(400);
    const rawWithQuestion = `--b\r\nContent-Disposition: form-data; name="question_texts[]"\r\n\r\nQ\r\n${raw}`;
    expect((await postForm(rawWithQuestion, { 'Content-Type': 'multipart/form-data; boundary=b' })).status).toBe(200);
    expect(handlerCalls.map(({ files }) => files?.map(({ name, contentType, data }) => ({ name, contentType, data: data.toString() })))).toEqual([
      [
        { name: 'file-1.wav', contentType: 'audio/wav', data: 'RIFF1' },
        { name: 'file-2.wav', contentType: 'audio/wav', data: 'RIFF2' },
      ],
      [{ name: 'file-3.wav', contentType: 'application/octet-stream', data: 'RIFF3' }],
    ]);
  });

  test('a field whose name is empty is left alone, like any field the form does not define', async () => {
    await startServer();
    const body = '--b\r\nContent-Disposition: form-data; name=""\r\n\r\nx\r\n' +
      '--b\r\nContent-Disposition: form-data; name="question_texts[]"\r\n\r\nQ\r\n' +
      '--b\r\nContent-Disposition: form-data; name="answers[]"\r\n\r\nyes\r\n--b--\r\n';
    const response = await postForm(body, { 'Content-Type': 'multipart/form-data; boundary=b' });
    expect(await response.text()).toBe('accepted');
  });

  test('fields the form does not define are left alone however many there are, as the reference\'s sample ignores them', async () => {
    await startServer({ SURVEY_MAX_ITEMS: '2' });
    const extra = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`survey_field_${index}`, 'x']));
    const response = await postForm(form(['Q1', 'Q2'], ['no', 'yes'], extra));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('accepted');
  });

  test('a gzip-compressed form is read like any other', async () => {
    await startServer();
    const body = 'question_texts%5B%5D=Q&answers%5B%5D=yes';
    const response = await postForm(gzipSync(body), { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'gzip' });
    expect(await response.text()).toBe('accepted');
  });
});

describe('a call the twin refuses gets a non-2xx status and the API error body, which the survey stores as a fault', () => {
  test('arrays of different lengths', async () => {
    await startServer();
    await expectError(await postForm(form(['Q1', 'Q2'], ['yes'])), 400, 'IVR_INVALID_SURVEY_CALL', 'question_texts has 2 items but answers has 1 item; answers[i] must be the answer to question_texts[i]');
  });

  test('an absent array with items in the other: an absent array is an empty one', async () => {
    await startServer();
    await expectError(await postForm(form([], ['yes'])), 400, 'IVR_INVALID_SURVEY_CALL', 'question_texts has 0 items but answers has 1 item; answers[i] must be the answer to question_texts[i]');
  });

  test('items named both name[] and name[N]', async () => {
    await startServer();
    const body = new URLSearchParams([['question_texts[0]', 'Q1'], ['question_texts[]', 'Q2'], ['answers[0]', 'a'], ['answers[1]', 'b']]);
    await expectError(await postForm(body.toString(), { 'Content-Type': 'application/x-www-form-urlencoded' }), 400,
      'IVR_INVALID_FORM',
      'the form names items of question_texts both as question_texts[] and as question_texts[N]; use one of the two');
  });

  test('one index twice', async () => {
    await startServer();
    const body = new URLSearchParams([['question_texts[0]', 'Q1'], ['answers[0]', 'a'], ['answers[0]', 'b']]);
    await expectError(await postForm(body.toString(), { 'Content-Type': 'application/x-www-form-urlencoded' }), 400, 'IVR_INVALID_FORM', 'the form holds the field answers[0] twice');
  });

  test.each(['answers[x]', 'answers[01]', 'answers[1234567890]', 'answers[0][1]'])('an array field whose brackets hold no index: %s', async (field) => {
    await startServer();
    const body = new URLSearchParams([['question_texts[]', 'Q1'], ['answers[]', 'yes'], [field, 'b']]);
    await expectError(await postForm(body.toString(), { 'Content-Type': 'application/x-www-form-urlencoded' }), 400,
      'IVR_INVALID_FORM',
      `the field ${field} is not an item of answers; name items answers[] or answers[0], answers[1], ...`);
  });

  test('an optional field sent twice', async () => {
    await startServer();
    const body = form(['Q'], ['yes'], { session_id: 'one' });
    body.append('session_id', 'two');
    await expectError(await postForm(body), 400, 'IVR_INVALID_FORM', 'the form holds more than one session_id field');
  });

  test('more items than SURVEY_MAX_ITEMS', async () => {
    await startServer({ SURVEY_MAX_ITEMS: '2' });
    await expectError(await postForm(form(['1', '2', '3'], ['1', '2', '3'])), 400, 'IVR_SURVEY_LIMIT_EXCEEDED', 'the number of items of question_texts exceeds the limit of 2 (SURVEY_MAX_ITEMS)');
  });

  test('a field longer than SURVEY_MAX_TEXT_LENGTH', async () => {
    await startServer({ SURVEY_MAX_TEXT_LENGTH: '5' });
    await expectError(await postForm(form(['Q'], ['yes, sure'])), 400, 'IVR_SURVEY_LIMIT_EXCEEDED', 'the text of the field answers[] exceeds the limit of 5 (SURVEY_MAX_TEXT_LENGTH)');
  });

  test('a body larger than SOAP_MAX_BYTES', async () => {
    await startServer({ SOAP_MAX_BYTES: '1000' });
    await expectError(await postForm(form(['Q'], ['x'.repeat(2000)])), 413, 'IVR_PAYLOAD_TOO_LARGE', 'request body is larger than 1000 bytes');
  });

  test('a body that is not a form', async () => {
    await startServer();
    await expectError(
      await postForm(JSON.stringify({ question_texts: ['Q'], answers: ['yes'] }), { 'Content-Type': 'application/json' }),
      415,
      'IVR_UNSUPPORTED_MEDIA_TYPE',
      'send the body as multipart/form-data or application/x-www-form-urlencoded (Content-Type)',
    );
  });

  test('a multipart body cut short', async () => {
    await startServer();
    const body = '--b\r\nContent-Disposition: form-data; name="answers[]"\r\n\r\nyes\r\n--b\r\nContent-Disp';
    await expectError(await postForm(body, { 'Content-Type': 'multipart/form-data; boundary=b' }), 400, 'IVR_INVALID_FORM', 'the form could not be read: Unexpected end of form');
  });

  test('a multipart body cut short inside a file, which fails the file and the form alike', async () => {
    await startServer();
    const body = '--b\r\nContent-Disposition: form-data; name="answers[]"\r\n\r\nfile-1.wav\r\n' +
      '--b\r\nContent-Disposition: form-data; name="file-1.wav"; filename="file-1.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF';
    await expectError(await postForm(body, { 'Content-Type': 'multipart/form-data; boundary=b' }), 400, 'IVR_INVALID_FORM', 'the form could not be read: Unexpected end of form');
    expect(await (await postForm(form(['Q'], ['yes']))).text()).toBe('accepted');
  });

  test('a method other than POST', async () => {
    await startServer();
    const response = await fetch(`${server.url}/survey/rest`);
    expect(response.headers.get('allow')).toBe('POST');
    await expectError(response, 405, 'IVR_METHOD_NOT_ALLOWED', 'method GET is not allowed here; use POST');
  });

  test('a handler that fails: 500, its cause in the log only', async () => {
    await startServer({}, () => {
      throw new Error('database of answers unreachable');
    });
    await expectError(await postForm(form(['Q'], ['yes'])), 500, 'IVR_SURVEY_HANDLER_FAILED', 'the survey handler failed; the server log has the cause');
  });
});

test('SURVEY_REST_PATH moves the twin', async () => {
  await startServer({ SURVEY_REST_PATH: '/forms/evaluate' });
  expect(await (await postForm(form(['Q'], ['yes']), {}, '/forms/evaluate')).text()).toBe('accepted');
  expect((await postForm(form(['Q'], ['yes']))).status).toBe(404);
});
