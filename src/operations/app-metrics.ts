import { Counter, Gauge, Histogram, Registry, type OpenMetricsContentType } from 'prom-client';
import type { RateLimitRefusals } from '../rate-limit/groups';
import { processMetrics } from './process-metrics';
import type { ScenarioAnswerCounter } from '../sandbox/sandbox';
import type { ReplicaReadCount } from '../storage/store';

/** What a request's answer was: its status code, or `aborted` when the client left before it was complete. */
export type Outcome = number | 'aborted';

/** Records of an import, counted as each is settled: rejected as it is read, the others as the store answers their batch. */
export interface ImportedCalls {
  readonly inserted: number;
  readonly duplicates: number;
  readonly rejected: number;
}

export interface ImportedCallsCounter {
  callsImported(records: ImportedCalls): void;
}

/**
 * The application's metrics, one set per app: a prom-client Registry of its own (never prom-client's
 * global one, since one process may build many apps), written through the narrow methods its users
 * need. The process's metrics (event-loop delay, memory, CPU) are apart: see process-metrics.ts.
 */
export interface AppMetrics extends RateLimitRefusals, ImportedCallsCounter, ScenarioAnswerCounter {
  /** This app's metrics: what a scrape exposes besides the process's, and what tests read values from. */
  readonly registry: Registry<OpenMetricsContentType>;
  /**
   * One finished (or abandoned) HTTP request: the route pattern that answered (or UNKNOWN_ROUTE), its
   * method, its outcome, its seconds from arrival to the end of the answer, and its id (X-Request-Id),
   * the latency exemplar's label (none for the probes).
   */
  requestFinished(route: string, method: string, outcome: Outcome, seconds: number, requestId: string | undefined): void;
  /** Shows a dependency's error counter (at 0) before its first error. */
  dependencyWatched(dependency: string): void;
  /** A store call failed because of this dependency (a StoreDependency's name). */
  dependencyFailed(dependency: string): void;
  /** Live survey sessions, as the store counts them at scrape time; undefined (no sample) when it did not answer. */
  surveySessionsLive(count: number | undefined): void;
  /** Where the replica reads' counter comes from at each scrape: the store's replicas (none without them). */
  replicaReadsFrom(counts: () => readonly ReplicaReadCount[]): void;
}

/** The route label of a request no route answered (a 404): one value, whatever the path. */
export const UNKNOWN_ROUTE = 'unknown';

/** Seconds: reports and logins take milliseconds, an import of a large file minutes. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/** Every metric name, as docs/operations.md lists them. */
export const METRIC_NAMES = {
  requests: 'ivr_http_requests_total',
  latency: 'ivr_http_request_duration_seconds',
  refusals: 'ivr_rate_limit_refusals_total',
  importedCalls: 'ivr_imported_calls_total',
  dependencyErrors: 'ivr_dependency_errors_total',
  surveySessions: 'ivr_survey_sessions_live',
  scenarioAnswers: 'ivr_scenario_answers_total',
  replicaReads: 'ivr_replica_reads_total',
} as const;

export function createAppMetrics(): AppMetrics {
  // Started now, so the first scrape's event-loop figures cover the time since.
  processMetrics();
  // OpenMetrics, as prom-client requires of a registry whose metrics keep exemplars; never written out
  // itself (its metrics() renames counters): a scrape writes it through exposition.ts, in either format.
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  const registers = [registry];
  // prom-client's own metrics: plain numbers written in its shapes at scrape bought too little of a request
  // to keep (docs/performance-costs.md, "Hand-written shortcuts on Node.js 24").
  const requests = new Counter({
    name: METRIC_NAMES.requests,
    help: 'HTTP requests answered, by route pattern, method and status (aborted: the client left first).',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: METRIC_NAMES.latency,
    help: 'Time from a request\'s arrival to the end of its answer, by route pattern and method; exemplars carry the request id.',
    labelNames: ['route', 'method'] as const,
    buckets: LATENCY_BUCKETS,
    enableExemplars: true,
    registers,
  });
  const refusals = new Counter({
    name: METRIC_NAMES.refusals,
    help: 'Requests refused with 429 by a rate-limit group (authentication, data, their windows of requests tied to no account, admin, survey).',
    labelNames: ['group'] as const,
    registers,
  });
  const importedCalls = new Counter({
    name: METRIC_NAMES.importedCalls,
    help: 'Call records of POST /admin/calls imports, by outcome: ingested (stored), duplicate (call id already stored), rejected.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const dependencyErrors = new Counter({
    name: METRIC_NAMES.dependencyErrors,
    help: 'Store calls that failed because of a dependency: store (PostgreSQL) or redis.',
    labelNames: ['dependency'] as const,
    registers,
  });
  const surveySessions = new Gauge({
    name: METRIC_NAMES.surveySessions,
    help: 'Survey sessions not expired, counted in the store at scrape time (shared by every instance); no sample when the store did not answer.',
    registers,
  });
  const scenarioAnswers = new Counter({
    name: METRIC_NAMES.scenarioAnswers,
    help: 'Answers the sandbox\'s failure scenarios forced or delayed, by target (auth, data, a report\'s name, survey) and answer (the connection fault: reset, empty, truncated or drip; else the status forced; else delay).',
    labelNames: ['target', 'answer'] as const,
    registers,
  });
  for (const outcome of ['ingested', 'duplicate', 'rejected']) importedCalls.inc({ outcome }, 0);
  // The store counts them as plain numbers, read only when scraped: a report's read costs no label set.
  let replicaReadCounts: () => readonly ReplicaReadCount[] = () => [];
  new Counter({
    name: METRIC_NAMES.replicaReads,
    help:
      "Reads of reports meant for a read replica, by replica and outcome: answered by it; read from the primary because it was behind the account's data or failed " +
      '(an error, or no answer within DEPENDENCY_TIMEOUT_SECONDS); set-aside (replica none): every replica had failed lately.',
    labelNames: ['replica', 'outcome'] as const,
    registers,
    collect() {
      this.reset();
      for (const { replica, outcome, count } of replicaReadCounts()) this.inc({ replica, outcome }, count);
    },
  });

  return {
    registry,
    requestFinished: (route, method, outcome, seconds, requestId) => {
      requests.inc({ route, method, status: String(outcome) });
      // prom-client types an exemplar's labels as the metric's own; the request id is the exemplar's alone.
      const exemplarLabels = requestId === undefined ? undefined : ({ request_id: requestId } as Partial<Record<'route' | 'method', string>>);
      latency.observe({ labels: { route, method }, value: seconds, exemplarLabels });
    },
    refused: (group) => refusals.inc({ group }),
    callsImported: ({ inserted, duplicates, rejected }) => {
      if (inserted > 0) importedCalls.inc({ outcome: 'ingested' }, inserted);
      if (duplicates > 0) importedCalls.inc({ outcome: 'duplicate' }, duplicates);
      if (rejected > 0) importedCalls.inc({ outcome: 'rejected' }, rejected);
    },
    scenarioAnswered: (target, answer) => scenarioAnswers.inc({ target, answer }),
    dependencyWatched: (dependency) => dependencyErrors.inc({ dependency }, 0),
    dependencyFailed: (dependency) => dependencyErrors.inc({ dependency }),
    // Unknown: no sample at all (Prometheus's "no data"), rather than a number that is not the count.
    surveySessionsLive: (count) => (count === undefined ? surveySessions.remove() : surveySessions.set(count)),
    replicaReadsFrom: (counts) => {
      replicaReadCounts = counts;
    },
  };
}
