import { Router, type RequestHandler } from 'express';
import { methodNotAllowed } from '../http/error-handler';
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
 * own changes of state; the request metrics count the probes).
 */
export function probeRouter(readiness: Readiness): Router {
  const router = Router();
  router.route('/healthz').get(liveness()).all(methodNotAllowed(['GET', 'HEAD']));
  router.route('/readyz').get(readinessRoute(readiness)).all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
