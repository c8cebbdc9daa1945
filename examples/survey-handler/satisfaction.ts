/*
 * examples/survey-handler.js written in TypeScript: it scores a satisfaction page. The types come from
 * the package, `ivr-reporting/survey-handler`; the import is of types only, so nothing of the server is
 * loaded with the handler.
 *
 * Compile it, then run the server with it (from the repository root, after `npm run build`, which
 * builds the types too):
 *
 *   npx tsc -p examples/survey-handler
 *   SURVEY_HANDLER=examples/survey-handler/dist/satisfaction.js npm start
 *
 * While you work on it, let the compiler watch and the server reload:
 *
 *   npx tsc -p examples/survey-handler --watch
 *   SURVEY_HANDLER=examples/survey-handler/dist/satisfaction.js SURVEY_RELOAD=true npm start
 *
 * Each save is compiled, and the next survey call is answered by the new version; a version that does
 * not load is logged and the last good one keeps answering.
 *
 * It reads every answer that is a whole number from 1 to 5 as a score, keeps the running totals of the
 * survey's pages in its state, and answers with the survey-wide category so far: 'promoter' (average 4.5
 * or more), 'passive' (3.5 or more), 'detractor' (below), or 'unscored' while no page has had a score.
 */
import type { SurveyHandler } from 'ivr-reporting/survey-handler';

interface ScoreState {
  readonly scoreSum: number;
  readonly scoreCount: number;
}

type Category = 'promoter' | 'passive' | 'detractor' | 'unscored';

const FIRST_SURVEY_STATE: ScoreState = { scoreSum: 0, scoreCount: 0 };

/** The state is what this handler returned on the survey's previous call, after a JSON round trip: unknown to the types. */
function isScoreState(state: unknown): state is ScoreState {
  const { scoreSum, scoreCount } = (state ?? {}) as Partial<Record<keyof ScoreState, unknown>>;
  return typeof scoreSum === 'number' && typeof scoreCount === 'number';
}

function scoresOf(answers: readonly string[]): number[] {
  return answers.filter((answer) => /^[1-5]$/.test(answer.trim())).map(Number);
}

function category({ scoreSum, scoreCount }: ScoreState): Category {
  if (scoreCount === 0) return 'unscored';
  const average = scoreSum / scoreCount;
  if (average >= 4.5) return 'promoter';
  if (average >= 3.5) return 'passive';
  return 'detractor';
}

const scoreSatisfactionPage: SurveyHandler = ({ answers, state }) => {
  const before = isScoreState(state) ? state : FIRST_SURVEY_STATE;
  const scores = scoresOf(answers);
  const after: ScoreState = {
    scoreSum: before.scoreSum + scores.reduce((sum, score) => sum + score, 0),
    scoreCount: before.scoreCount + scores.length,
  };
  return { response: category(after), state: after };
};

export default scoreSatisfactionPage;
