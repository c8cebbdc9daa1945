import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { knownError, methodNotAllowed, notFound } from '../http/error-handler';
import type { Authenticate } from './auth/authenticate';
import { authenticateRoute } from './auth/route';
import type { TemporaryCredentials } from './auth/temporary-credentials';
import { authenticatedAccount } from '../accounts/authenticated-account';
import { requireCredentials } from './basic-auth/require-credentials';
import type { DataResource } from './data-resources';
import type { RateLimitGroups } from '../rate-limit/groups';
import { withinContractStatuses } from './contract-statuses';
import type { DeclaredRoutes } from '../http/routes/declared-routes';
import { pipeline } from '../http/routes/pipeline';
import type { ScenarioAnswers } from '../sandbox/sandbox';

/** What the reporting API is made of, built once in the composition root. */
export interface ReportingServices {
  readonly authenticate: Authenticate;
  readonly credentials: TemporaryCredentials;
  readonly limits: RateLimitGroups;
  readonly dataResources: readonly DataResource[];
  /** The sandbox's failure scenarios, run after the limit group counted the request. */
  readonly scenarios: ScenarioAnswers;
}

/** Where the reporting API is mounted. */
export const API_PATH = '/api';

/**
 * The reporting API (specification.md §2), its router mounted at API_PATH, each route declared to
 * `routes` as well. A route is its steps in order, each error held to the contract's statuses:
 * POST /api/auth (the authentication group, then the body and the answer), and for each raw-data resource
 * the credentials (a 401 past its own window), the data group, the scenarios of `data` and of the
 * resource's name for the account, then the resource's answer. Every answer under /api/ carries a
 * window's rate-limit headers: the request's group's, or, for one tied to no account (401, 405, 404), its
 * own per address.
 */
export function reportingApi({ authenticate, credentials, limits, dataResources, scenarios }: ReportingServices, routes: DeclaredRoutes): Router {
  const router = Router();
  const heldToContract = contractStatuses();
  routes
    .declare(router, API_PATH, {
      method: 'POST',
      path: '/auth',
      handle: pipeline([limits.authentication, ...authenticateRoute(authenticate, scenarios)], heldToContract),
    })
    .all(limits.unidentifiedAuthentication, methodNotAllowed(['POST']));

  const authenticateData = requireCredentials(credentials, limits.unidentifiedData);
  for (const resource of dataResources) {
    const targets = ['data', resource.name] as const;
    const steps: RequestHandler[] = [
      authenticateData,
      limits.data,
      async (req, res, next) => {
        const account = authenticatedAccount(res);
        await scenarios(req, res, { targets, account: { tool: account.tool, login: account.login } });
        next();
      },
      (req, res) => resource.answer(req, res, authenticatedAccount(res)),
    ];
    routes
      .declare(router, API_PATH, { method: 'GET', path: resource.path, handle: pipeline(steps, heldToContract) })
      .all(limits.unidentifiedData, methodNotAllowed(['GET', 'HEAD']));
  }
  router.use(limits.unidentifiedData, notFound());
  router.use(countUncountedRefusal(limits), heldToContract);
  return router;
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
