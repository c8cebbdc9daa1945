import { Router, type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { AppError, errors } from '../errors/catalogue';
import { methodNotAllowed } from '../http/error-handler';
import type { Store } from '../storage/store';
import type { Clock } from '../time/clock';
import { answerCall, type SurveyCallDependencies } from './answer-call';
import { bodyText, readSoapBody } from './request-body';
import { checkEnvelope, checkSoapAction } from './request-checks';
import { sampleSurveyHandler } from './sample-handler';
import { serviceAddress } from './service-address';
import { presentedSessionId, SESSION_COOKIE, sessionCookieOptions } from './session-cookie';
import { sendSoapFault } from './soap-fault';
import { svcEvalDispatcher } from './soap-dispatcher';
import type { SurveyHandler } from './survey-handler';
import { renderWsdl } from './wsdl';

export interface SurveyServiceDependencies {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The evaluation; the specification's sample state machine when not given. */
  readonly surveyHandler?: SurveyHandler;
}

const XML = 'text/xml; charset=utf-8';

function requestLogger(logger: Logger, req: Request): Logger {
  return logger.child({ requestId: req.id });
}

function serveWsdl(config: Config): RequestHandler {
  return (req, res) => {
    res.type(XML).send(renderWsdl(serviceAddress(req, config.publicUrl, config.soapPath)));
  };
}

function answerSvcEval(deps: SurveyServiceDependencies): RequestHandler {
  const { config } = deps;
  const dispatcher = svcEvalDispatcher(config.soapPath);
  const callDependencies: SurveyCallDependencies = {
    store: deps.store,
    clock: deps.clock,
    handler: deps.surveyHandler ?? sampleSurveyHandler,
    sessionTtlSeconds: config.surveySessionTtlSeconds,
    handlerTimeoutSeconds: config.surveyHandlerTimeoutSeconds,
  };
  return async (req, res) => {
    const xml = bodyText(req);
    await checkEnvelope(xml);
    checkSoapAction(req.get('soapaction'));
    const sentSessionId = presentedSessionId(req);
    const log = requestLogger(deps.logger, req);
    let sessionId: string | undefined;
    const envelope = await dispatcher.dispatch(xml, async (args) => {
      const answer = await answerCall(callDependencies, args, sentSessionId, log);
      sessionId = answer.sessionId;
      return answer.response;
    });
    if (sessionId !== undefined) res.cookie(SESSION_COOKIE, sessionId, sessionCookieOptions(req, config.soapPath));
    res.status(200).type(XML).send(envelope);
  };
}

/** Every failure on the service's path becomes a SOAP 1.1 fault; causes the caller did not make are logged. */
function soapFaults(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
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
 * The survey web service of section 4.3, at SOAP_PATH: the WSDL on GET (`?wsdl` by convention) and
 * svcEval on POST. Requests are read and checked here; the soap package then parses the envelope,
 * calls svcEval and writes the response.
 */
export function surveyRouter(deps: SurveyServiceDependencies): Router {
  const { soapPath, soapMaxBytes } = deps.config;
  const router = Router();
  router
    .route(soapPath)
    .get(serveWsdl(deps.config))
    .post(readSoapBody(soapMaxBytes), answerSvcEval(deps))
    .all(methodNotAllowed(['GET', 'HEAD', 'POST']));
  router.use(soapPath, soapFaults(deps.logger));
  return router;
}
