import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { knownError, methodNotAllowed, notFound } from '../http/error-handler/error-handler';
import type { Authenticate } from './auth/authenticate';
import { authenticateRoute } from './auth/route';
import type { TemporaryCredentials } from './auth/temporary-credentials';
import { authenticatedAccount, requireCredentials } from './basic-auth/require-credentials';
import type { DataResource } from './data-resources';
import type { RateLimitGroups } from '../rate-limit/groups';
import { withinContractStatuses } from './contract-statuses';
import type { ScenarioAnswers } from '../admin/scenarios/forced-answers';
import type { ReportTarget } from '../admin/scenarios/scenario';

/** What the reporting API is made of, built once in the composition root. */
export interface ReportingServices {
  readonly authenticate: Authenticate;
  readonly credentials: TemporaryCredentials;
  readonly limits: RateLimitGroups;
  readonly dataResources: readonly DataResource[];
  /** The sandbox's failure scenarios, run after the limit group counted the request. */
  readonly scenarios: ScenarioAnswers;
}

/**
 * The reporting API (specification.md §2), mounted at /api. Every answer under /api/ carries a window's rate-limit
 * headers: the request's group's, or, for one tied to no account (401, 405, 404), its own per address.
 */
export function reportingRouter({ authenticate, credentials, limits, dataResources, scenarios }: ReportingServices): Router {
  const router = Router();
  router
    .route('/auth')
    .post(limits.authentication, ...authenticateRoute(authenticate, scenarios))
    .all(limits.unidentifiedAuthentication, methodNotAllowed(['POST']));

  const authenticateData = requireCredentials(credentials, limits.unidentifiedData);
  for (const resource of dataResources) {
    router
      .route(resource.path)
      .get(authenticateData, limits.data, dataScenarios(scenarios, resource.name), resource.handler)
      .all(limits.unidentifiedData, methodNotAllowed(['GET', 'HEAD']));
  }
  router.use(limits.unidentifiedData, notFound());
  router.use(countUncountedRefusal(limits), contractStatuses());
  return router;
}

/** A data request is `data` and its resource's name to the scenarios, for the account its credentials are of. */
function dataScenarios(scenarios: ScenarioAnswers, name: ReportTarget): RequestHandler {
  const targets = ['data', name] as const;
  return (req, res, next) => {
    const { tool, login } = authenticatedAccount(res);
    scenarios(req, res, { targets, account: { tool, login } }).then(() => next(), next);
  };
}

/** The reporting API's errors held to the specification's statuses (contract-statuses.ts). */
function contractStatuses(): ErrorRequestHandler {
  return (error: unknown, req, _res, next) => {
    const known = knownError(error, req);
    next(known === undefined ? error : withinContractStatuses(known));
  };
}

/**
 * A refusal made before any window counted the request (a path part that is not valid percent-encoding,
 * which the router rejects before a route runs) is counted in the unidentified window of its group, so
 * that it too carries the headers; the window's own 429 takes its place past the limit. A server-side
 * failure is not the client's refusal: counting it would only ask a failing store once more.
 */
function countUncountedRefusal(limits: RateLimitGroups): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent || res.hasHeader('X-RateLimit-Limit') || !isClientError(error)) {
      next(error);
      return;
    }
    const window = req.path === '/auth' ? limits.unidentifiedAuthentication : limits.unidentifiedData;
    window(req, res, (limitError?: unknown) => next(limitError ?? error));
  };
}

function isClientError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { statusCode, status } = error as { statusCode?: unknown; status?: unknown };
  const code = typeof statusCode === 'number' ? statusCode : status;
  return typeof code === 'number' && code >= 400 && code < 500;
}
