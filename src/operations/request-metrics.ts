import type { Express } from 'express';
import type { RequestStep } from '../http/request-edge';
import { performance } from 'node:perf_hooks';
import { UNKNOWN_ROUTE, type AppMetrics } from './app-metrics';
import { routePatterns } from './route-patterns';

const STARTED = Symbol('request metrics start');

interface TimedRequest {
  [STARTED]?: number;
}

/**
 * Counts and times every request of the app, from its arrival to the end of its answer (or the client's
 * leaving), labelled by route pattern, method and status. Mounted first, so it sees every request, the
 * probes and 404s included. The request id (set later by the access log, absent for the probes) is read
 * when the answer ends and becomes the latency exemplar, so a slow bucket in Prometheus leads to the
 * very log line of its request.
 */
export function requestMetrics(app: Express, metrics: Pick<AppMetrics, 'requestFinished'>): RequestStep {
  const routePattern = routePatterns(app);
  return {
    arrived: (req) => {
      (req as TimedRequest)[STARTED] = performance.now();
    },
    closed: (res) => {
      const req = res.req;
      const started = (req as TimedRequest)[STARTED] ?? performance.now();
      const seconds = (performance.now() - started) / 1000;
      metrics.requestFinished(routePattern(req) ?? UNKNOWN_ROUTE, req.method, res.writableFinished ? res.statusCode : 'aborted', seconds, req.id);
    },
  };
}
