import type { Express, Request } from 'express';

const ROUTE = Symbol('route');
const PATTERN = Symbol('route pattern');

interface PatternedRequest {
  baseUrl: string;
  [ROUTE]?: { path: unknown };
  [PATTERN]?: string;
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
    set(this: PatternedRequest, route: { path: unknown }) {
      this[ROUTE] = route;
      const pattern = `${this.baseUrl}${String(route.path)}`;
      this[PATTERN] = pattern.length > 1 && pattern.endsWith('/') ? pattern.slice(0, -1) : pattern;
    },
  });
}

/** The full pattern of the route that matched the request last, if any did. */
export function routePattern(req: Request): string | undefined {
  return (req as unknown as PatternedRequest)[PATTERN];
}
