import { Router } from 'express';
import { methodNotAllowed } from '../http/error-handler';
import type { Authenticate } from './auth/authenticate';
import { authenticateRoute } from './auth/route';
import type { TemporaryCredentials } from './auth/temporary-credentials';
import { requireCredentials } from './basic-auth/require-credentials';
import type { DataResource } from './data-resources';
import type { RateLimitGroups } from './rate-limit/groups';

/** What the reporting API is made of, built once in the composition root. */
export interface ReportingServices {
  readonly authenticate: Authenticate;
  readonly credentials: TemporaryCredentials;
  readonly limits: RateLimitGroups;
  readonly dataResources: readonly DataResource[];
}

/** The reporting API of section 4, mounted at /api. */
export function reportingRouter({ authenticate, credentials, limits, dataResources }: ReportingServices): Router {
  const router = Router();
  router
    .route('/auth')
    .post(limits.authentication, ...authenticateRoute(authenticate))
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
