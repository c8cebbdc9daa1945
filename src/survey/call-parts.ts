import { errors } from '../errors/catalogue';
import type { SurveyCall } from './survey-handler';

/** The parts of svcEval as a caller sent them, SOAP envelope or REST form alike; absent parts are undefined. */
export interface ReceivedParts {
  questionTexts?: string[];
  answers?: string[];
  aniIp?: string;
  dnis?: string;
  sessionId?: string;
}

/** The names of the parts as the WSDL and the REST twin's form spell them. */
export const PART_NAMES = {
  questionTexts: 'question_texts',
  answers: 'answers',
  aniIp: 'ani_ip',
  dnis: 'dnis',
  sessionId: 'session_id',
} as const satisfies Record<keyof ReceivedParts, string>;

export type CallParts = Omit<SurveyCall, 'state' | 'files'>;

function items(count: number): string {
  return count === 1 ? '1 item' : `${count} items`;
}

/** Section 4.3 of the specification: both arrays are required and indexed alike. */
export function callParts(received: ReceivedParts): CallParts {
  const { questionTexts, answers, aniIp, dnis, sessionId } = received;
  if (questionTexts === undefined) throw errors.invalidSurveyCall(`svcEval is missing the ${PART_NAMES.questionTexts} part`);
  if (answers === undefined) throw errors.invalidSurveyCall(`svcEval is missing the ${PART_NAMES.answers} part`);
  if (questionTexts.length !== answers.length) {
    throw errors.invalidSurveyCall(
      `question_texts has ${items(questionTexts.length)} but answers has ${items(answers.length)}; ` +
        'answers[i] must be the answer to question_texts[i]',
    );
  }
  return {
    questionTexts,
    answers,
    ...(aniIp === undefined ? {} : { aniIp }),
    ...(dnis === undefined ? {} : { dnis }),
    ...(sessionId === undefined ? {} : { sessionId }),
  };
}
