import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CONTENT_TYPES } from './exposition';
import { METRICS_REALM } from './metrics-route';
import type { ReadinessReport } from './readiness';
import { errorResponse, jsonOnly } from '../http/openapi/components';

export const MONITORING_TAG = 'Monitoring';
export const METRICS_AUTH = 'metricsToken';

const NOT_STORED = {
  'Cache-Control': { description: 'The answer is never to be kept', required: true, schema: { type: 'string' as const, enum: ['no-store'] } },
};

const livenessSchema = z.strictObject({ status: z.literal('ok') }).meta({ id: 'Liveness' });

const checkStatus = z.enum(['ready', 'unavailable']);

/** GET /readyz's body, checked against the report's type where src/operations/readiness.ts declares it. */
const readinessSchema = z
  .strictObject({
    status: checkStatus.meta({ description: 'ready only when every check but the optional ones is' }),
    checks: z
      .record(
        z.string(),
        z.strictObject({
          status: checkStatus,
          reason: z.string().optional().meta({ description: 'Why not, when unavailable; the server log has the cause' }),
          optional: z
            .literal(true)
            .optional()
            .meta({ description: 'A read replica (`replica-N`): shown, not counted in `status`, since the primary answers its reads while it is down' }),
        }),
      )
      .meta({
        description: "Each of the store's dependencies by name (`store`, `redis`, `replica-N`), and `server` (unavailable) once the process is shutting down",
      }),
  })
  .meta({ id: 'Readiness' }) satisfies z.ZodType<ReadinessReport>;

const mediaType = (contentType: string): string => contentType.split(';')[0] as string;

/** The load balancer's probes and Prometheus's scrape, outside every rate-limit group. */
export function registerMonitoringOperations(registry: OpenAPIRegistry, { metricsBehindToken }: { readonly metricsBehindToken: boolean }): void {
  registry.registerPath({
    method: 'get',
    path: '/healthz',
    operationId: 'getLiveness',
    tags: [MONITORING_TAG],
    summary: 'Liveness: the process answers',
    description: 'Checks nothing else, so that a restart is the cure for what it reports. Not logged.',
    security: [],
    responses: { 200: { description: 'Alive', headers: NOT_STORED, content: jsonOnly(livenessSchema) } },
  });
  registry.registerPath({
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    tags: [MONITORING_TAG],
    summary: "Readiness: the store's dependencies answer",
    description: 'Each dependency checked at once, each within READINESS_TIMEOUT_SECONDS. Not logged.',
    security: [],
    responses: {
      200: { description: 'Every check is ready', headers: NOT_STORED, content: jsonOnly(readinessSchema) },
      503: { description: 'A check is unavailable, or the server is shutting down', headers: NOT_STORED, content: jsonOnly(readinessSchema) },
    },
  });
  if (metricsBehindToken) {
    registry.registerComponent('securitySchemes', METRICS_AUTH, { type: 'http', scheme: 'bearer', description: "The server's METRICS_TOKEN." });
  }
  const exposition = (format: string) => ({ schema: z.string().meta({ description: `The metrics in the ${format} text format` }) });
  registry.registerPath({
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    tags: [MONITORING_TAG],
    summary: 'Metrics for Prometheus',
    description:
      "The process's metrics and the server's own; OpenMetrics (with exemplars) when Accept prefers application/openmetrics-text. " +
      (metricsBehindToken ? 'Behind METRICS_TOKEN as a Bearer token.' : 'Open: METRICS_TOKEN is not set.'),
    security: metricsBehindToken ? [{ [METRICS_AUTH]: [] }] : [],
    responses: {
      200: {
        description: 'The metrics',
        headers: NOT_STORED,
        content: { [mediaType(CONTENT_TYPES.prometheus)]: exposition('Prometheus'), [mediaType(CONTENT_TYPES.openmetrics)]: exposition('OpenMetrics') },
      },
      ...(!metricsBehindToken
        ? {}
        : {
            401: errorResponse('Missing or wrong metrics token', {
              xml: true,
              headers: {
                'WWW-Authenticate': registry.registerComponent('headers', 'WWW-Authenticate-Metrics', {
                  description: `The challenge: Bearer realm="${METRICS_REALM}"`,
                  required: true,
                  schema: { type: 'string' },
                }).ref,
              },
            }),
          }),
    },
  });
}
