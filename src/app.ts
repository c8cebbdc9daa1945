import express, { type Express } from 'express';
import { adminRouter } from './admin/router';
import { composeServices, type AppDependencies } from './composition';
import { loadDashboardAssets } from './dashboard/assets';
import { dashboardRouter } from './dashboard/router';
import { errors } from './errors/catalogue';
import { accessLog } from './http/access-log';
import { errorHandler, notFound } from './http/error-handler';
import { renderError } from './http/representation';
import { answerStalledBodies } from './http/stalled-body';
import { apiDocument } from './openapi/document';
import { apiReferenceRouter } from './openapi/reference-router';
import { mountMetrics } from './operations/metrics-route';
import { mountProbes } from './operations/probes';
import { requestMetrics } from './operations/request-metrics';
import { reportingRouter } from './reporting/router';
import { isReportingPath, withinSectionSeven } from './reporting/section-seven';
import { soapPathMatcher, surveyRouter } from './survey/router';
import { sendSoapFault } from './survey/soap-fault';

/**
 * The one Express app: the probes and metrics, the reporting API under /api, the admin API, the survey
 * web service at SOAP_PATH and SURVEY_PLUM_PATH, the API reference, the dashboard at /, then 404 and the error handler.
 */
export function createApp(deps: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  // Express's last-resort handler shows stack traces unless it believes it runs in production.
  app.set('env', 'production');
  app.set('trust proxy', deps.config.trustProxy);
  const services = composeServices(deps);
  // Metrics see every request; the probes come before the access log, which would drown in them (src/operations/probes.ts).
  app.use(requestMetrics(app, services.operations.metrics));
  mountProbes(app, services.operations.readiness);
  app.use(accessLog(deps.logger));
  mountMetrics(app, services.operations.scrape);
  const isSoapPath = soapPathMatcher(services.survey);
  app.use(
    answerStalledBodies((req, res, reason) => {
      const stalled = reason.kind === 'idle' ? errors.bodyStalled(reason.seconds) : errors.bodyTooSlow(reason.bytesPerSecond, reason.windowSeconds);
      if (isSoapPath(req.path)) sendSoapFault(res, stalled);
      // The path as sent: a router the request is inside has taken its mount path off req.path.
      else res.send(renderError(req, res, isReportingPath(req.baseUrl + req.path) ? withinSectionSeven(stalled) : stalled));
    }),
  );
  app.use('/api', reportingRouter(services.reporting));
  // Without ADMIN_TOKEN the admin API does not exist: every /admin path falls through to the 404.
  if (services.admin !== undefined) app.use('/admin', adminRouter(services.admin));
  app.use(surveyRouter(services.survey));
  // The pages after the services, whose paths they do not share (config.ts keeps SOAP_PATH off them),
  // so that no report or svcEval call is matched against them. The API reference: outside every limit
  // group, and built at start, so a mistake in it stops the start; its examples are dated from that day.
  app.use(apiReferenceRouter({ document: apiDocument(deps.config, deps.clock.now()), publicUrl: deps.config.publicUrl }));
  app.use(dashboardRouter(loadDashboardAssets()));
  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
