import type { Logger } from 'pino';
import { errors } from '../errors/catalogue';
import type { Store } from '../storage/store';
import type { Clock } from '../time/clock';
import { newSessionId } from './session-cookie';
import { optionalString, stringArray } from './soap-values';
import type { SurveyCall, SurveyEvaluation, SurveyHandler } from './survey-handler';

export interface SurveyCallDependencies {
  readonly store: Store;
  readonly clock: Clock;
  readonly handler: SurveyHandler;
  readonly sessionTtlSeconds: number;
  /** How long a handler may take before the call is answered with a fault instead. */
  readonly handlerTimeoutSeconds: number;
}

export interface SurveyAnswer {
  readonly response: string;
  /** The session the call belonged to, new or continued: the cookie to send back. */
  readonly sessionId: string;
}

type CallParts = Omit<SurveyCall, 'state'>;

function requiredArray(parts: Record<string, unknown>, name: string): string[] {
  const value = stringArray(parts[name], name);
  if (value === undefined) throw errors.invalidSoapRequest(`svcEval is missing the ${name} part`);
  return value;
}

function items(count: number): string {
  return count === 1 ? '1 item' : `${count} items`;
}

/** The svcEval parts the soap package parsed, checked against section 4.3 of the specification. */
function readParts(args: unknown): CallParts {
  const parts: Record<string, unknown> = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const questionTexts = requiredArray(parts, 'question_texts');
  const answers = requiredArray(parts, 'answers');
  if (questionTexts.length !== answers.length) {
    throw errors.invalidSoapRequest(
      `question_texts has ${items(questionTexts.length)} but answers has ${items(answers.length)}; ` +
        'answers[i] must be the answer to question_texts[i]',
    );
  }
  const aniIp = optionalString(parts.ani_ip, 'ani_ip');
  const dnis = optionalString(parts.dnis, 'dnis');
  const sessionId = optionalString(parts.session_id, 'session_id');
  return {
    questionTexts,
    answers,
    ...(aniIp === undefined ? {} : { aniIp }),
    ...(dnis === undefined ? {} : { dnis }),
    ...(sessionId === undefined ? {} : { sessionId }),
  };
}

/** Undefined for what JSON cannot hold: cycles and BigInts throw, a function stringifies to nothing. */
function stateToJson(state: unknown): string | undefined {
  try {
    const json: unknown = JSON.stringify(state ?? null);
    return typeof json === 'string' ? json : undefined;
  } catch {
    return undefined;
  }
}

class HandlerTimeout extends Error {
  override readonly name = 'HandlerTimeout';
}

/** A handler that never settles must not hold the survey system's request (and a socket) forever. */
async function withinTimeout<T>(work: () => T | Promise<T>, seconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new HandlerTimeout(`the survey handler took longer than ${seconds} s`)), seconds * 1000);
  });
  try {
    return await Promise.race([Promise.resolve().then(work), timeout]);
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
  log: Logger,
): Promise<{ response: string; stateJson: string }> {
  let evaluation: SurveyEvaluation;
  try {
    evaluation = await withinTimeout(() => deps.handler(call), deps.handlerTimeoutSeconds);
  } catch (error) {
    log.error({ err: error }, 'the survey handler failed');
    throw errors.surveyHandlerFailed();
  }
  const response: unknown = (evaluation as Partial<SurveyEvaluation> | undefined)?.response;
  if (typeof response !== 'string') {
    log.error({ returned: typeof evaluation }, 'the survey handler returned no {response: string, state}');
    throw errors.surveyHandlerFailed();
  }
  if (NOT_XML_CHARACTER.test(response)) {
    log.error('the survey handler returned a response with characters that XML cannot carry');
    throw errors.surveyHandlerFailed();
  }
  const stateJson = stateToJson(evaluation.state);
  if (stateJson === undefined) {
    log.error('the survey handler returned a state that JSON cannot hold');
    throw errors.surveyHandlerFailed();
  }
  return { response, stateJson };
}

/**
 * Answers one svcEval call: checks its parts, continues the survey whose session id the caller sent
 * back (unless unknown or idle for longer than the TTL) or starts a new one, runs the handler and keeps
 * its new state. A call that fails changes nothing.
 */
export async function answerCall(
  deps: SurveyCallDependencies,
  args: unknown,
  sentSessionId: string | undefined,
  log: Logger,
): Promise<SurveyAnswer> {
  const parts = readParts(args);
  const now = deps.clock.now();
  const session = sentSessionId === undefined ? undefined : await deps.store.surveySessions.get(sentSessionId, now);
  const state: unknown = session === undefined ? undefined : JSON.parse(session.stateJson);
  const { response, stateJson } = await evaluate(deps, { ...parts, state }, log);
  const sessionId = session?.id ?? newSessionId();
  await deps.store.surveySessions.save({ id: sessionId, stateJson, expiresAt: now + deps.sessionTtlSeconds * 1000 }, now);
  return { response, sessionId };
}
