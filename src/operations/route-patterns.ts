import type { Express, Request } from 'express';

/** What the walk reads of Express's (the router package's) layers: a route, or a router mounted at a path. */
interface Layer {
  readonly rawPath?: unknown;
  readonly route?: { readonly path: unknown };
  readonly handle?: { readonly stack?: readonly Layer[] };
}

/** A path of a layer or route as text: its first path when it has several. */
const pathText = (path: unknown): string => String(Array.isArray(path) ? path[0] : path);

/** `/api` and `/events/:start`, or `/metrics` and `/`, joined into one pattern without a trailing slash. */
function joined(prefix: string, path: string): string {
  const pattern = prefix + path;
  return pattern.length > 1 && pattern.endsWith('/') ? pattern.slice(0, -1) : pattern;
}

function walk(stack: readonly Layer[], prefix: string, patterns: Map<object, string>): void {
  for (const layer of stack) {
    if (layer.route !== undefined) {
      if (!patterns.has(layer.route)) patterns.set(layer.route, joined(prefix, pathText(layer.route.path)));
    } else if (layer.handle?.stack !== undefined) {
      const mountPath = pathText(layer.rawPath);
      walk(layer.handle.stack, mountPath === '/' ? prefix : joined(prefix, mountPath), patterns);
    }
  }
}

/**
 * The full pattern (`/api/events/:start/:end/:period/:phone`) of every route of the app, by route, from
 * one walk of its routers once they are all mounted: never the path asked, so one label value per route,
 * not per phone and date. Nothing is done per request: the request's route is `req.route`, the last one
 * Express matched, which it never unsets, so an answer from the error handler keeps it. (An accessor on
 * the request prototype catching `req.route` as it was set, tried first, slowed every property store on
 * requests by several microseconds.) Not a speed path: `req.baseUrl + req.route.path`, the library's own
 * reading, gives other labels: `/healthz/` for a route mounted at a path, the letter case the client sent
 * (`/ADMIN/accounts`), and for an answer from the error handler the route without its mount (`/auth`,
 * `/events/...`, and `/` for a 405 on /healthz, the dashboard's label).
 */
export function routePatterns(app: Express): (req: Request) => string | undefined {
  let patterns: Map<object, string> | undefined;
  return (req) => {
    const route = req.route as object | undefined;
    if (route === undefined) return undefined;
    if (patterns === undefined) {
      patterns = new Map();
      walk((app.router as unknown as { stack: readonly Layer[] }).stack, '', patterns);
    }
    return patterns.get(route);
  };
}
