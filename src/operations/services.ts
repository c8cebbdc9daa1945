import type { Logger } from 'pino';
import type { Store } from '../storage/store';
import type { Clock } from '../time/clock';
import type { AppMetrics } from './app-metrics';
import type { MetricsServices } from './metrics-route';
import { readiness, type Readiness } from './readiness';
import type { OperationsSettings } from './settings';
import type { ShutdownState } from './shutdown-state';

/** What the probes and the metrics endpoint are made of, built once in the composition root. */
export interface OperationsServices {
  readonly metrics: AppMetrics;
  readonly readiness: Readiness;
  readonly scrape: MetricsServices;
}

export interface OperationsDependencies {
  readonly metrics: AppMetrics;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: OperationsSettings;
  readonly shutdown: ShutdownState;
}

export function operationsServices({ metrics, store, clock, logger, settings, shutdown }: OperationsDependencies): OperationsServices {
  const { metricsToken, readinessTimeoutSeconds } = settings;
  const { replicas } = store;
  if (replicas !== undefined) metrics.replicaReadsFrom(() => replicas.counts());
  return {
    metrics,
    readiness: readiness(store.dependencies, { timeoutSeconds: readinessTimeoutSeconds, logger, shutdown }),
    scrape: {
      metrics,
      token: metricsToken,
      liveSurveySessions: () => store.surveySessions.live(clock.now()),
      storeTimeoutSeconds: readinessTimeoutSeconds,
    },
  };
}
