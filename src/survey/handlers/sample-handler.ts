import type { SurveyCall, SurveyEvaluation } from '../../domain/survey-handler';

interface SampleState {
  readonly acceptedBefore: boolean;
}

function acceptedBefore(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as Partial<SampleState>).acceptedBefore === true;
}

/**
 * The sample behaviour (specification.md §3.2): 'accepted' the first time any answer is
 * exactly `yes`, 'accepted again' on every later such call of the same survey, 'rejected' otherwise.
 */
export function sampleSurveyHandler({ answers, state }: SurveyCall): SurveyEvaluation {
  const before = acceptedBefore(state);
  const yes = answers.some((answer) => answer === 'yes');
  const next: SampleState = { acceptedBefore: before || yes };
  if (!yes) return { response: 'rejected', state: next };
  return { response: before ? 'accepted again' : 'accepted', state: next };
}
