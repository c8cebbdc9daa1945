import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { ConnectionDropped } from '../http/connection-faults/connection-faults';
import type { Logger } from 'pino';
import { errors } from '../errors/catalogue';
import { knownError, logServerFailure, methodNotAllowed } from '../http/error-handler';
import type { HeavyTurns } from '../http/heavy-turns';
import { answerCall, type SurveyAnswer, type SurveyCallDependencies } from './sessions/answer-call';
import { callParts, type SurveyCallBounds } from './call-parts';
import { readRestCall } from './rest/rest-request';
import { serviceAddress } from './soap/service-address';
import { sessionCookie, type SessionCookie } from './sessions/session-cookie';
import { answers, servedPaths, wsdlPaths, type SurveyServiceSettings } from './services/survey-service';
import type { SurveyHandler } from '../domain/survey-handler';
import { evalResponseEnvelope } from './soap/eval-response';
import { sendSoapFault } from './soap/soap-fault';
import { readSoapCall } from './soap/soap-request';
import { renderWsdl, SURVEY_OPERATIONS, type SurveyOperation } from './soap/wsdl';
import type { DeclaredRoutes } from '../http/routes/declared-routes';
import { pipeline } from '../http/routes/pipeline';
import { inspectCall, type CallInspection, type CallInspector, type ReadCall, type ScenarioAnswers, type ScenarioMatch } from '../sandbox/sandbox';

/** One survey service as built at start: its settings and its logic. */
export interface SurveyService {
  readonly settings: SurveyServiceSettings;
  readonly handler: SurveyHandler;
}

/** What the survey web services are made of, built once in the composition root. */
export interface SurveyServices {
  /** What answering a call needs but the service's own handler and session scope. */
  readonly call: Omit<SurveyCallDependencies, 'handler' | 'sessionScope'>;
  /** Each service, in the order of the services file (or the single one of SOAP_PATH). */
  readonly services: readonly SurveyService[];
  readonly bounds: SurveyCallBounds;
  /** The heavy steps of reading large forms, one per turn of the event loop. */
  readonly heavyTurns: HeavyTurns;
  /** The survey services' rate-limit group, every service, SOAP and REST together. */
  readonly limit: RequestHandler;
  /** The WSDL's address when set; else the request's own host. */
  readonly publicUrl: string | undefined;
  readonly logger: Logger;
  /** The sandbox's failure scenarios, run on a call once it is read. */
  readonly scenarios: ScenarioAnswers;
  /** The call inspector's ring (GET /admin/survey/calls); undefined when off: then nothing is recorded. */
  readonly inspector: CallInspector | undefined;
}

/** What one service's routes answer with: the shared parts, and its answering of a call. */
interface ServiceRoutes extends Omit<SurveyServices, 'call' | 'services'> {
  readonly settings: SurveyServiceSettings;
  readonly call: SurveyCallDependencies;
}

const SURVEY_CALL: ScenarioMatch = { targets: ['survey'], account: undefined };

const XML = 'text/xml; charset=utf-8';

function requestLogger(logger: Logger, req: Request): Logger {
  return logger.child({ requestId: req.id });
}

function serveWsdl({ publicUrl }: ServiceRoutes, path: string, operation: SurveyOperation): RequestHandler {
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
  { call, scenarios, logger, inspector }: ServiceRoutes,
  /** The session cookie of the path the call came to. */
  cookie: SessionCookie,
  req: Request,
  res: Response,
  read: ReadCall & {
    /** The parts checked by the rules of a call (call-parts.ts): a refusal is the call's fault. */
    readonly callParts: () => Parameters<typeof answerCall>[1];
  },
): Promise<SurveyAnswer> {
  const cookieSessionId = cookie.presented(req);
  const inspection: CallInspection | undefined = inspector === undefined ? undefined : inspectCall(inspector, call.clock, read, cookieSessionId);
  try {
    await scenarios(req, res, SURVEY_CALL);
    inspection?.handlerStarts();
    const answer = await answerCall(call, read.callParts(), cookieSessionId, () => requestLogger(logger, req));
    inspection?.answered(answer.response, answer.sessionId);
    return answer;
  } catch (error) {
    if (error instanceof ConnectionDropped) inspection?.dropped(error.fault);
    else inspection?.failed(knownError(error, req) ?? errors.internal());
    throw error;
  }
}

/**
 * A call of either operation the service answers, whichever WSDL its client was built from, answered as the
 * operation it named; one it does not answer is the fault of an unknown operation.
 */
function answerSoapCall(routes: ServiceRoutes, path: string): RequestHandler {
  const operations = SURVEY_OPERATIONS.filter((operation) => answers(routes.settings, operation));
  // The session cookie of the survey the call belonged to, new or continued, on the path it came to.
  const cookie = sessionCookie(routes.settings.sessionCookie, path);
  return async (req, res) => {
    const received = await readSoapCall(req, routes.bounds);
    if (!operations.includes(received.operation)) throw errors.unknownOperation(received.operation, operations);
    const answer = await answerReadCall(routes, cookie, req, res, {
      service: routes.settings.name,
      path,
      flavour: received.operation,
      parts: received,
      files: [],
      callParts: () => callParts(received),
    });
    cookie.set(req, res, answer.sessionId);
    // end, not send: an answer to a POST needs no ETag, whose hash send would compute on every call.
    res.status(200).setHeader('Content-Type', XML).end(evalResponseEnvelope(received.operation, answer.response));
  };
}

/** The REST twin: the answer as the body of a 200 (any 2xx is stored as the answer), errors as the API's error bodies. */
function answerRestCall(routes: ServiceRoutes): RequestHandler {
  const cookie = sessionCookie(routes.settings.sessionCookie, routes.settings.restPath);
  return async (req, res) => {
    const { parts, files } = await readRestCall(req, routes.bounds, routes.heavyTurns);
    const answer = await answerReadCall(routes, cookie, req, res, {
      service: routes.settings.name,
      path: routes.settings.restPath,
      flavour: 'rest',
      parts,
      files,
      callParts: () => ({ ...callParts(parts), files }),
    });
    cookie.set(req, res, answer.sessionId);
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
 * One service's routes, each declared to `routes` as well: its `soapPath` svcEval's WSDL on GET (`?wsdl`
 * by convention), its `plumPath` plumEval's, calls of the operations it answers on POST to both (the
 * survey limit group, then the answer, every failure a SOAP fault), and at its `restPath` the REST twin
 * (its failures the app's error bodies); only the paths of the flavours it answers.
 */
function serviceRoutes(router: Router, routes: DeclaredRoutes, service: ServiceRoutes, faults: ErrorRequestHandler): void {
  for (const { path, flavour } of servedPaths(service.settings)) {
    if (flavour === 'rest') {
      routes.declare(router, '', { method: 'POST', path, handle: pipeline([service.limit, answerRestCall(service)]) }).all(methodNotAllowed(['POST']));
    } else {
      routes.declare(router, '', { method: 'GET', path, handle: serveWsdl(service, path, flavour) });
      routes
        .declare(router, '', { method: 'POST', path, handle: pipeline([service.limit, answerSoapCall(service, path)], faults) })
        .all(methodNotAllowed(['GET', 'HEAD', 'POST']), faults);
    }
  }
}

/**
 * The survey web services (specification.md §3), their router mounted at the app's root: each service's
 * routes, its own handler, sessions and cookie. All read their request once, as it arrives, within the
 * same bounds, and count against the same per-address limit.
 */
export function surveyApi(surveys: SurveyServices, routes: DeclaredRoutes): Router {
  const router = Router();
  const faults = soapFaults(surveys.logger);
  for (const { settings, handler } of surveys.services) {
    serviceRoutes(
      router,
      routes,
      {
        ...surveys,
        settings,
        call: { ...surveys.call, handler, sessionScope: settings.sessionScope },
      },
      faults,
    );
  }
  return router;
}

/**
 * Whether a request path is one of the SOAP services' as Express routes it (any letter case, a trailing
 * slash or not), for answers given before the survey router runs.
 */
export function soapPathMatcher({ services }: Pick<SurveyServices, 'services'>): (path: string) => boolean {
  const paths = new Set(services.flatMap(({ settings }) => wsdlPaths(settings).map(({ path }) => path.toLowerCase())));
  return (path) => paths.has(path.toLowerCase().replace(/\/$/, ''));
}
