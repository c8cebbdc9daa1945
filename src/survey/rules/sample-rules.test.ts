import path from 'node:path';
import fc from 'fast-check';
import { loadHandlerOnce } from '../../../test/support/survey-handler';
import { sampleSurveyHandler } from '../handlers/sample-handler';
import type { SurveyHandler } from '../../domain/survey-handler';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

/*
 * examples/survey-rules/sample.yaml is the specification's sample state table (§3.2) as a rules file:
 * it answers exactly as the built-in sampleSurveyHandler on any sequence of calls of a survey.
 */

const ROOT = path.join(__dirname, '..', '..', '..');
const SAMPLE = 'examples/survey-rules/sample.yaml';
const sampleRules = loadHandlerOnce(SAMPLE, ROOT);

/** Answers near `yes` and far from it: the sample's one distinction is an answer exactly `yes`. */
const answer = fc.oneof(
  fc.constantFrom('yes', 'YES', 'Yes', ' yes', 'yes ', 'no', '', 'y', 'yes\n', 'oui'),
  fc.string({ maxLength: 6 }),
);
const call = fc.array(answer, { maxLength: 4 }).map((answers) => ({ questionTexts: answers.map((_, index) => `Q${index}`), answers }));

/** The responses of a survey's calls, each call given the state the previous one returned (after a JSON round trip). */
async function responses(handler: SurveyHandler, calls: readonly { questionTexts: string[]; answers: string[] }[]): Promise<string[]> {
  let state: unknown;
  const answered: string[] = [];
  for (const page of calls) {
    const evaluation = await handler({ ...page, state });
    answered.push(evaluation.response);
    state = JSON.parse(JSON.stringify(evaluation.state)) as unknown;
  }
  return answered;
}

test('the sample rules file answers as the built-in handler, call for call, on generated surveys', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(call, { maxLength: 12 }), async (calls) => {
      expect(await responses(sampleRules, calls)).toEqual(await responses(sampleSurveyHandler, calls));
    }),
    { numRuns: 300 },
  );
});

test('the state table, row by row', async () => {
  const pages = [['no'], ['yes'], ['YES'], ['x', 'yes'], [], ['yes', 'yes']].map((answers) => ({ questionTexts: answers.map(() => 'Q'), answers }));
  expect(await responses(sampleRules, pages)).toEqual(['rejected', 'accepted', 'rejected', 'accepted again', 'rejected', 'accepted again']);
});

describe('the server started with SURVEY_HANDLER naming the rules file', () => {
  let server: TestServer;

  beforeEach(async () => {
    // The path is resolved from the directory the server starts in: jest runs in the repository's root.
    const surveyHandler = path.relative(process.cwd(), path.join(ROOT, SAMPLE));
    // No handler given: composeApp loads the one SURVEY_HANDLER names, as at start.
    server = await startTestServer({ SURVEY_HANDLER: surveyHandler });
  });

  afterEach(() => server.close());

  async function postForm(answers: readonly string[], cookie?: string): Promise<{ text: string; cookie: string }> {
    const body = new FormData();
    for (const [index, text] of answers.entries()) {
      body.append('question_texts[]', `Question ${index + 1}`);
      body.append('answers[]', text);
    }
    const response = await fetch(`${server.url}/survey/rest`, { method: 'POST', body, headers: cookie === undefined ? {} : { Cookie: cookie } });
    expect(response.status).toBe(200);
    return { text: await response.text(), cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
  }

  test('answers a survey across its calls (REST twin, session cookie), and another survey afresh', async () => {
    const first = await postForm(['no']);
    expect(first.text).toBe('rejected');
    expect((await postForm(['maybe', 'yes'], first.cookie)).text).toBe('accepted');
    expect((await postForm([' yes'], first.cookie)).text).toBe('rejected');
    expect((await postForm(['yes'], first.cookie)).text).toBe('accepted again');
    expect((await postForm(['yes'])).text).toBe('accepted');
  });
});
