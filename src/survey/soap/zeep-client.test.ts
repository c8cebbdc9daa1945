import { loadFixtureOnce } from '../../../test/support/survey-handler';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { runZeepClients } from '../../../test/survey-clients/support';
import { ZEEP, requireForFile } from '../../../test/support/real-programs';

/*
 * zeep (Python, Debian's python3-zeep) generates its calls from the WSDL and treats every declared part
 * as required: it is the strict client the WSDL's two inputs are for.
 */

const echoHandler = loadFixtureOnce('echo-handler.js');

let server: TestServer;

requireForFile(ZEEP);
afterEach(() => server.close());

const wsdl = () => `${server.url}/survey?wsdl`;

test('a client generated from the WSDL calls svcEval with its two arguments and follows the state table', async () => {
  server = await startTestServer();
  const page = (answers: string[]) => ({ question_texts: answers.map((_, index) => `Question ${index + 1}`), answers });
  const [client, second] = await runZeepClients(wsdl(), [[page(['no', 'maybe']), page(['no', 'yes']), page(['no']), page(['yes'])], [page(['yes'])]]);
  expect(client?.results).toEqual([{ response: 'rejected' }, { response: 'accepted' }, { response: 'rejected' }, { response: 'accepted again' }]);
  expect(client?.requests[0]).toMatch(/^<soap-env:Envelope [^>]*><soap-env:Body><ns0:svcEval xmlns:ns0="urn:SampleWebservice"><question_texts><item [^>]*>Question 1<\/item>/);
  expect(second?.results).toEqual([{ response: 'accepted' }]);
  expect(second?.cookies.survey_session).toMatch(/^[0-9a-f]{32}$/);
  expect(second?.cookies.survey_session).not.toBe(client?.cookies.survey_session);
});

test('texts with Unicode and XML-special characters, and arrays of no item, round-trip both ways', async () => {
  server = await startTestServer({}, { surveyHandler: echoHandler });
  const texts = ['a < b & c > d', `"double" and 'single'`, 'Grüße, 日本語, emoji 😀👍🏽', '  padded  '];
  const [client] = await runZeepClients(wsdl(), [[{ question_texts: texts, answers: [...texts].reverse() }, { question_texts: [], answers: [] }]]);
  const seen = client?.results.map((result): unknown => ('response' in result ? JSON.parse(result.response) : result));
  expect(seen).toEqual([
    { questionTexts: texts, answers: [...texts].reverse() },
    { questionTexts: [], answers: [], state: { calls: 1 } },
  ]);
});

test('a fault reaches the generated client with its SOAP 1.1 faultcode and faultstring', async () => {
  server = await startTestServer();
  const [client] = await runZeepClients(wsdl(), [[{ question_texts: ['Q1', 'Q2'], answers: ['yes'] }]]);
  expect(client?.results).toEqual([
    { fault: { code: 'soap:Client', string: 'question_texts has 2 items but answers has 1 item; answers[i] must be the answer to question_texts[i]' } },
  ]);
});
