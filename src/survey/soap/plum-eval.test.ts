import request from 'supertest';
import { parseStringPromise } from 'xml2js';
import { loadFixtureOnce } from '../../../test/support/survey-handler';
import { renderWsdl } from './wsdl';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { faultBody, plumEval, post, responseBody, sessionCookieOf, svcEval } from '../../../test/survey-clients/support';

/*
 * plumEval, as the survey system calls a web-service question today: five parts, its own WSDL at
 * SURVEY_PLUM_PATH, the same handler and the same surveys as svcEval.
 */

const echoHandler = loadFixtureOnce('echo-handler.js');

let server: TestServer;

afterEach(() => server.close());

const XML = 'text/xml; charset=utf-8';

interface Definitions {
  readonly message: readonly { $: { name: string }; part: readonly { $: Record<string, string> }[] }[];
  readonly portType: readonly { operation: readonly { $: { name: string } }[] }[];
  readonly binding: readonly { operation: readonly { $: { name: string }; 'soap:operation': readonly { $: Record<string, string> }[] }[] }[];
  readonly service: readonly { port: readonly { 'soap:address': readonly { $: { location: string } }[] }[] }[];
}

async function definitionsAt(wsdlPath: string): Promise<Definitions> {
  const response = await request(server.url).get(wsdlPath);
  expect(response.status).toBe(200);
  expect(response.get('Content-Type')).toBe(XML);
  return ((await parseStringPromise(response.text)) as { definitions: Definitions }).definitions;
}

describe('the plumEval WSDL', () => {
  test('declares one operation, plumEval, with the five parts of the survey system, rpc/encoded at its own address', async () => {
    server = await startTestServer();
    const definitions = await definitionsAt('/survey/plum?wsdl');
    expect(definitions.message.map((message) => [message.$.name, message.part.map((part) => part.$)])).toEqual([
      [
        'plumEvalRequest',
        [
          { name: 'question_texts', type: 'tns:ArrayOfstring' },
          { name: 'answers', type: 'tns:ArrayOfstring' },
          { name: 'ani_ip', type: 'xsd:string' },
          { name: 'dnis', type: 'xsd:string' },
          { name: 'session_id', type: 'xsd:string' },
        ],
      ],
      ['plumEvalResponse', [{ name: 'plumEvalResponse', type: 'xsd:string' }]],
    ]);
    expect(definitions.portType[0]?.operation.map((operation) => operation.$.name)).toEqual(['plumEval']);
    expect(definitions.binding[0]?.operation.map((operation) => [operation.$.name, operation['soap:operation'][0]?.$])).toEqual([
      ['plumEval', { soapAction: 'urn:SampleWebserviceAction', style: 'rpc' }],
    ]);
    expect(definitions.service[0]?.port[0]?.['soap:address'][0]?.$.location).toBe(`${server.url}/survey/plum`);
  });

  test('is the svcEval WSDL with only the operation, its parts and the address changed', async () => {
    server = await startTestServer();
    const svcEvalWsdl = (await request(server.url).get('/survey?wsdl')).text;
    expect(svcEvalWsdl).toBe(renderWsdl(`${server.url}/survey`, 'svcEval'));
    expect((await request(server.url).get('/survey/plum?wsdl')).text).toBe(renderWsdl(`${server.url}/survey/plum`, 'plumEval'));
  });

  test('moves with SURVEY_PLUM_PATH, and names PUBLIC_URL as its address', async () => {
    server = await startTestServer({ SURVEY_PLUM_PATH: '/forms/plum-eval', PUBLIC_URL: 'https://surveys.example.com' });
    const definitions = await definitionsAt('/forms/plum-eval?wsdl');
    expect(definitions.service[0]?.port[0]?.['soap:address'][0]?.$.location).toBe('https://surveys.example.com/forms/plum-eval');
    expect((await request(server.url).get('/survey/plum?wsdl')).status).toBe(404);
  });
});

describe('a plumEval call', () => {
  test('reaches the handler with all five parts and is answered as plumEvalResponse', async () => {
    server = await startTestServer({}, { surveyHandler: echoHandler });
    const body = plumEval(['Your name', 'Agree?'], ['Ada & Bob', 'yes'], { ani_ip: '192.0.2.7', dnis: '18005550100', session_id: 'respondent-42' });
    const response = await post(server.url, body, {}, '/survey/plum');
    expect(response.status).toBe(200);
    expect(response.get('Content-Type')).toBe(XML);
    const seen = {
      questionTexts: ['Your name', 'Agree?'],
      answers: ['Ada & Bob', 'yes'],
      aniIp: '192.0.2.7',
      dnis: '18005550100',
      sessionId: 'respondent-42',
    };
    expect(response.text).toBe(responseBody(JSON.stringify(seen), 'plumEval'));
  });

  test('of a web survey, whose dnis is null, and of a page with no question (both arrays left out)', async () => {
    server = await startTestServer({}, { surveyHandler: echoHandler });
    const response = await post(server.url, plumEval(undefined, undefined, { ani_ip: '198.51.100.4', dnis: null, session_id: 'web-1' }), {}, '/survey/plum');
    expect(response.status).toBe(200);
    expect(response.text).toBe(responseBody(JSON.stringify({ questionTexts: [], answers: [], aniIp: '198.51.100.4', sessionId: 'web-1' }), 'plumEval'));
  });

  test('follows the state table of specification.md §3.2 by session_id, without cookies', async () => {
    server = await startTestServer();
    const page = (answer: string, sessionId: string) => plumEval(['Agree?'], [answer], { ani_ip: '192.0.2.7', dnis: '18005550100', session_id: sessionId });
    const responses: string[] = [];
    for (const [answer, sessionId] of [['no', 'a'], ['yes', 'a'], ['no', 'a'], ['yes', 'a'], ['yes', 'b']] as const) {
      const response = await post(server.url, page(answer, sessionId), {}, '/survey/plum');
      responses.push(response.text);
    }
    expect(responses).toEqual(['rejected', 'accepted', 'rejected', 'accepted again', 'accepted'].map((text) => responseBody(text, 'plumEval')));
  });

  test('continues the survey a svcEval call started, by its cookie, since the cookie path covers both', async () => {
    server = await startTestServer();
    const first = await post(server.url, svcEval(['Agree?'], ['yes']));
    expect(first.text).toBe(responseBody('accepted'));
    const cookie = sessionCookieOf(first);
    const second = await post(server.url, plumEval(['Agree?'], ['yes']), { Cookie: cookie }, '/survey/plum');
    expect(second.text).toBe(responseBody('accepted again', 'plumEval'));
  });

  test('is answered at SOAP_PATH too, and a svcEval call at SURVEY_PLUM_PATH, each as the operation it named', async () => {
    server = await startTestServer();
    expect((await post(server.url, plumEval(['Agree?'], ['yes'], { session_id: 'x' }))).text).toBe(responseBody('accepted', 'plumEval'));
    expect((await post(server.url, svcEval(['Agree?'], ['yes']), {}, '/survey/plum')).text).toBe(responseBody('accepted'));
  });

  test('with arrays of different lengths is a soap:Client fault naming them', async () => {
    server = await startTestServer();
    const response = await post(server.url, plumEval(['Q1', 'Q2'], ['yes'], { session_id: 's' }), {}, '/survey/plum');
    expect(response.status).toBe(500);
    expect(response.text).toBe(faultBody('soap:Client', 'question_texts has 2 items but answers has 1 item; answers[i] must be the answer to question_texts[i]'));
  });
});

describe('every answer on a path Express routes to a SOAP service is SOAP', () => {
  test.each(['/survey/', '/SURVEY', '/Survey/Plum/'])('a fault on %s', async (soapPath) => {
    server = await startTestServer();
    const response = await post(server.url, svcEval(['Q1', 'Q2'], ['yes']), {}, soapPath);
    expect(response.status).toBe(500);
    expect(response.get('Content-Type')).toBe(XML);
    expect(response.text).toBe(faultBody('soap:Client', 'question_texts has 2 items but answers has 1 item; answers[i] must be the answer to question_texts[i]'));
  });

  test.each(['/survey/', '/SURVEY/PLUM'])('a 405 on %s', async (soapPath) => {
    server = await startTestServer();
    const response = await request(server.url).put(soapPath).set('Content-Type', XML).send('<x/>');
    expect(response.status).toBe(405);
    expect(response.get('Allow')).toBe('GET, HEAD, POST');
    expect(response.text).toBe(faultBody('soap:Client', 'method PUT is not allowed here; use GET or HEAD or POST'));
  });
});
