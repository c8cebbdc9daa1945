import { sampleSurveyHandler } from './sample-handler';

/** A survey's calls in turn, each given the state the one before returned after a JSON round trip, as a session keeps it. */
function answersOfCalls(...pages: (readonly string[])[]): string[] {
  let state: unknown;
  return pages.map((answers) => {
    const evaluation = sampleSurveyHandler({ questionTexts: answers.map((_, index) => `Question ${index + 1}`), answers, state });
    state = JSON.parse(JSON.stringify(evaluation.state)) as unknown;
    return evaluation.response;
  });
}

describe('the sample state table (specification.md §3.2)', () => {
  test("answers 'accepted' the first time any answer is exactly yes", () => {
    expect(answersOfCalls(['no', 'yes'])).toEqual(['accepted']);
  });

  test("answers 'accepted again' on every later call with a yes, however many calls without one come between", () => {
    expect(answersOfCalls(['yes'], ['yes'], ['no'], ['maybe', 'yes'])).toEqual(['accepted', 'accepted again', 'rejected', 'accepted again']);
  });

  test("answers 'rejected' to a call with no answer exactly yes: other letter cases, spaces, empty and unanswered items", () => {
    expect(answersOfCalls(['Yes', 'YES', ' yes', 'yes ', '', 'y'])).toEqual(['rejected']);
    expect(answersOfCalls([])).toEqual(['rejected']);
  });

  test('starts afresh on a state it did not write: another handler\'s, or none after a JSON round trip of undefined', () => {
    for (const state of [null, 'accepted', { acceptedBefore: 'true' }, [true]]) {
      expect(sampleSurveyHandler({ questionTexts: ['Q'], answers: ['yes'], state }).response).toBe('accepted');
    }
  });
});
