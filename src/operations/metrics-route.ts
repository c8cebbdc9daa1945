import type { Express, Request, RequestHandler } from 'express';
import { errors } from '../errors/catalogue';
import { requireBearerToken } from '../http/bearer-token';
import { getOnlyAtMountPath } from '../http/get-only-router';
import { preferredMediaType } from '../http/representation';
import type { AppMetrics } from './app-metrics';
import { CONTENT_TYPES, exposition, type ExpositionFormat } from './exposition';
import { processMetrics } from './process-metrics';

export const METRICS_REALM = 'ivr-reporting metrics';

export interface MetricsServices {
  readonly metrics: AppMetrics;
  /** METRICS_TOKEN; undefined: the metrics are open. */
  readonly token: string | undefined;
  /** Live survey sessions, from the store. */
  readonly liveSurveySessions: () => Promise<number>;
  /** How long a scrape waits for the store's count (READINESS_TIMEOUT_SECONDS): the metrics must come even when the store does not. */
  readonly storeTimeoutSeconds: number;
}

/** The exposition's media types, the text format first: what a scraper that states no preference gets. */
const EXPOSITION_TYPES = { prometheus: 'text/plain', openmetrics: 'application/openmetrics-text' } as const satisfies Record<ExpositionFormat, string>;

/**
 * OpenMetrics (with the latency exemplars) when the scraper prefers it, as Prometheus does; else the
 * Prometheus text format, even for a scraper that accepts neither: either format is served in one version.
 */
function negotiatedExposition(req: Request): ExpositionFormat {
  return preferredMediaType(req, Object.values(EXPOSITION_TYPES)) === EXPOSITION_TYPES.openmetrics ? 'openmetrics' : 'prometheus';
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    work.then(resolve, () => resolve(undefined)).finally(() => clearTimeout(timer));
  });
}

function scrape({ metrics, liveSurveySessions, storeTimeoutSeconds }: MetricsServices): RequestHandler {
  return async (req, res) => {
    metrics.surveySessionsLive(await withTimeout(Promise.resolve().then(liveSurveySessions), storeTimeoutSeconds * 1000));
    const format = negotiatedExposition(req);
    const text = await exposition([processMetrics(), metrics.registry], format);
    res.status(200).vary('Accept').set({ 'Content-Type': CONTENT_TYPES[format], 'Cache-Control': 'no-store' }).send(text);
  };
}

/**
 * GET /metrics for Prometheus: the process's default metrics and the app's own, outside every rate-limit
 * group; with METRICS_TOKEN set, only for `Authorization: Bearer <METRICS_TOKEN>` (401 with its own
 * Bearer challenge otherwise, through the error catalogue). Mounted after the access log: scrapes, and
 * above all refused ones, are logged.
 */
export function mountMetrics(app: Express, services: MetricsServices): void {
  const guard: RequestHandler[] =
    services.token === undefined ? [] : [requireBearerToken(services.token, () => errors.metricsUnauthorized(METRICS_REALM))];
  app.use('/metrics', getOnlyAtMountPath([...guard, scrape(services)]));
}
