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
import { eventTracker } from './events/event-tracker';
import { EVENTS_PATH, eventsRoute } from './events/route';
import { rateLimitGroups } from './rate-limit/groups';

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

  const dataResources: DataResource[] = [
    { path: EVENTS_PATH, handler: eventsRoute(eventTracker(store, config.weekStart), config.maxRangeDays) },
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
