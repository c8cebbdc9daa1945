import { createClientAsync, type Client } from 'soap';
import { loadFixtureOnce } from '../../../test/support/survey-handler';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

const echoHandler = loadFixtureOnce('echo-handler.js');

let server: TestServer;

afterEach(() => server.close());

async function clientFor(testServer: TestServer): Promise<Client> {
  // The package caches WSDLs by URL for the life of the process; every test has its own server.
  return createClientAsync(`${testServer.url}/survey?wsdl`, { disableCache: true });
}

type SvcEvalAsync = (args: Record<string, unknown>) => Promise<[{ svcEvalResponse: string }]>;

async function svcEval(client: Client, args: Record<string, unknown>): Promise<string> {
  // The package generates the method from the WSDL, so its type says nothing.
  const [result] = await (client.svcEvalAsync as SvcEvalAsync)(args);
  return result.svcEvalResponse;
}

/** The soap package's client keeps no cookies: the session cookie is read and sent back by hand. */
function sessionCookie(client: Client): string {
  const setCookie = client.lastResponseHeaders?.['set-cookie'];
  const cookie = setCookie?.find((value) => value.startsWith('survey_session='));
  if (cookie === undefined) throw new Error(`no session cookie in ${JSON.stringify(setCookie)}`);
  return cookie.split(';')[0] ?? '';
}

test('the soap package client follows the state table when it sends the session cookie back', async () => {
  server = await startTestServer();
  const client = await clientFor(server);
  expect(await svcEval(client, { question_texts: ['Agree?'], answers: ['yes'] })).toBe('accepted');
  const cookie = sessionCookie(client);
  expect(client.lastResponseHeaders?.['set-cookie']).toEqual([`${cookie}; Path=/survey; HttpOnly; SameSite=Lax`]);

  client.addHttpHeader('Cookie', cookie);
  expect(await svcEval(client, { question_texts: ['Agree?'], answers: ['no'] })).toBe('rejected');
  expect(await svcEval(client, { question_texts: ['Agree?'], answers: ['yes'] })).toBe('accepted again');
  expect(sessionCookie(client)).toBe(cookie);
});

test('without the cookie every call of the soap package client is a new survey', async () => {
  server = await startTestServer();
  const client = await clientFor(server);
  expect(await svcEval(client, { question_texts: ['Agree?'], answers: ['yes'] })).toBe('accepted');
  const first = sessionCookie(client);
  expect(await svcEval(client, { question_texts: ['Agree?'], answers: ['yes'] })).toBe('accepted');
  expect(sessionCookie(client)).not.toBe(first);
});

test.each([
  ['plain arrays (items named after the part)', { question_texts: ['q1', 'q2'], answers: ['a1', 'a2'] }, ['q1', 'q2'], ['a1', 'a2']],
  ['item arrays', { question_texts: { item: ['q1', 'q2'] }, answers: { item: ['a1', 'a2'] } }, ['q1', 'q2'], ['a1', 'a2']],
  ['one item (not an array once parsed)', { question_texts: { item: 'q1' }, answers: { item: 'a1' } }, ['q1'], ['a1']],
  ['no items (an empty element)', { question_texts: [], answers: [] }, [], []],
])('the handler gets string arrays from the soap package client sending %s', async (_shape, args, questionTexts, answers) => {
  server = await startTestServer({}, { surveyHandler: echoHandler });
  const client = await clientFor(server);
  expect(JSON.parse(await svcEval(client, args))).toEqual({ questionTexts, answers });
});

test('a fault reaches the soap package client as an error carrying the SOAP 1.1 faultcode and faultstring', async () => {
  server = await startTestServer();
  const client = await clientFor(server);
  await expect(svcEval(client, { question_texts: ['q1'] })).rejects.toThrow(
    'soap:Client: question_texts has 1 item but answers has 0 items; answers[i] must be the answer to question_texts[i]',
  );
});
