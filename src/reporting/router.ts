import { Router, type ErrorRequestHandler, type IRoute, type Request, type RequestHandler } from 'express';
import { knownError, methodNotAllowed, notFound } from '../http/error-handler';
import type { Authenticate } from './auth/authenticate';
import { authenticateRoute } from './auth/route';
import type { TemporaryCredentials } from './auth/temporary-credentials';
import { authenticatedAccount } from '../accounts/authenticated-account';
import { requireCredentials } from './basic-auth/require-credentials';
import type { DataResource } from './data-resources';
import type { RateLimitGroups } from '../rate-limit/groups';
import { withinContractStatuses } from './contract-statuses';
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

/** The reporting API: its router, mounted at API_PATH, and the raw-data requests' own dispatch, mounted before it. */
export interface ReportingApi {
  /**
   * GET and HEAD of a raw-data resource, found by one lookup of the path's segment after /api/
   * (`DataPaths`), in front of the app's other mounts and of the router's matching route by route;
   * whatever it does not take plainly (a segment that needs decoding, a path of another shape, `/API`)
   * goes on to the router, which serves it through the same chain.
   */
  readonly dataRequests: RequestHandler;
  readonly router: Router;
}

/**
 * The reporting API (specification.md §2). Every answer under /api/ carries a window's rate-limit
 * headers: the request's group's, or, for one tied to no account (401, 405, 404), its own per address.
 */
export function reportingApi({ authenticate, credentials, limits, dataResources, scenarios }: ReportingServices): ReportingApi {
  const router = Router();
  const dataPaths = new DataPaths();
  router
    .route('/auth')
    .post(limits.authentication, ...authenticateRoute(authenticate, scenarios))
    .all(limits.unidentifiedAuthentication, methodNotAllowed(['POST']));

  const authenticateData = requireCredentials(credentials, limits.unidentifiedData);
  for (const resource of dataResources) {
    const serve = dataRequest(resource, authenticateData, limits.data, scenarios);
    const route = router
      .route(resource.path)
      .get(serve)
      .all(limits.unidentifiedData, methodNotAllowed(['GET', 'HEAD']));
    dataPaths.add(resource.path, route, serve);
  }
  router.use(limits.unidentifiedData, notFound());
  router.use(countUncountedRefusal(limits), contractStatuses());
  return { dataRequests: dataPaths.dispatch, router };
}

/**
 * A data request's chain as plain calls rather than a route's handlers: the credentials (a 401 past its
 * own window), the data limit group, the scenarios of `data` and the resource's name for the account,
 * then the resource's answer.
 */
function dataRequest(resource: DataResource, authenticateData: RequestHandler, limit: RequestHandler, scenarios: ScenarioAnswers): RequestHandler {
  const targets = ['data', resource.name] as const;
  return (req, res, next) => {
    authenticateData(req, res, (refused?: unknown) => {
      if (refused !== undefined) {
        next(refused);
        return;
      }
      void limit(req, res, (limited?: unknown) => {
        if (limited !== undefined) {
          next(limited);
          return;
        }
        const account = authenticatedAccount(res);
        scenarios(req, res, { targets, account: { tool: account.tool, login: account.login } })
          .then(() => resource.answer(req, res, account))
          .catch(next);
      });
    });
  };
}

export interface DataPath {
  /** The router's route of the path: the request's `req.route`, as if the router had matched it (the metrics' route label). */
  readonly route: IRoute;
  readonly paramNames: readonly string[];
  readonly serve: RequestHandler;
}

/**
 * The raw-data resources by the segment of their paths after /api/ (`events` of
 * `/events/:start/:end/:period/:phone`) and their number of params (`profile` has a path of four, the
 * caller profile, and one of three, the geographic report), for GET and HEAD requests whose path has the resource's shape
 * in plain segments: none empty, nothing percent-encoded, `/api/` and the name as the router matches
 * them, one trailing slash allowed. Those are served with the params the router would give, their errors
 * held to the contract's statuses as the router's are; every other request goes on. Kept for what it
 * spares every report: the router's matching of each layer in front of the API's own, and the objects it
 * makes per layer (docs/performance-costs.md, "Hand-written shortcuts on Node.js 24").
 */
export class DataPaths {
  /** By name, then by number of params. */
  private readonly byName = new Map<string, DataPath[]>();
  private readonly heldToContract = contractStatuses();

  add(pattern: string, route: IRoute, serve: RequestHandler): void {
    const [, name, ...params] = pattern.split('/');
    const key = String(name).toLowerCase();
    const shapes = this.byName.get(key) ?? [];
    shapes[params.length] = { route, serve, paramNames: params.map((param) => param.slice(1)) };
    this.byName.set(key, shapes);
  }

  readonly dispatch: RequestHandler = (req, res, next) => {
    const found = req.method === 'GET' || req.method === 'HEAD' ? this.match(req) : undefined;
    if (found === undefined) {
      next();
      return;
    }
    req.route = found.route;
    found.serve(req, res, (error?: unknown) => {
      if (error === undefined) next();
      else this.heldToContract(error, req, res, next);
    });
  };

  /** The resource a request's path names in a shape this takes plainly, its params set on `req`; undefined: the router's. */
  match(req: Pick<Request, 'path' | 'params'>): DataPath | undefined {
    const path = req.path;
    if (!path.startsWith(`${API_PATH}/`)) return undefined;
    const segments = path.split('/');
    if (segments.length > 4 && segments[segments.length - 1] === '') segments.pop();
    const name = String(segments[2]);
    // The router matches in any letter case; clients send the names as the specification spells them.
    const found = (this.byName.get(name) ?? this.byName.get(name.toLowerCase()))?.[segments.length - 3];
    if (found === undefined) return undefined;
    const params: Record<string, string> = {};
    for (let index = 0; index < found.paramNames.length; index += 1) {
      const segment = segments[index + 3] as string;
      if (segment === '' || segment.includes('%')) return undefined;
      params[found.paramNames[index] as string] = segment;
    }
    req.params = params;
    return found;
  }
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
