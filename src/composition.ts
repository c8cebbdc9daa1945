import type { Logger } from 'pino';
import { passwordHasher } from './accounts/password-hasher';
import { accountAdmin } from './admin/accounts/account-admin';
import type { AdminServices } from './admin/router';
import { createAppMetrics, type AppMetrics } from './operations/app-metrics';
import { countingDependencyErrors } from './operations/dependency-errors';
import { operationsServices, type OperationsServices } from './operations/services';
import { shutdownState, type ShutdownState } from './operations/shutdown-state';
import { authenticator } from './reporting/auth/authenticate';
import { temporaryCredentials } from './reporting/auth/temporary-credentials';
import { dataResources } from './reporting/data-resources';
import { reportCache } from './reporting/report-cache/report-cache';
import { adminRateLimit, rateLimitGroups, surveyRateLimit } from './rate-limit/groups';
import type { ReportingServices } from './reporting/router';
import { heavyTurns } from './http/heavy-turns';
import type { SurveyServices } from './survey/router';
import { sampleSurveyHandler } from './survey/sample-handler';
import type { SurveyHandler } from './survey/survey-handler';
import type { Config } from './config/config';
import type { Store } from './storage/store';
import type { Clock } from './time/clock';

/** What an app is built from: the configuration and the dependencies shared by all its services. */
export interface AppDependencies {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The survey web service's evaluation (SURVEY_HANDLER); the specification's sample when not given. */
  readonly surveyHandler?: SurveyHandler;
  /** This app's metrics (GET /metrics); a fresh set when not given. Tests pass theirs to read values. */
  readonly metrics?: AppMetrics;
  /** Set when the process starts shutting down (src/serve.ts); GET /readyz then answers 503. Never set when not given. */
  readonly shutdown?: ShutdownState;
}

export interface Services {
  readonly reporting: ReportingServices;
  /** Undefined without ADMIN_TOKEN: then the admin API does not exist. */
  readonly admin: AdminServices | undefined;
  readonly survey: SurveyServices;
  /** The probes (/healthz, /readyz) and the metrics (/metrics, and every request counted). */
  readonly operations: OperationsServices;
}

/**
 * The composition root: every service is built here, once, from the configuration and the shared
 * dependencies (store, clock, logger); the routers receive services and never read the configuration.
 */
export function composeServices({ config, store: storeGiven, clock, logger, surveyHandler, metrics: metricsGiven, shutdown }: AppDependencies): Services {
  const metrics = metricsGiven ?? createAppMetrics();
  // Every service uses the store through this view, so each failed call counts against its dependency.
  const store = countingDependencyErrors(storeGiven, metrics);
  const limitDependencies = { store, clock, logger, refusals: metrics };
  const credentials = temporaryCredentials({ store, clock, ttlSeconds: config.credentialTtlSeconds });
  const passwords = passwordHasher({ concurrency: config.passwordHashConcurrency, mostWaiting: config.passwordHashQueue });
  const reporting: ReportingServices = {
    authenticate: authenticator(store, credentials, passwords),
    credentials,
    limits: rateLimitGroups(limitDependencies, {
      authLimit: config.authRateLimit,
      dataLimit: config.dataRateLimit,
      windowSeconds: config.rateLimitWindowSeconds,
    }),
    dataResources: dataResources(store, {
      weekStart: config.weekStart,
      maxRangeDays: config.maxRangeDays,
      reports: reportCache(config.reportCacheBytes),
    }),
  };
  const admin: AdminServices | undefined =
    config.adminToken === undefined
      ? undefined
      : {
          token: config.adminToken,
          limit: adminRateLimit(limitDependencies, { limit: config.adminRateLimit, windowSeconds: config.rateLimitWindowSeconds }),
          accounts: accountAdmin(store, config.defaultTimeZone, passwords),
          store,
          importedCalls: metrics,
        };
  const survey: SurveyServices = {
    call: {
      store,
      clock,
      handler: surveyHandler ?? sampleSurveyHandler,
      sessionTtlSeconds: config.surveySessionTtlSeconds,
      maxSessions: config.surveyMaxSessions,
      handlerTimeoutSeconds: config.surveyHandlerTimeoutSeconds,
    },
    bounds: { maxBytes: config.soapMaxBytes, limits: config.surveyMessageLimits },
    heavyTurns: heavyTurns(),
    limit: surveyRateLimit(limitDependencies, { limit: config.surveyRateLimit, windowSeconds: config.rateLimitWindowSeconds }),
    soapPath: config.soapPath,
    restPath: config.surveyRestPath,
    plumPath: config.surveyPlumPath,
    publicUrl: config.publicUrl,
    logger,
  };
  const operations = operationsServices({
    metrics,
    store,
    clock,
    logger,
    metricsToken: config.metricsToken,
    readinessTimeoutSeconds: config.readinessTimeoutSeconds,
    shutdown: shutdown ?? shutdownState(),
  });
  return { reporting, admin, survey, operations };
}
