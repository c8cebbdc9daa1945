import type { SurveyMessageLimits } from './settings';
import { errors } from '../errors/catalogue';
import type { ReceivedParts } from '../domain/received-parts';
import type { SurveyCall } from '../domain/survey-handler';
import type { BodyBounds } from './body-stream';
import { textPiecesOf, withTextPieces, type WithTextPieces } from './text-pieces';

/** The names of the parts as the WSDL and the REST twin's form spell them. */
export const PART_NAMES = {
  questionTexts: 'question_texts',
  answers: 'answers',
  aniIp: 'ani_ip',
  dnis: 'dnis',
  sessionId: 'session_id',
} as const satisfies Record<keyof ReceivedParts, string>;

export type ArrayPart = 'questionTexts' | 'answers';
export type TextPart = 'aniIp' | 'dnis' | 'sessionId';

/** The array parts by the name a caller sends them under. */
export const ARRAY_PARTS: ReadonlyMap<string, ArrayPart> = new Map([
  [PART_NAMES.questionTexts, 'questionTexts'],
  [PART_NAMES.answers, 'answers'],
]);

/** The optional text parts by the name a caller sends them under. */
export const TEXT_PARTS: ReadonlyMap<string, TextPart> = new Map([
  [PART_NAMES.aniIp, 'aniIp'],
  [PART_NAMES.dnis, 'dnis'],
  [PART_NAMES.sessionId, 'sessionId'],
]);

/** What both readers of a call (SOAP envelope, REST form) are bounded by. */
export interface SurveyCallBounds extends BodyBounds {
  readonly limits: SurveyMessageLimits;
}

export const tooManyItems = (part: ArrayPart, limit: number) =>
  errors.surveyLimitExceeded(`the number of items of ${PART_NAMES[part]}`, limit, 'SURVEY_MAX_ITEMS');

export const textTooLong = (what: string, limit: number) =>
  errors.surveyLimitExceeded(`the text of ${what}`, limit, 'SURVEY_MAX_TEXT_LENGTH');

export type CallParts = Omit<SurveyCall, 'state' | 'files'>;

function items(count: number): string {
  return count === 1 ? '1 item' : `${count} items`;
}

/**
 * Section 4.3 of the specification: the arrays are indexed alike. An absent array is an empty one, since
 * that is how some clients (suds) send an array of no item.
 */
export function callParts(received: ReceivedParts & WithTextPieces): CallParts & WithTextPieces {
  const { questionTexts = [], answers = [], aniIp, dnis, sessionId } = received;
  if (questionTexts.length !== answers.length) {
    throw errors.invalidSurveyCall(
      `question_texts has ${items(questionTexts.length)} but answers has ${items(answers.length)}; ` +
        'answers[i] must be the answer to question_texts[i]',
    );
  }
  const parts = {
    questionTexts,
    answers,
    ...(aniIp === undefined ? {} : { aniIp }),
    ...(dnis === undefined ? {} : { dnis }),
    ...(sessionId === undefined ? {} : { sessionId }),
  };
  return withTextPieces(parts, textPiecesOf(received));
}
