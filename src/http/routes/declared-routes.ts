import type { IRoute, Request, RequestHandler, Router } from 'express';

/** What a declared route answers; a GET route answers HEAD too, as Express's routes do. */
export type DeclaredMethod = 'GET' | 'POST';

/** A route as its feature declares it: its method, its path under its router's mount, and its one handler (a `pipeline` of its steps). */
export interface DeclaredRoute {
  readonly method: DeclaredMethod;
  readonly path: string;
  readonly handle: RequestHandler;
}

interface Candidate {
  /** The pattern's segments: a literal to equal, or undefined for a param. */
  readonly segments: readonly (string | undefined)[];
  readonly paramNames: readonly string[];
  /** The router's route of the path: the request's `req.route`, as if the router had matched it. */
  readonly route: IRoute;
  readonly handle: RequestHandler;
}

/**
 * The app's declared routes, each added to its feature's router and, from the same declaration, to one
 * lookup that the app mounts in front of its other mounts: a request whose path is a declared route's as
 * sent (its literal segments equal, each param a plain segment: not empty, nothing percent-encoded; one
 * trailing slash allowed) is handed to that route's handler at once, with the params and `req.route` the
 * router would give. Any other spelling the router matches (another letter case, percent-encoding) goes
 * on to the router, which runs the same handler. Kept for what it spares every report and survey call:
 * the router's matching of each layer in front of the route (docs/performance-costs.md, "Hand-written
 * shortcuts on Node.js 24").
 */
export class DeclaredRoutes {
  /** By method and number of segments. */
  private readonly candidates = new Map<string, Candidate[]>();

  /** Declares a route on `router`, mounted at `mountPath` ('' at the app's root); answers the router's route, for what else the path answers. */
  declare(router: Router, mountPath: string, { method, path, handle }: DeclaredRoute): IRoute {
    const route = router.route(path);
    if (method === 'GET') route.get(handle);
    else route.post(handle);
    const segments = `${mountPath}${path}`.split('/');
    const key = `${method} ${segments.length}`;
    const candidate: Candidate = {
      segments: segments.map((segment) => (segment.startsWith(':') ? undefined : segment)),
      paramNames: segments.filter((segment) => segment.startsWith(':')).map((segment) => segment.slice(1)),
      route,
      handle,
    };
    this.candidates.set(key, [...(this.candidates.get(key) ?? []), candidate]);
    return route;
  }

  readonly dispatch: RequestHandler = (req, res, next) => {
    const found = this.match(req);
    if (found === undefined) {
      next();
      return;
    }
    req.route = found.route;
    found.handle(req, res, next);
  };

  /** The route a request's path names as sent, its params set on `req`; undefined: the router's to find. */
  match(req: Pick<Request, 'method' | 'path' | 'params'>): Candidate | undefined {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const segments = req.path.split('/');
    if (segments.length > 2 && segments[segments.length - 1] === '') segments.pop();
    const candidates = this.candidates.get(`${method} ${segments.length}`);
    if (candidates === undefined) return undefined;
    for (const candidate of candidates) {
      const params = paramsOf(candidate, segments);
      if (params !== undefined) {
        req.params = params;
        return candidate;
      }
    }
    return undefined;
  }
}

function paramsOf({ segments: pattern, paramNames }: Candidate, segments: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  let param = 0;
  for (let index = 0; index < pattern.length; index += 1) {
    const literal = pattern[index];
    const segment = segments[index] as string;
    if (literal !== undefined) {
      if (segment !== literal) return undefined;
    } else {
      if (segment === '' || segment.includes('%')) return undefined;
      params[paramNames[param] as string] = segment;
      param += 1;
    }
  }
  return params;
}
