import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { errors } from '../errors/catalogue';
import { knownError, logServerFailure, methodNotAllowed } from '../http/error-handler/error-handler';
import type { HeavyTurns } from '../http/heavy-turns/heavy-turns';
import { answerCall, type SurveyAnswer, type SurveyCallDependencies } from './answer-call';
import { callParts, type SurveyCallBounds } from './call-parts';
import { readRestCall } from './rest-request';
import { serviceAddress } from './service-address';
import { presentedSessionId, sessionCookieSetter } from './session-cookie';
import { evalResponseEnvelope } from './eval-response';
import { sendSoapFault } from './soap-fault';
import { readSoapCall } from './soap-request';
import { renderWsdl, type SurveyOperation } from './wsdl';
import type { ScenarioAnswers, ScenarioMatch } from '../admin/scenarios/forced-answers';
import type { ReadCall } from '../admin/survey-calls/call-entry';
import { inspectCall, type CallInspection, type CallInspector } from '../admin/survey-calls/inspector';

/** What the survey web service is made of, built once in the composition root. */
export interface SurveyServices {
  readonly call: SurveyCallDependencies;
  readonly bounds: SurveyCallBounds;
  /** The heavy steps of reading large forms, one per turn of the event loop. */
  readonly heavyTurns: HeavyTurns;
  /** The survey service's rate-limit group, SOAP and REST together. */
  readonly limit: RequestHandler;
  /** svcEval's WSDL, and calls of either operation. */
  readonly soapPath: string;
  readonly restPath: string;
  /** plumEval's WSDL, and calls of either operation. */
  readonly plumPath: string;
  /** The WSDL's address when set; else the request's own host. */
  readonly publicUrl: string | undefined;
  readonly logger: Logger;
  /** The sandbox's failure scenarios, run on a call once it is read. */
  readonly scenarios: ScenarioAnswers;
  /** The call inspector's ring (GET /admin/survey/calls); undefined when off: then nothing is recorded. */
  readonly inspector: CallInspector | undefined;
}

const SURVEY_CALL: ScenarioMatch = { targets: ['survey'], account: undefined };

const XML = 'text/xml; charset=utf-8';

function requestLogger(logger: Logger, req: Request): Logger {
  return logger.child({ requestId: req.id });
}

function serveWsdl({ publicUrl }: SurveyServices, path: string, operation: SurveyOperation): RequestHandler {
  return (req, res) => {
    // Without PUBLIC_URL the address is the request's Host: a cache that kept one answer for another
    // Host would send clients wherever the first request said.
    if (publicUrl === undefined) res.set({ Vary: 'Host', 'Cache-Control': 'no-store' });
    res.type(XML).send(renderWsdl(serviceAddress(req, publicUrl, path), operation));
  };
}

/**
 * Answers a call once it is read: the scenarios first, then the handler; the call inspector, when on,
 * keeps the call with its answer or its fault (the error handlers answer the fault as before).
 */
async function answerReadCall(
  { call, scenarios, logger, inspector }: SurveyServices,
  req: Request,
  res: Response,
  read: ReadCall & {
    /** The parts checked by the rules of a call (call-parts.ts): a refusal is the call's fault. */
    readonly callParts: () => Parameters<typeof answerCall>[1];
  },
): Promise<SurveyAnswer> {
  const cookieSessionId = presentedSessionId(req);
  const inspection: CallInspection | undefined = inspector === undefined ? undefined : inspectCall(inspector, call.clock, read, cookieSessionId);
  try {
    await scenarios(req, res, SURVEY_CALL);
    inspection?.handlerStarts();
    const answer = await answerCall(call, read.callParts(), cookieSessionId, () => requestLogger(logger, req));
    inspection?.answered(answer.response, answer.sessionId);
    return answer;
  } catch (error) {
    inspection?.failed(knownError(error, req) ?? errors.internal());
    throw error;
  }
}

/** A call of either operation, whichever WSDL its client was built from, answered as the operation it named. */
function answerSoapCall(services: SurveyServices, path: string): RequestHandler {
  // The session cookie of the survey the call belonged to, new or continued, on the path it came to.
  const setSessionCookie = sessionCookieSetter(path);
  return async (req, res) => {
    const received = await readSoapCall(req, services.bounds);
    const answer = await answerReadCall(services, req, res, {
      service: path,
      flavour: received.operation,
      parts: received,
      files: [],
      callParts: () => callParts(received),
    });
    setSessionCookie(req, res, answer.sessionId);
    // end, not send: an answer to a POST needs no ETag, whose hash send would compute on every call.
    res.status(200).setHeader('Content-Type', XML).end(evalResponseEnvelope(received.operation, answer.response));
  };
}

/** The REST twin: the answer as the body of a 200 (any 2xx is stored as the answer), errors as the API's error bodies. */
function answerRestCall(services: SurveyServices): RequestHandler {
  const setSessionCookie = sessionCookieSetter(services.restPath);
  return async (req, res) => {
    const { parts, files } = await readRestCall(req, services.bounds, services.heavyTurns);
    const answer = await answerReadCall(services, req, res, {
      service: services.restPath,
      flavour: 'rest',
      parts,
      files,
      callParts: () => ({ ...callParts(parts), files }),
    });
    setSessionCookie(req, res, answer.sessionId);
    res.status(200).type('text/plain; charset=utf-8').send(answer.response);
  };
}

/**
 * Every failure of a request routed to a SOAP path becomes a SOAP 1.1 fault (it is the route's own error
 * handler, so whatever spelling of the path Express routed there); causes the caller did not make are
 * logged. A request already answered, or whose client is gone, is the app's error handler's.
 */
function soapFaults(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent || res.socket === null || res.socket.destroyed) {
      next(error);
      return;
    }
    const known = knownError(error, req);
    logServerFailure(logger, req.id, error, known);
    sendSoapFault(res, known ?? errors.internal());
  };
}

/**
 * The survey web service (specification.md §3): at SOAP_PATH svcEval's WSDL on GET (`?wsdl` by convention), at
 * SURVEY_PLUM_PATH plumEval's, and calls of either operation on POST to both; at SURVEY_REST_PATH the
 * REST twin. All read their request once, as it arrives, within the same bounds, count against the same
 * per-address limit, and share the handler and sessions.
 */
export function surveyRouter(services: SurveyServices): Router {
  const router = Router();
  const faults = soapFaults(services.logger);
  for (const [path, operation] of [
    [services.soapPath, 'svcEval'],
    [services.plumPath, 'plumEval'],
  ] as const) {
    router
      .route(path)
      .get(serveWsdl(services, path, operation))
      .post(services.limit, answerSoapCall(services, path))
      .all(methodNotAllowed(['GET', 'HEAD', 'POST']), faults);
  }
  router
    .route(services.restPath)
    .post(services.limit, answerRestCall(services))
    .all(methodNotAllowed(['POST']));
  return router;
}

/**
 * Whether a request path is one of the SOAP services' as Express routes it (any letter case, a trailing
 * slash or not), for answers given before the survey router runs.
 */
export function soapPathMatcher({ soapPath, plumPath }: Pick<SurveyServices, 'soapPath' | 'plumPath'>): (path: string) => boolean {
  const paths = new Set([soapPath.toLowerCase(), plumPath.toLowerCase()]);
  return (path) => paths.has(path.toLowerCase().replace(/\/$/, ''));
}
