import { loadFixtureOnce } from '../../../test/support/survey-handler';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { envelope, faultBody, post, svcEvalResponseOf } from '../../../test/survey-clients/support';

/*
 * Clients write SOAP-encoded arrays in several shapes. These are the shapes real clients produce, each
 * of which must arrive as string[] with positions kept.
 */

const echoHandler = loadFixtureOnce('echo-handler.js');

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer({}, { surveyHandler: echoHandler });
});

afterEach(() => server.close());

async function handlerSaw(call: string): Promise<unknown> {
  const reply = await post(server.url, envelope(`<ns1:svcEval>${call}</ns1:svcEval>`));
  expect(reply.status).toBe(200);
  return JSON.parse(svcEvalResponseOf(reply.text));
}

const answers = '<answers><item>a</item><item>b</item></answers>';

test.each([
  ['items with xsi:type, as PHP writes them',
    '<question_texts SOAP-ENC:arrayType="xsd:string[2]"><item xsi:type="xsd:string">q1</item><item xsi:type="xsd:string">q2</item></question_texts>'],
  ['plain items, as the soap package client writes them', '<question_texts><item>q1</item><item>q2</item></question_texts>'],
  ['items named after the part, with any namespace prefix', '<question_texts><ns1:question_texts>q1</ns1:question_texts><ns1:question_texts>q2</ns1:question_texts></question_texts>'],
])('%s', async (_shape, questionTexts) => {
  expect(await handlerSaw(`${questionTexts}${answers}`)).toEqual({ questionTexts: ['q1', 'q2'], answers: ['a', 'b'] });
});

test.each([
  ['one item with xsi:type', '<item xsi:type="xsd:string">only</item>', ['only']],
  ['one plain item', '<item>only</item>', ['only']],
  ['one empty item with xsi:type', '<item xsi:type="xsd:string"></item>', ['']],
  ['one empty plain item', '<item/>', ['']],
])('%s', async (_shape, item, expected) => {
  const call = `<question_texts>${item}</question_texts><answers>${item}</answers>`;
  expect(await handlerSaw(call)).toEqual({ questionTexts: expected, answers: expected });
});

test.each([
  ['attributes only, as PHP writes zero items', '<question_texts SOAP-ENC:arrayType="xsd:string[0]" xsi:type="ns1:ArrayOfstring"/>'],
  ['an empty element', '<question_texts></question_texts>'],
  ['a nil array', '<question_texts xsi:nil="true"/>'],
])('no items: %s', async (_shape, empty) => {
  expect(await handlerSaw(`${empty}${empty.replace(/question_texts/g, 'answers')}`)).toEqual({ questionTexts: [], answers: [] });
});

test('no items: both parts left out, as suds sends two empty arrays', async () => {
  expect(await handlerSaw('')).toEqual({ questionTexts: [], answers: [] });
});

test('nil items keep their positions as empty strings', async () => {
  const call =
    '<question_texts><item>q1</item><item>q2</item><item>q3</item></question_texts>' +
    '<answers><item xsi:nil="true"/><item>b</item><item xsi:nil="1"/></answers>';
  expect(await handlerSaw(call)).toEqual({ questionTexts: ['q1', 'q2', 'q3'], answers: ['', 'b', ''] });
});

test('leading and trailing spaces of an item are kept', async () => {
  const call = '<question_texts><item> q1</item></question_texts><answers><item xsi:type="xsd:string">yes </item></answers>';
  expect(await handlerSaw(call)).toEqual({ questionTexts: [' q1'], answers: ['yes '] });
});

test('an item of only white space arrives as sent', async () => {
  const call = '<question_texts><item>q1</item><item>q2</item></question_texts><answers><item xsi:type="xsd:string">  </item><item> </item></answers>';
  expect(await handlerSaw(call)).toEqual({ questionTexts: ['q1', 'q2'], answers: ['  ', ' '] });
});

test('the optional parts arrive as strings, and a nil one not at all', async () => {
  const call =
    '<question_texts/><answers/><ani_ip xsi:type="xsd:string">198.51.100.4</ani_ip><dnis>8005550100</dnis><session_id xsi:nil="true"/>';
  expect(await handlerSaw(call)).toEqual({ questionTexts: [], answers: [], aniIp: '198.51.100.4', dnis: '8005550100' });
});

test('an array whose items have different element names is refused: their order would be lost', async () => {
  const reply = await post(server.url, envelope(`<ns1:svcEval><question_texts><item>q1</item><string>q2</string></question_texts>${answers}</ns1:svcEval>`));
  expect(reply.status).toBe(500);
  expect(reply.text).toBe(faultBody('soap:Client', 'question_texts mixes item element names (item, string); name every item alike'));
});

test('an optional part that is a structure is refused', async () => {
  const reply = await post(server.url, envelope(`<ns1:svcEval><question_texts/><answers/><dnis><digits>1</digits></dnis></ns1:svcEval>`));
  expect(reply.status).toBe(500);
  expect(reply.text).toBe(faultBody('soap:Client', 'dnis must be a string, not a structure'));
});
