import type { Express } from 'express';
import request from 'supertest';
import { composeApp } from '../../src/composition-root';
import { loadConfig } from '../../src/configuration';
import { createLogger } from '../../src/logger';
import { createAppMetrics, type AppMetrics } from '../../src/operations/app-metrics';
import { shutdownState, type ShutdownState } from '../../src/operations/shutdown-state';
import type { Store } from '../../src/storage/store';
import { FakeClock } from './fake-clock';
import { LogLines } from './log-lines';
import { createTestStore } from './test-store';
import { SOAP_ACTION, svcEval } from '../survey-clients/support';

export interface OperationsApp {
  readonly app: Express;
  readonly store: Store;
  readonly metrics: AppMetrics;
  readonly clock: FakeClock;
  /** The app's shutdown state, for the test to begin. */
  readonly shutdown: ShutdownState;
  /** Every log line at debug and above, parsed. */
  readonly logs: LogLines;
}

/**
 * An app with its metrics in the test's hands and its log lines kept; `random`, when given, is what the
 * sandbox's delays draw from.
 */
export function buildOperationsApp(
  env: NodeJS.ProcessEnv = {},
  store: Store = createTestStore(),
  clock = new FakeClock(),
  random?: () => number,
): OperationsApp {
  const metrics = createAppMetrics();
  const logs = new LogLines();
  const shutdown = shutdownState();
  const app = composeApp(loadConfig(env), { store, clock, logger: createLogger('debug', logs), metrics, shutdown, random });
  return { app, store, metrics, clock, shutdown, logs };
}

/** A counter's or gauge's value for exactly these labels, read from the app's registry; undefined when it has no such series. */
export async function valueOf(metrics: AppMetrics, name: string, labels: Readonly<Record<string, string>> = {}): Promise<number | undefined> {
  const metric = metrics.registry.getSingleMetric(name);
  if (metric === undefined) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const wanted = JSON.stringify(Object.entries(labels).sort());
  return values.find((value) => JSON.stringify(Object.entries(value.labels).sort()) === wanted)?.value;
}

/** The value of one series (`name{labels}` exactly as written) in a scrape's text; undefined when absent. */
export function sampleIn(text: string, series: string): string | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line?.slice(series.length + 1);
}

/** Temporary credentials of alice (addAccount's defaults) through POST /api/auth. */
export async function credentialsFrom(app: Express): Promise<{ login: string; password: string }> {
  const response = await request(app).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });
  if (response.status !== 200) throw new Error(`authentication failed: ${response.status} ${response.text}`);
  return response.body as { login: string; password: string };
}

/** One svcEval call without a session cookie: a new survey session. */
export function answerSurvey(app: Express): request.Test {
  return request(app)
    .post('/survey')
    .set({ 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: SOAP_ACTION })
    .send(svcEval(['Agree?'], ['yes']));
}
