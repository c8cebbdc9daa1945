import { loadFixtureOnce } from '../../../test/support/survey-handler';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { runPhpClients, type PhpCall } from '../../../test/survey-clients/support';
import { PHP_SOAP, requireForFile } from '../../../test/support/real-programs';

const echoHandler = loadFixtureOnce('echo-handler.js');
const throwingHandler = loadFixtureOnce('throwing-handler.js');

const page = (answers: (string | null)[]): PhpCall => ({ question_texts: answers.map((_, i) => `Question ${i + 1}`), answers });
const yes = page(['no', 'yes']);
const noYes = page(['no', 'maybe']);

let server: TestServer;

requireForFile(PHP_SOAP);
afterEach(() => server.close());

describe('the state table of specification.md §3.2, through PHP SoapClient in WSDL mode', () => {
  beforeEach(async () => {
    server = await startTestServer();
  });

  const wsdl = () => `${server.url}/survey?wsdl`;

  test.each([
    ['not yet accepted, an answer is yes: accepted', [yes], ['accepted']],
    ['not yet accepted, no answer is yes: rejected, still not accepted', [noYes, yes], ['rejected', 'accepted']],
    ['accepted before, an answer is yes: accepted again', [yes, yes], ['accepted', 'accepted again']],
    ['accepted before, no answer is yes: rejected, still accepted before', [yes, noYes, yes], ['accepted', 'rejected', 'accepted again']],
  ])('%s', async (_row, calls, responses) => {
    const [client] = await runPhpClients(wsdl(), [calls]);
    expect(client?.results).toEqual(responses.map((response) => ({ response })));
  });

  test('a second client is a new survey with its own session cookie', async () => {
    const [first, second] = await runPhpClients(wsdl(), [[yes, yes], [yes]]);
    expect(first?.results).toEqual([{ response: 'accepted' }, { response: 'accepted again' }]);
    expect(second?.results).toEqual([{ response: 'accepted' }]);
    expect(first?.cookies.survey_session).toMatch(/^[0-9a-f]{32}$/);
    expect(second?.cookies.survey_session).toMatch(/^[0-9a-f]{32}$/);
    expect(second?.cookies.survey_session).not.toBe(first?.cookies.survey_session);
  });

  test("only an answer exactly equal to yes counts: case, spaces and punctuation do not", async () => {
    const [client] = await runPhpClients(wsdl(), [[page(['Yes', ' yes', 'yes ', 'YES', 'yes!', '']), yes]]);
    expect(client?.results).toEqual([{ response: 'rejected' }, { response: 'accepted' }]);
  });

  test('mismatched array lengths come back to PHP as a soap:Client SoapFault', async () => {
    const [client] = await runPhpClients(wsdl(), [[{ question_texts: ['Q1', 'Q2'], answers: ['yes'] }, yes]]);
    expect(client?.results).toEqual([
      {
        fault: {
          code: 'soap:Client',
          string: 'question_texts has 2 items but answers has 1 item; answers[i] must be the answer to question_texts[i]',
        },
      },
      // The fault changed nothing: the survey was not accepted yet.
      { response: 'accepted' },
    ]);
  });
});

describe('what PHP sends reaches the handler intact', () => {
  const handlerSaw = (response: string) => JSON.parse(response) as Record<string, unknown>;

  test('arrays of 0, 1 and many items, as PHP encodes them (SOAP-ENC arrays of xsd:string)', async () => {
    server = await startTestServer({}, { surveyHandler: echoHandler });
    const many = Array.from({ length: 40 }, (_, i) => `answer ${i}`);
    const [client] = await runPhpClients(`${server.url}/survey?wsdl`, [
      [
        { question_texts: [], answers: [] },
        { question_texts: ['Only question'], answers: ['only answer'] },
        { question_texts: many.map((answer) => `question of ${answer}`), answers: many },
      ],
    ]);
    expect(client?.requests[0]).toContain('<question_texts SOAP-ENC:arrayType="xsd:string[0]" xsi:type="ns1:ArrayOfstring"/>');
    expect(client?.requests[1]).toContain('<item xsi:type="xsd:string">Only question</item>');
    const seen = client?.results.map((result) => ('response' in result ? handlerSaw(result.response) : result));
    expect(seen).toEqual([
      { questionTexts: [], answers: [], state: undefined },
      { questionTexts: ['Only question'], answers: ['only answer'], state: { calls: 1 } },
      { questionTexts: many.map((answer) => `question of ${answer}`), answers: many, state: { calls: 2 } },
    ]);
  });

  test('Unicode and XML-special characters round-trip both ways, and a nil item keeps its place as an empty string', async () => {
    server = await startTestServer({}, { surveyHandler: echoHandler });
    const texts = ['a < b & c > d', `"double" and 'single'`, ']]> <![CDATA[ x', 'Grüße, 日本語, emoji 😀👍🏽', '  padded  ', 'line\nbreak'];
    const [client] = await runPhpClients(`${server.url}/survey?wsdl`, [
      [{ question_texts: texts, answers: [null, ...texts.slice(1)] }],
    ]);
    const [result] = client?.results ?? [];
    expect(result).toHaveProperty('response');
    expect(handlerSaw((result as { response: string }).response)).toEqual({ questionTexts: texts, answers: ['', ...texts.slice(1)] });
  });

  test('the optional parts, which a survey system sends without the WSDL, reach the handler', async () => {
    server = await startTestServer({}, { surveyHandler: echoHandler });
    const [client] = await runPhpClients(`${server.url}/survey?wsdl`, [
      [{ question_texts: ['Q'], answers: ['A'], ani_ip: '192.0.2.7', dnis: '+1 (555) 010-0199', session_id: 'sess <1> & "2"' }],
    ]);
    expect(client?.requests[0]).toContain('<ani_ip xsi:type="xsd:string">192.0.2.7</ani_ip>');
    const [result] = client?.results ?? [];
    expect(result).toHaveProperty('response');
    expect(handlerSaw((result as { response: string }).response)).toEqual({
      questionTexts: ['Q'],
      answers: ['A'],
      aniIp: '192.0.2.7',
      dnis: '+1 (555) 010-0199',
      sessionId: 'sess <1> & "2"',
    });
  });

  test('a handler that throws reaches PHP as a soap:Server SoapFault without its message', async () => {
    server = await startTestServer({}, { surveyHandler: throwingHandler });
    const [client] = await runPhpClients(`${server.url}/survey?wsdl`, [[yes]]);
    expect(client?.results).toEqual([
      { fault: { code: 'soap:Server', string: 'the survey handler failed; the server log has the cause' } },
    ]);
  });
});
