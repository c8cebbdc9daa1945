import type { Express, RequestHandler } from 'express';
import { getOnlyAtMountPath } from '../http/get-only-router/get-only-router';
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

/**
 * The load balancer's probes, GET /healthz (liveness) and GET /readyz (readiness). Mounted outside every
 * rate-limit group and authentication, and before the access log: a load balancer asks every few seconds
 * per instance, and those lines would bury the requests the log is for (the readiness checks log their
 * own changes of state; the request metrics count the probes). Each at its own mount path, so that every
 * other request passes them by a path comparison rather than through a router.
 */
export function mountProbes(app: Express, readiness: Readiness): void {
  app.use('/healthz', getOnlyAtMountPath([liveness()]));
  app.use('/readyz', getOnlyAtMountPath([readinessRoute(readiness)]));
}
