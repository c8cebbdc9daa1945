import path from 'node:path';
import { loadHandlerOnce } from '../../../test/support/survey-handler';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { post, responseBody, sessionCookieOf, svcEval } from '../../../test/survey-clients/support';

const ROOT = path.resolve(__dirname, '../../..');
// Loaded as the docs tell a deployment to: SURVEY_HANDLER=examples/survey-handler.js from the repository root.
const satisfactionHandler = loadHandlerOnce('examples/survey-handler.js', ROOT);

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer({}, { surveyHandler: satisfactionHandler });
});

afterEach(() => server.close());

const questions = ['How satisfied are you with the wait time? (1-5)', 'How satisfied are you with the agent? (1-5)', 'Anything else?'];

test('examples/survey-handler.js scores a survey across its pages and answers with the running category', async () => {
  const first = await post(server.url, svcEval(questions, ['5', '4', 'Friendly staff']));
  expect(first.text).toBe(responseBody('promoter'));
  const cookie = sessionCookieOf(first);

  const second = await post(server.url, svcEval(questions.slice(0, 2), ['3', '4']), { Cookie: cookie });
  expect(second.text).toBe(responseBody('passive'));

  const third = await post(server.url, svcEval(questions.slice(0, 2), ['1', '1']), { Cookie: cookie });
  expect(third.text).toBe(responseBody('detractor'));
});

test('examples/survey-handler.js answers unscored while a survey has no scores, and ignores what is not 1-5', async () => {
  const reply = await post(server.url, svcEval(questions, ['', '6', 'five']));
  expect(reply.status).toBe(200);
  expect(reply.text).toBe(responseBody('unscored'));
});
