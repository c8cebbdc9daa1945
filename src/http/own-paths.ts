/** A path the server's own routes answer at, and what answers there. */
export interface OwnPath {
  readonly path: string;
  readonly serves: string;
}

/**
 * Every path app.ts mounts the server's own routes at, each answering there and under it (the page at `/`
 * only there: every path is under it). A survey service's path is none of them nor under one, since the
 * mount first in app.ts's order would hide the other; `http/own-paths.test.ts` holds the list to what app.ts
 * mounts, so a new route is added here or fails that test.
 */
export const OWN_PATHS: readonly OwnPath[] = [
  { path: '/', serves: "the dashboard's reports page" },
  { path: '/api', serves: 'the reporting API' },
  { path: '/admin', serves: 'the admin API' },
  { path: '/healthz', serves: 'the liveness probe' },
  { path: '/readyz', serves: 'the readiness probe' },
  { path: '/metrics', serves: 'the metrics' },
  { path: '/openapi.json', serves: 'the OpenAPI document' },
  { path: '/docs', serves: 'the API reference' },
  { path: '/inspector', serves: "the call inspector's page" },
  { path: '/dashboard', serves: "the dashboard's files" },
];

/**
 * The own path a path is, or is under, as Express routes a request: in any letter case, with or without
 * one trailing slash; undefined when it is outside all of them.
 */
export function ownPathOf(path: string): OwnPath | undefined {
  const lower = path.toLowerCase();
  const bare = lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
  return OWN_PATHS.find((own) => bare === own.path || (own.path !== '/' && bare.startsWith(`${own.path}/`)));
}
