import type { Express, Request } from 'express';

const ROUTE = Symbol('route');
const PATTERN = Symbol('route pattern');
const LAST_PATTERN = Symbol('last pattern of the route');

/** A route of Express, which keeps the pattern it last gave, and the mount path it was under then. */
interface PatternedRoute {
  path: unknown;
  [LAST_PATTERN]?: { readonly baseUrl: string; readonly pattern: string };
}

interface PatternedRequest {
  baseUrl: string;
  [ROUTE]?: PatternedRoute;
  [PATTERN]?: string;
}

function patternOf(route: PatternedRoute, baseUrl: string): string {
  const last = route[LAST_PATTERN];
  if (last !== undefined && last.baseUrl === baseUrl) return last.pattern;
  const joined = `${baseUrl}${String(route.path)}`;
  const pattern = joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
  route[LAST_PATTERN] = { baseUrl, pattern };
  return pattern;
}

/**
 * Records, for each request of this app, the full pattern of the route that answers it
 * (`/api/events/:start/:end/:period/:phone`), never the path asked (one label value per route, not per
 * phone and date). Express sets `req.route` when a route matches, while `req.baseUrl` is the mount path
 * of the router that holds the route; by the time an error handler answers, that router has restored
 * `req.baseUrl`. So the pattern is taken at that assignment, through an accessor on this app's own
 * request prototype (`app.request`), which costs nothing per request and touches no other app.
 */
export function recordRoutePatterns(app: Express): void {
  Object.defineProperty(app.request, 'route', {
    configurable: true,
    enumerable: true,
    get(this: PatternedRequest) {
      return this[ROUTE];
    },
    // A route is almost always reached under one mount path: its pattern is joined once, not per request.
    set(this: PatternedRequest, route: PatternedRoute) {
      this[ROUTE] = route;
      this[PATTERN] = patternOf(route, this.baseUrl);
    },
  });
}

/** The full pattern of the route that matched the request last, if any did. */
export function routePattern(req: Request): string | undefined {
  return (req as unknown as PatternedRequest)[PATTERN];
}
