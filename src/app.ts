import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { clockDateHeader } from './sandbox/clock/date-header';
import { adminRouter, type AdminServices } from './admin/router';
import type { Clock } from './time/clock';
import type { DashboardAssets } from './dashboard/assets';
import { dashboardRouter } from './dashboard/router';
import { errors } from './errors/catalogue';
import { accessLog } from './http/access-log';
import { errorHandler, notFound } from './http/error-handler';
import { renderError } from './http/representation';
import { answerStalledBodies } from './http/connection-guards/stalled-body';
import { apiReferenceRouter, type ApiReference } from './openapi/reference-router';
import { mountMetrics } from './operations/metrics-route';
import { isProbeRequest, mountProbes } from './operations/probes';
import { requestEdge } from './http/request-edge';
import { requestMetrics } from './operations/request-metrics';
import type { OperationsServices } from './operations/services';
import { DeclaredRoutes } from './http/routes/declared-routes';
import { API_PATH, reportingApi, type ReportingServices } from './reporting/router';
import { isReportingPath, withinContractStatuses } from './reporting/contract-statuses';
import { soapPathMatcher, surveyApi, type SurveyServices } from './survey/router';
import { sendSoapFault } from './survey/soap/soap-fault';

/** What an app is built from: each part's services, built once by the composition root. */
export interface AppServices {
  /** The access log's and the error handler's. */
  readonly logger: Logger;
  /** Express's `trust proxy`: who stands in front of the server (TRUST_PROXY). */
  readonly trustProxy: boolean | number | string;
  readonly reporting: ReportingServices;
  /** Undefined without ADMIN_TOKEN: then the admin API does not exist. */
  readonly admin: AdminServices | undefined;
  readonly survey: SurveyServices;
  /** The probes (/healthz, /readyz) and the metrics (/metrics, and every request counted). */
  readonly operations: OperationsServices;
  readonly reference: ApiReference;
  readonly dashboard: DashboardAssets;
  /** Set with SANDBOX_CLOCK: the clock every answer's Date header tells. */
  readonly movableClock: Clock | undefined;
}

/**
 * The one Express app: the request edge, the lookup of the routes the reporting API and the survey
 * services declare (http/routes/declared-routes.ts), the probes and metrics, the reporting API under
 * /api, the admin API, the survey web service at SOAP_PATH and SURVEY_PLUM_PATH, the API reference, the
 * dashboard at /, then 404 and the error handler.
 */
export function createApp(services: AppServices): Express {
  const app = express();
  app.disable('x-powered-by');
  // Express's last-resort handler shows stack traces unless it believes it runs in production.
  app.set('env', 'production');
  app.set('trust proxy', services.trustProxy);
  if (services.movableClock !== undefined) app.use(clockDateHeader(services.movableClock));
  const isSoapPath = soapPathMatcher(services.survey);
  // Metrics see every request, the access log all but the probes', which would drown it (src/operations/probes.ts).
  app.use(
    requestEdge([
      requestMetrics(app, services.operations.metrics),
      accessLog(services.logger, isProbeRequest),
      answerStalledBodies((req, res, reason) => {
        const stalled = reason.kind === 'idle' ? errors.bodyStalled(reason.seconds) : errors.bodyTooSlow(reason.bytesPerSecond, reason.windowSeconds);
        if (isSoapPath(req.path)) sendSoapFault(res, stalled);
        // The path as sent: a router the request is inside has taken its mount path off req.path.
        else res.send(renderError(req, res, isReportingPath(req.baseUrl + req.path) ? withinContractStatuses(stalled) : stalled));
      }),
    ]),
  );
  const routes = new DeclaredRoutes();
  const reporting = reportingApi(services.reporting, routes);
  const survey = surveyApi(services.survey, routes);
  app.use(routes.dispatch);
  mountProbes(app, services.operations.readiness);
  mountMetrics(app, services.operations.scrape);
  app.use(API_PATH, reporting);
  // Without ADMIN_TOKEN the admin API does not exist: every /admin path falls through to the 404.
  if (services.admin !== undefined) app.use('/admin', adminRouter(services.admin));
  app.use(survey);
  // The pages after the services, whose paths they do not share (survey/settings.ts keeps SOAP_PATH off
  // them), so that no report or svcEval call is matched against them; the API reference is outside every limit group.
  app.use(apiReferenceRouter(services.reference));
  app.use(dashboardRouter(services.dashboard));
  app.use(notFound());
  app.use(errorHandler(services.logger));
  return app;
}
