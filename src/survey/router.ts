import { Router, type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { AppError, errors } from '../errors/catalogue';
import { methodNotAllowed } from '../http/error-handler';
import { answerCall, type SurveyCallDependencies } from './answer-call';
import { callParts, type SurveyCallBounds } from './call-parts';
import { readRestCall } from './rest-request';
import { serviceAddress } from './service-address';
import { presentedSessionId, sessionCookieSetter } from './session-cookie';
import { sendSoapFault } from './soap-fault';
import { readSoapCall } from './soap-request';
import { svcEvalResponseEnvelope } from './svc-eval-response';
import { renderWsdl } from './wsdl';

/** What the survey web service is made of, built once in the composition root. */
export interface SurveyServices {
  readonly call: SurveyCallDependencies;
  readonly bounds: SurveyCallBounds;
  /** The survey service's rate-limit group, SOAP and REST together. */
  readonly limit: RequestHandler;
  readonly soapPath: string;
  readonly restPath: string;
  /** The WSDL's address when set; else the request's own host. */
  readonly publicUrl: string | undefined;
  readonly logger: Logger;
}

const XML = 'text/xml; charset=utf-8';

function requestLogger(logger: Logger, req: Request): Logger {
  return logger.child({ requestId: req.id });
}

function serveWsdl({ publicUrl, soapPath }: SurveyServices): RequestHandler {
  return (req, res) => {
    res.type(XML).send(renderWsdl(serviceAddress(req, publicUrl, soapPath)));
  };
}

function answerSoapCall({ call, bounds, soapPath, logger }: SurveyServices): RequestHandler {
  // The session cookie of the survey the call belonged to, new or continued, on the path it came to.
  const setSessionCookie = sessionCookieSetter(soapPath);
  return async (req, res) => {
    const parts = callParts(await readSoapCall(req, bounds));
    const answer = await answerCall(call, parts, presentedSessionId(req), () => requestLogger(logger, req));
    setSessionCookie(req, res, answer.sessionId);
    // end, not send: an answer to a POST needs no ETag, whose hash send would compute on every call.
    res.status(200).setHeader('Content-Type', XML).end(svcEvalResponseEnvelope(answer.response));
  };
}

/** The REST twin: the answer as the body of a 200 (any 2xx is stored as the answer), errors as the API's error bodies. */
function answerRestCall({ call, bounds, restPath, logger }: SurveyServices): RequestHandler {
  const setSessionCookie = sessionCookieSetter(restPath);
  return async (req, res) => {
    const { parts, files } = await readRestCall(req, bounds);
    const answer = await answerCall(call, { ...callParts(parts), files }, presentedSessionId(req), () => requestLogger(logger, req));
    setSessionCookie(req, res, answer.sessionId);
    res.status(200).type('text/plain; charset=utf-8').send(answer.response);
  };
}

/**
 * Every failure at SOAP_PATH becomes a SOAP 1.1 fault; causes the caller did not make are logged. A
 * request already answered, or whose client is gone, is the app's error handler's.
 */
function soapFaults(logger: Logger, soapPath: string): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent || req.path !== soapPath || res.socket === null || res.socket.destroyed) {
      next(error);
      return;
    }
    if (error instanceof AppError) {
      sendSoapFault(res, error);
      return;
    }
    requestLogger(logger, req).error({ err: error }, 'survey web service failed');
    sendSoapFault(res, errors.internal());
  };
}

/**
 * The survey web service of section 4.3: at SOAP_PATH the WSDL on GET (`?wsdl` by convention) and
 * svcEval on POST; at SURVEY_REST_PATH its REST twin. Both read their request once, as it arrives, within
 * the same bounds, count against the same per-address limit, and share the handler and sessions.
 */
export function surveyRouter(services: SurveyServices): Router {
  const router = Router();
  router
    .route(services.soapPath)
    .get(serveWsdl(services))
    .post(services.limit, answerSoapCall(services))
    .all(methodNotAllowed(['GET', 'HEAD', 'POST']));
  router
    .route(services.restPath)
    .post(services.limit, answerRestCall(services))
    .all(methodNotAllowed(['POST']));
  router.use(soapFaults(services.logger, services.soapPath));
  return router;
}
