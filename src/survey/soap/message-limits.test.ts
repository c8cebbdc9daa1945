import { request as httpRequest, type IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import type { SurveyCall, SurveyEvaluation } from '../../domain/survey-handler';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { envelope, faultBody, post, responseBody, svcEval } from '../../../test/survey-clients/support';

const XML = 'text/xml; charset=utf-8';

let server: TestServer;
let handlerCalls: SurveyCall[];

function recordingHandler(call: SurveyCall): SurveyEvaluation {
  handlerCalls.push(call);
  return { response: call.answers.includes('yes') ? 'accepted' : 'rejected', state: null };
}

async function startServer(env: NodeJS.ProcessEnv = {}): Promise<void> {
  handlerCalls = [];
  server = await startTestServer(env, { surveyHandler: recordingHandler });
}

afterEach(() => server.close());

async function expectClientFault(body: string, code: string, faultstring: string): Promise<void> {
  const response = await post(server.url, body);
  expect(response.status).toBe(500);
  expect(response.get('X-Error-Code')).toBe(code);
  expect(response.get('Content-Type')).toBe(XML);
  expect(response.text).toBe(faultBody('soap:Client', faultstring));
  expect(handlerCalls).toEqual([]);
  const after = await post(server.url, svcEval(['Agree?'], ['yes']));
  expect(after.text).toBe(responseBody('accepted'));
}

const items = (count: number) => Array.from({ length: count }, (_, index) => `Q${index}`);

describe('each bound on a message is a soap:Client fault naming it, and the handler is not called', () => {
  test('nesting deeper than SURVEY_MAX_DEPTH', async () => {
    await startServer({ SURVEY_MAX_DEPTH: '8' });
    // Envelope, Body, svcEval and extra are four levels.
    const nested = (levels: number) => `<extra>${'<x>'.repeat(levels)}${'</x>'.repeat(levels)}</extra>`;
    expect((await post(server.url, svcEval(['Q'], ['yes'], nested(4)))).status).toBe(200);
    handlerCalls = [];
    await expectClientFault(svcEval(['Q'], ['yes'], nested(5)), 'IVR_SURVEY_LIMIT_EXCEEDED', 'the nesting of elements exceeds the limit of 8 (SURVEY_MAX_DEPTH)');
  });

  test('more elements than SURVEY_MAX_ELEMENTS', async () => {
    await startServer({ SURVEY_MAX_ELEMENTS: '20' });
    expect((await post(server.url, svcEval(items(7), items(7)))).status).toBe(200);
    handlerCalls = [];
    await expectClientFault(svcEval(items(8), items(8)), 'IVR_SURVEY_LIMIT_EXCEEDED', 'the number of elements exceeds the limit of 20 (SURVEY_MAX_ELEMENTS)');
  });

  test('more items in one array than SURVEY_MAX_ITEMS', async () => {
    await startServer({ SURVEY_MAX_ITEMS: '3' });
    expect((await post(server.url, svcEval(items(3), items(3)))).status).toBe(200);
    handlerCalls = [];
    await expectClientFault(svcEval(items(4), items(4)), 'IVR_SURVEY_LIMIT_EXCEEDED', 'the number of items of question_texts exceeds the limit of 3 (SURVEY_MAX_ITEMS)');
  });

  test('more attributes on one element than SURVEY_MAX_ATTRIBUTES', async () => {
    await startServer({ SURVEY_MAX_ATTRIBUTES: '6' });
    const attributes = Array.from({ length: 7 }, (_, index) => ` a${index}="1"`).join('');
    await expectClientFault(
      svcEval(['Q'], ['yes'], `<extra${attributes}/>`),
      'IVR_SURVEY_LIMIT_EXCEEDED',
      'the number of attributes of one element exceeds the limit of 6 (SURVEY_MAX_ATTRIBUTES)',
    );
  });

  test('a text longer than SURVEY_MAX_TEXT_LENGTH, however it is split', async () => {
    await startServer({ SURVEY_MAX_TEXT_LENGTH: '10' });
    expect((await post(server.url, svcEval(['0123456789'], ['yes']))).status).toBe(200);
    handlerCalls = [];
    const split = envelope('<ns1:svcEval><question_texts><item>01234<![CDATA[56789]]>X</item></question_texts><answers><item>yes</item></answers></ns1:svcEval>');
    await expectClientFault(split, 'IVR_SURVEY_LIMIT_EXCEEDED', 'the text of question_texts[0] exceeds the limit of 10 (SURVEY_MAX_TEXT_LENGTH)');
  });

  test('an optional part longer than SURVEY_MAX_TEXT_LENGTH', async () => {
    await startServer({ SURVEY_MAX_TEXT_LENGTH: '10' });
    await expectClientFault(svcEval(['Q'], ['yes'], '<dnis>15550100199999</dnis>'), 'IVR_SURVEY_LIMIT_EXCEEDED', 'the text of dnis exceeds the limit of 10 (SURVEY_MAX_TEXT_LENGTH)');
  });
});

describe('the structure of a message', () => {
  beforeEach(() => startServer());

  test('a second element after the envelope is refused', async () => {
    await expectClientFault(`${svcEval(['Q'], ['yes'])}<more/>`, 'IVR_INVALID_ENVELOPE', 'the request holds more than the SOAP envelope; send one envelope per request');
  });

  test('a part sent twice is refused', async () => {
    await expectClientFault(
      svcEval(['Q'], ['yes'], '<answers><item>no</item></answers>'),
      'IVR_INVALID_ENVELOPE',
      'svcEval holds more than one answers part',
    );
  });

  test('text directly in the Body is refused', async () => {
    await expectClientFault(
      envelope('stray<ns1:svcEval><question_texts/><answers/></ns1:svcEval>'),
      'IVR_INVALID_ENVELOPE',
      'the SOAP envelope holds text outside its elements; send only the Envelope, Header and Body elements',
    );
  });

  test('an entity XML does not define, such as HTML\'s &nbsp;, makes the request not well-formed', async () => {
    const body = envelope('<ns1:svcEval><question_texts><item>Q&nbsp;1</item></question_texts><answers><item>yes</item></answers></ns1:svcEval>');
    await expectClientFault(body, 'IVR_MALFORMED_XML', 'the request is not well-formed XML: Invalid character entity');
  });

  test('XML\'s own entities and character references are read', async () => {
    const response = await post(server.url, envelope('<ns1:svcEval><question_texts><item>&lt;&#x51;&#49;&gt;</item></question_texts><answers><item>&#121;es</item></answers></ns1:svcEval>'));
    expect(response.text).toBe(responseBody('accepted'));
    expect(handlerCalls[0]?.questionTexts).toEqual(['<Q1>']);
  });

  test('an item holding an element is refused', async () => {
    await expectClientFault(
      envelope('<ns1:svcEval><question_texts><item><b>Q</b></item></question_texts><answers><item>yes</item></answers></ns1:svcEval>'),
      'IVR_INVALID_ENVELOPE',
      'question_texts[0] must be a string, not a structure',
    );
  });

  test('parts the WSDL does not declare are left alone', async () => {
    const response = await post(server.url, svcEval(['Q'], ['yes'], '<channel><id>web</id></channel>'));
    expect(response.text).toBe(responseBody('accepted'));
  });

  test('an answer longer than one parse piece (16 Ki characters) arrives whole, however the body is cut into chunks', async () => {
    const lengths = [16_385, 40_000, 65_536, 100_000, 1_000_000];
    for (const length of lengths) {
      const response = await post(server.url, svcEval(['Record your message'], ['a'.repeat(length)]));
      expect(response.text).toBe(responseBody('rejected'));
    }
    expect(handlerCalls.map((call) => call.answers[0]?.length)).toEqual(lengths);
  });

  test('a 10 MB recording sent as one Base64 answer is within the default bounds', async () => {
    const recording = randomBytes(7_300_000).toString('base64');
    const response = await post(server.url, svcEval(['Record your message', 'Agree?'], [recording, 'yes']));
    expect(response.status).toBe(200);
    expect(response.text).toBe(responseBody('accepted'));
    expect(handlerCalls[0]?.answers[0]).toBe(recording);
  });
});

/** Sends the start of a body and leaves the request open: whatever answers must do so before the body ends. */
function openRequest(url: string, start: string): Promise<{ response: IncomingMessage; abandon: () => void }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${url}/survey`, { method: 'POST', headers: { 'Content-Type': 'text/xml; charset=utf-8' } });
    sent.on('error', reject);
    sent.on('response', (response) => resolve({ response, abandon: () => sent.destroy() }));
    sent.write(start);
  });
}

test('the fault is sent as soon as a bound is crossed, while the rest of the body is still to come', async () => {
  await startServer({ SURVEY_MAX_ELEMENTS: '20' });
  const start = svcEval(items(20), items(20)).slice(0, -'</ns1:svcEval></SOAP-ENV:Body></SOAP-ENV:Envelope>\n'.length);
  const { response, abandon } = await openRequest(server.url, start);
  try {
    expect(response.statusCode).toBe(500);
    expect(response.headers['x-error-code']).toBe('IVR_SURVEY_LIMIT_EXCEEDED');
    expect(response.headers['content-type']).toBe(XML);
    expect(await text(response)).toBe(faultBody('soap:Client', 'the number of elements exceeds the limit of 20 (SURVEY_MAX_ELEMENTS)'));
  } finally {
    abandon();
  }
  expect(handlerCalls).toEqual([]);
});
