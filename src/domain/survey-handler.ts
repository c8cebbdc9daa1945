/**
 * The pluggable evaluation of svcEval. The default is the sample state machine of the specification
 * (survey/handlers/sample-handler.ts); SURVEY_HANDLER names a module that replaces it (survey/handlers/handler-module.ts).
 *
 * Published as `ivr-reporting/survey-handler`, for handlers written in TypeScript: it imports nothing, so
 * that its declarations need no more than Node's types (Buffer), not Express's or pino's.
 */

/** One svcEval call, as a handler receives it. */
export interface SurveyCall {
  /** The question texts of the current page, in page order. */
  readonly questionTexts: readonly string[];
  /** answers[i] is the answer to questionTexts[i]; an unanswered (nil) item is ''. */
  readonly answers: readonly string[];
  /** The optional parts that newer survey systems send, when they send them. */
  readonly aniIp?: string;
  readonly dnis?: string;
  readonly sessionId?: string;
  /**
   * Recordings the REST twin received as file parts, each named by the answer that refers to it
   * (`file-1.wav`); a SOAP call carries recordings in its answers as Base64 text, and has none here.
   */
  readonly files?: readonly SurveyFile[];
  /**
   * What this handler returned as state on the survey's previous call, after a JSON round trip
   * (undefined became null); undefined on the first call of a survey.
   */
  readonly state: unknown;
}

export interface SurveyFile {
  /** The file name, as it appears in `answers`. */
  readonly name: string;
  readonly contentType: string;
  readonly data: Buffer;
}

export interface SurveyEvaluation {
  /** Stored by the survey system as the answer of the question that called the service. */
  readonly response: string;
  /** Kept for the survey's next call; must survive JSON.stringify. */
  readonly state: unknown;
}

export type SurveyHandler = (call: SurveyCall) => SurveyEvaluation | Promise<SurveyEvaluation>;
