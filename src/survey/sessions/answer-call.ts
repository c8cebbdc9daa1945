import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError, errors } from '../../errors/catalogue';
import { boundedStateJson, overBytes, STATE_TOO_LARGE, type EvaluationBounds } from '../evaluation-bounds';
import type { Store } from '../../storage/store';
import type { Clock } from '../../time/clock';
import type { CallParts } from '../call-parts';
import { newSessionId } from './session-cookie';
import type { SurveyCall, SurveyEvaluation, SurveyFile, SurveyHandler } from '../../domain/survey-handler';

export interface SurveyCallDependencies {
  readonly store: Store;
  readonly clock: Clock;
  readonly handler: SurveyHandler;
  /** What the service's session keys in the store begin with (survey/services/survey-service.ts): '' for the single service. */
  readonly sessionScope: string;
  readonly sessionTtlSeconds: number;
  readonly maxSessions: number;
  /** How long a handler may take, and how much it may return, before the call is answered with a fault instead. */
  readonly evaluation: EvaluationBounds;
}

export interface SurveyAnswer {
  readonly response: string;
  /** The session the call belonged to, new or continued: the cookie to send back. */
  readonly sessionId: string;
}

class HandlerTimeout extends Error {
  override readonly name = 'HandlerTimeout';
}

/**
 * A handler whose promise never settles must not hold the survey system's request (and a socket) forever.
 * A handler that answers synchronously (the sample does) has finished already: it needs no timer.
 */
async function withinTimeout<T>(work: () => T | Promise<T>, seconds: number): Promise<T> {
  const result = work();
  if (typeof (result as Partial<PromiseLike<T>> | null)?.then !== 'function') return result;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new HandlerTimeout(`the survey handler took longer than ${seconds} s`)), seconds * 1000);
  });
  try {
    return await Promise.race([Promise.resolve(result), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// Characters XML 1.0 cannot carry, even escaped: a response holding one would make an envelope no client can read.
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** Runs the handler; whatever goes wrong in it is logged here and reaches the caller as a soap:Server fault. */
async function evaluate(
  deps: SurveyCallDependencies,
  call: SurveyCall,
  log: () => Logger,
): Promise<{ response: string; stateJson: string }> {
  const bounds = deps.evaluation;
  let evaluation: SurveyEvaluation;
  try {
    evaluation = await withinTimeout(() => deps.handler(call), bounds.timeoutSeconds);
  } catch (error) {
    // The server's own refusals (a worker's answer over its bound, the pattern worker's full queue) keep their code.
    const refusal = error instanceof AppError ? error : errors.surveyHandlerFailed();
    log().error({ err: error, code: refusal.code }, 'the survey handler failed');
    throw refusal;
  }
  const response: unknown = (evaluation as Partial<SurveyEvaluation> | undefined)?.response;
  if (typeof response !== 'string') {
    log().error({ returned: typeof evaluation }, 'the survey handler returned no {response: string, state}');
    throw errors.surveyHandlerFailed();
  }
  // Before the character check, which would read all of an unbounded response.
  if (overBytes(response, bounds.maxResponseBytes)) {
    log().error({ characters: response.length, code: 'IVR_SURVEY_RESPONSE_TOO_LARGE' }, 'the survey handler returned a response larger than SOAP_MAX_BYTES');
    throw errors.surveyResponseTooLarge(bounds.maxResponseBytes);
  }
  if (NOT_XML_CHARACTER.test(response)) {
    log().error('the survey handler returned a response with characters that XML cannot carry');
    throw errors.surveyHandlerFailed();
  }
  const stateJson = boundedStateJson(evaluation.state, bounds.maxStateBytes);
  if (stateJson === undefined) {
    log().error('the survey handler returned a state that JSON cannot hold');
    throw errors.surveyHandlerFailed();
  }
  if (stateJson === STATE_TOO_LARGE) {
    log().error({ code: 'IVR_SURVEY_STATE_TOO_LARGE' }, 'the survey handler returned a state larger than SURVEY_MAX_STATE_BYTES');
    throw errors.surveyStateTooLarge(bounds.maxStateBytes);
  }
  return { response, stateJson };
}

/**
 * The session a session_id part names: the survey system's own id for the respondent, hashed so that
 * any text becomes an id of the cookie's shape and no stored id repeats what a caller sent.
 */
function sessionIdFor(sessionIdPart: string): string {
  return createHash('sha256').update(`session_id:${sessionIdPart}`).digest('hex').slice(0, 32);
}

/**
 * Answers one call, svcEval, plumEval or REST, whose parts were checked: continues the survey that the
 * session_id part names, or else the one whose cookie the caller sent back (unless unknown or idle for
 * longer than the TTL), or starts a new one; runs the handler and keeps its new state. A call that
 * fails changes nothing.
 */
export async function answerCall(
  deps: SurveyCallDependencies,
  parts: CallParts & { readonly files?: readonly SurveyFile[] },
  cookieSessionId: string | undefined,
  /** The request's logger, made only when something is logged: making one costs on every call. */
  log: () => Logger,
): Promise<SurveyAnswer> {
  const now = deps.clock.now();
  const namedId = parts.sessionId === undefined ? undefined : sessionIdFor(parts.sessionId);
  const presentedId = namedId ?? cookieSessionId;
  const session = presentedId === undefined ? undefined : await deps.store.surveySessions.get(deps.sessionScope + presentedId, now);
  const state: unknown = session === undefined ? undefined : JSON.parse(session.stateJson);
  const { response, stateJson } = await evaluate(deps, { ...parts, state }, log);
  // An unknown cookie is never adopted: a survey it starts gets a fresh id, so no one can fix another's.
  const sessionId = (session === undefined ? undefined : presentedId) ?? namedId ?? newSessionId();
  await deps.store.surveySessions.save(
    { id: deps.sessionScope + sessionId, stateJson, expiresAt: now + deps.sessionTtlSeconds * 1000 },
    now,
    deps.maxSessions,
  );
  return { response, sessionId };
}
