import { Router, type RequestHandler } from 'express';
import type { Config } from '../config/config';
import { methodNotAllowed } from '../http/error-handler';
import type { Logger } from 'pino';
import type { Store } from '../storage/store';
import type { Clock } from '../time/clock';
import { authenticator } from './auth/authenticate';
import { authenticateRoute } from './auth/route';
import { temporaryCredentials } from './auth/temporary-credentials';
import { requireCredentials } from './basic-auth/require-credentials';
import { EVENTS_PATH, eventSeries } from './events/series';
import { FLOW_PATH, flowReporter } from './flow/report';
import { flowRepresentation } from './flow/representation';
import { GEOGRAPHIC_PATH, geographicReporter } from './geographic/report';
import { geographicRepresentation } from './geographic/representation';
import { PERFORMANCE_PATH, performanceSeries } from './performance/series';
import { CALLER_PROFILE_PATH, callerProfileSeries } from './profile/caller-series';
import { parseRangeQuery, parseSeriesQuery } from './query/params';
import { rateLimitGroups } from './rate-limit/groups';
import { resourceRoute } from './resource-route';
import { seriesRepresentation } from './series/representation';
import { seriesReporter, type SeriesDefinition } from './series/series-report';
import { VOLUME_PATH, volumeSeries } from './volume/series';

export interface ReportingDependencies {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** A raw-data resource: served on GET and HEAD behind Basic auth, in the shared data limit group. */
interface DataResource {
  readonly path: string;
  readonly handler: RequestHandler;
}

/** The reporting API of section 4, mounted at /api. */
export function reportingRouter({ config, store, clock, logger }: ReportingDependencies): Router {
  const credentials = temporaryCredentials({ store, clock, ttlSeconds: config.credentialTtlSeconds });
  const limits = rateLimitGroups({ store, clock, logger }, {
    authLimit: config.authRateLimit,
    dataLimit: config.dataRateLimit,
    windowSeconds: config.rateLimitWindowSeconds,
  });

  const seriesResource = (path: string, definition: SeriesDefinition): DataResource => ({
    path,
    handler: resourceRoute(
      { parse: parseSeriesQuery, report: seriesReporter(store, config.weekStart, definition), represent: seriesRepresentation },
      config.maxRangeDays,
    ),
  });
  // The raw-data resources of interface.md and reference-resources.md.
  const dataResources: DataResource[] = [
    seriesResource(VOLUME_PATH, volumeSeries),
    seriesResource(EVENTS_PATH, eventSeries),
    seriesResource(PERFORMANCE_PATH, performanceSeries),
    seriesResource(CALLER_PROFILE_PATH, callerProfileSeries),
    {
      path: GEOGRAPHIC_PATH,
      handler: resourceRoute(
        { parse: parseRangeQuery, report: geographicReporter(store), represent: geographicRepresentation },
        config.maxRangeDays,
      ),
    },
    {
      path: FLOW_PATH,
      handler: resourceRoute({ parse: parseRangeQuery, report: flowReporter(store), represent: flowRepresentation }, config.maxRangeDays),
    },
  ];

  const router = Router();
  router
    .route('/auth')
    .post(limits.authentication, ...authenticateRoute(authenticator(store, credentials)))
    .all(methodNotAllowed(['POST']));

  const authenticateData = requireCredentials(credentials);
  for (const resource of dataResources) {
    router
      .route(resource.path)
      .get(authenticateData, limits.data, resource.handler)
      .all(methodNotAllowed(['GET', 'HEAD']));
  }
  return router;
}
