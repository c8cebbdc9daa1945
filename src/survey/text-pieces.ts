import type { SurveyCall } from '../domain/survey-handler';

/*
 * A long text of a call (up to SURVEY_MAX_TEXT_LENGTH) arrives in pieces: the body's chunks. Laid out whole
 * it is one large allocation, which holds the event loop on a machine where fresh memory is slow
 * (docs/performance-costs.md, "A long answer on the pattern worker"). So the readers build a
 * long text as a rope of its pieces, which costs nothing until something reads it whole, and keep the pieces
 * beside the call, under a symbol: what a handler receives is unchanged, and a copy to a worker handler
 * (structured clone) leaves them out. The rules handler sends a long text to its pattern worker piece by
 * piece from them, so the text is never laid out on the event loop.
 */

/** Texts longer than this, in UTF-16 units, are kept in pieces. */
export const PIECED_TEXT_LENGTH = 256 * 1024;

const TEXT_PIECES = Symbol('the pieces of the long texts of a call');

/** The pieces of each long text of a call, by part and, for an array part, by item. */
export interface PartPieces {
  questionTexts?: Map<number, readonly string[]>;
  answers?: Map<number, readonly string[]>;
  aniIp?: readonly string[];
  dnis?: readonly string[];
  sessionId?: readonly string[];
}

/** Something that may carry the pieces of its long texts: the parts a reader received, or a call. */
export interface WithTextPieces {
  readonly [TEXT_PIECES]?: PartPieces;
}

/** `target` with `pieces` beside its texts (when there are any). */
export function withTextPieces<T extends object>(target: T, pieces: PartPieces | undefined): T & WithTextPieces {
  return pieces === undefined ? target : Object.assign(target, { [TEXT_PIECES]: pieces });
}

/** The pieces kept beside a call's long texts, if its reader kept any. */
export function textPiecesOf(call: SurveyCall | WithTextPieces): PartPieces | undefined {
  return (call as WithTextPieces)[TEXT_PIECES];
}

/** The text of `pieces`, as a rope: joined without copying a character. */
export function ropeOf(pieces: readonly string[]): string {
  let text = '';
  for (const piece of pieces) text += piece;
  return text;
}
