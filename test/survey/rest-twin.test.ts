import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { SurveyCall, SurveyEvaluation } from '../../src/survey/survey-handler';
import { startTestServer, type TestServer } from '../support/test-server';

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

async function expectError(response: Response, status: number, error: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await response.json()).toEqual({ error });
  expect(handlerCalls).toEqual([]);
}

describe('the state table of section 3, through the REST twin', () => {
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
    await expectError(await postForm(form(['Q1', 'Q2'], ['yes'])), 400, 'question_texts has 2 items but answers has 1 item; answers[i] must be the answer to question_texts[i]');
  });

  test('a missing array', async () => {
    await startServer();
    await expectError(await postForm(form([], ['yes'])), 400, 'svcEval is missing the question_texts part');
  });

  test('a file that no answer names', async () => {
    await startServer();
    const body = form(['Record a message'], ['file-1.wav']);
    body.append('file-2.wav', new Blob([Buffer.from('RIFF')], { type: 'audio/wav' }), 'file-2.wav');
    await expectError(await postForm(body), 400, 'the file file-2.wav is named by no answer; an answer names the recording it carries');
  });

  test('two files of one name', async () => {
    await startServer();
    const body = form(['Record a message'], ['file-1.wav']);
    for (let copy = 0; copy < 2; copy += 1) body.append('file-1.wav', new Blob([Buffer.from('RIFF')], { type: 'audio/wav' }), 'file-1.wav');
    await expectError(await postForm(body), 400, 'the form holds two files named file-1.wav');
  });

  test('a file part without a file name (busboy takes an application/octet-stream part for a file)', async () => {
    await startServer();
    const body = '--b\r\nContent-Disposition: form-data; name="answers[]"\r\n\r\nyes\r\n' +
      '--b\r\nContent-Disposition: form-data; name="recording"\r\nContent-Type: application/octet-stream\r\n\r\nRIFF\r\n--b--\r\n';
    await expectError(await postForm(body, { 'Content-Type': 'multipart/form-data; boundary=b' }), 400, 'a file part has no file name; name it as its answer does (file-1.wav)');
  });

  test('an optional field sent twice', async () => {
    await startServer();
    const body = form(['Q'], ['yes'], { session_id: 'one' });
    body.append('session_id', 'two');
    await expectError(await postForm(body), 400, 'the form holds more than one session_id field');
  });

  test('more items than SURVEY_MAX_ITEMS', async () => {
    await startServer({ SURVEY_MAX_ITEMS: '2' });
    await expectError(await postForm(form(['1', '2', '3'], ['1', '2', '3'])), 400, 'the number of items of question_texts exceeds the limit of 2 (SURVEY_MAX_ITEMS)');
  });

  test('a field longer than SURVEY_MAX_TEXT_LENGTH', async () => {
    await startServer({ SURVEY_MAX_TEXT_LENGTH: '5' });
    await expectError(await postForm(form(['Q'], ['yes, sure'])), 400, 'the text of the field answers[] exceeds the limit of 5 (SURVEY_MAX_TEXT_LENGTH)');
  });

  test('a body larger than SOAP_MAX_BYTES', async () => {
    await startServer({ SOAP_MAX_BYTES: '1000' });
    await expectError(await postForm(form(['Q'], ['x'.repeat(2000)])), 413, 'request body is larger than 1000 bytes');
  });

  test('a body that is not a form', async () => {
    await startServer();
    await expectError(
      await postForm(JSON.stringify({ question_texts: ['Q'], answers: ['yes'] }), { 'Content-Type': 'application/json' }),
      415,
      'send the body as multipart/form-data or application/x-www-form-urlencoded (Content-Type)',
    );
  });

  test('a multipart body cut short', async () => {
    await startServer();
    const body = '--b\r\nContent-Disposition: form-data; name="answers[]"\r\n\r\nyes\r\n--b\r\nContent-Disp';
    await expectError(await postForm(body, { 'Content-Type': 'multipart/form-data; boundary=b' }), 400, 'the form could not be read: Unexpected end of form');
  });

  test('a multipart body cut short inside a file, which fails the file and the form alike', async () => {
    await startServer();
    const body = '--b\r\nContent-Disposition: form-data; name="answers[]"\r\n\r\nfile-1.wav\r\n' +
      '--b\r\nContent-Disposition: form-data; name="file-1.wav"; filename="file-1.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF';
    await expectError(await postForm(body, { 'Content-Type': 'multipart/form-data; boundary=b' }), 400, 'the form could not be read: Unexpected end of form');
    expect(await (await postForm(form(['Q'], ['yes']))).text()).toBe('accepted');
  });

  test('a method other than POST', async () => {
    await startServer();
    const response = await fetch(`${server.url}/survey/rest`);
    expect(response.headers.get('allow')).toBe('POST');
    await expectError(response, 405, 'method GET is not allowed here; use POST');
  });

  test('a handler that fails: 500, its cause in the log only', async () => {
    await startServer({}, () => {
      throw new Error('database of answers unreachable');
    });
    await expectError(await postForm(form(['Q'], ['yes'])), 500, 'the survey handler failed; the server log has the cause');
  });
});

test('SURVEY_REST_PATH moves the twin', async () => {
  await startServer({ SURVEY_REST_PATH: '/forms/evaluate' });
  expect(await (await postForm(form(['Q'], ['yes']), {}, '/forms/evaluate')).text()).toBe('accepted');
  expect((await postForm(form(['Q'], ['yes']))).status).toBe(404);
});
