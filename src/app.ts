import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { randomUUID } from 'node:crypto';
import { adminRouter } from './admin/router';
import type { Config } from './config/config';
import { errors } from './errors/catalogue';
import { errorHandler, notFound } from './http/error-handler';
import { renderError } from './http/representation';
import { answerStalledBodies } from './http/stalled-body';
import { accessLogErrorFields, accessLogErrorMessage, redactRequestUrl } from './logger';
import { reportingRouter } from './reporting/router';
import type { Store } from './storage/store';
import { surveyRouter } from './survey/router';
import { sendSoapFault } from './survey/soap-fault';
import type { SurveyHandler } from './survey/survey-handler';
import type { Clock } from './time/clock';

export interface AppDependencies {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The survey web service's evaluation (SURVEY_HANDLER); the specification's sample when not given. */
  readonly surveyHandler?: SurveyHandler;
}

/** The one Express app: the reporting API under /api, the survey web service at SOAP_PATH, then 404 and the error handler. */
export function createApp(deps: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  // Express's last-resort handler shows stack traces unless it believes it runs in production.
  app.set('env', 'production');
  app.set('trust proxy', deps.config.trustProxy);
  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const id = randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      // Unexpected failures are logged at error level, with their cause, where they are handled; the
      // access line of a 5xx (SOAP faults answer bad input with 500) is only a warning.
      customLogLevel: (_req, res, error) => (error !== undefined || res.statusCode >= 500 ? 'warn' : 'info'),
      customErrorObject: (_req, res, error, fields: Record<string, unknown>) => accessLogErrorFields(res, error, fields),
      customErrorMessage: (_req, res, error) => accessLogErrorMessage(res, error),
      serializers: { req: redactRequestUrl },
    }),
  );
  app.use(
    answerStalledBodies((req, res) => {
      const stalled = errors.bodyStalled(deps.config.requestIdleTimeoutSeconds);
      if (req.path === deps.config.soapPath) sendSoapFault(res, errors.invalidSurveyCall(stalled.message));
      else res.send(renderError(req, res, stalled));
    }),
  );
  app.use('/api', reportingRouter(deps));
  // Without ADMIN_TOKEN the admin API does not exist: every /admin path falls through to the 404.
  if (deps.config.adminToken !== undefined) app.use('/admin', adminRouter(deps, deps.config.adminToken));
  app.use(surveyRouter(deps));
  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
