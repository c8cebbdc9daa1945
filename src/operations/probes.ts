import type { Express, Request, RequestHandler } from 'express';
import { getOnlyAtMountPath } from '../http/get-only-router';
import { liveness } from './health';
import type { Readiness } from './readiness';

/** GET /readyz: 200 when every check is ready, else 503; the body names each check either way. */
function readinessRoute(readiness: Readiness): RequestHandler {
  return async (_req, res) => {
    const report = await readiness();
    res
      .status(report.status === 'ready' ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json(report);
  };
}

const LIVENESS_PATH = '/healthz';
const READINESS_PATH = '/readyz';
/** With its trailing slash. */
const LONGEST_PROBE_PATH = Math.max(LIVENESS_PATH.length, READINESS_PATH.length) + 1;

/**
 * Whether the probes answer the request's path: one of theirs, in any letter case, with or without a
 * trailing slash, as their mounts match it. The access log leaves those requests out: a load balancer
 * asks every few seconds per instance, and those lines would bury the requests the log is for (the
 * readiness checks log their own changes of state; the request metrics count the probes).
 */
export function isProbeRequest(req: Request): boolean {
  const path = req.path;
  // Every request asks; the length rules out nearly all of them before any string is made.
  if (path.length > LONGEST_PROBE_PATH) return false;
  const lower = path.toLowerCase();
  const bare = lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
  return bare === LIVENESS_PATH || bare === READINESS_PATH;
}

/**
 * The load balancer's probes, GET /healthz (liveness) and GET /readyz (readiness), outside every
 * rate-limit group and authentication. Each at its own mount path, so that every other request passes
 * them by a path comparison rather than through a router.
 */
export function mountProbes(app: Express, readiness: Readiness): void {
  app.use(LIVENESS_PATH, getOnlyAtMountPath([liveness()]));
  app.use(READINESS_PATH, getOnlyAtMountPath([readinessRoute(readiness)]));
}
