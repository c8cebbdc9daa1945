import { z } from 'zod';
import { bearerToken, integer } from '../config/variables';

/** The probes, the metrics and the shutdown. */
export const operationsSettings = z
  .object({
    METRICS_TOKEN: bearerToken,
    READINESS_TIMEOUT_SECONDS: integer(1, 60).default(2),
    SHUTDOWN_DRAIN_SECONDS: integer(0, 3600).default(0),
  })
  .transform((variables) => ({
    /** Bearer token of GET /metrics; unset: the metrics are open to whoever reaches the server. */
    metricsToken: variables.METRICS_TOKEN,
    /** How long GET /readyz waits for each dependency's answer before it reports it unavailable (503). */
    readinessTimeoutSeconds: variables.READINESS_TIMEOUT_SECONDS,
    /**
     * How long the server keeps serving after SIGTERM or SIGINT while GET /readyz answers 503, before it
     * stops accepting and finishes the requests in flight; a second signal ends the wait.
     */
    shutdownDrainSeconds: variables.SHUTDOWN_DRAIN_SECONDS,
  }));

export type OperationsSettings = z.output<typeof operationsSettings>;
