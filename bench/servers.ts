/**
 * The servers of bench/events.ts, in a process of their own so the load generator does not share their
 * event loop: the real app over a small and a large call history (answering from kept reports after the
 * first request), the app over the large history with REPORT_CACHE_BYTES=0, which builds every report
 * anew, and a plain Express route per query returning the exact bytes the app sends for it (the
 * baselines). Announces their URLs.
 */
import express from 'express';
import { credentialsFor, PHONES, storeWithCalls } from './bench-account';
import { serverModules } from './compiled';
import { announce } from './processes';
import { settings } from './settings';

export interface Target {
  readonly url: string;
  readonly authorization?: string;
}

export interface Query {
  readonly path: string;
  readonly bodyBytes: number;
  readonly baseline: Target;
}

export interface EventServers {
  readonly smallCalls: number;
  readonly largeCalls: number;
  readonly heapMiB: number;
  /** One year by day, every number merged. */
  readonly year: Query & { readonly small: Target; readonly large: Target; readonly uncached: Target };
  /** Eight days by day, one number. */
  readonly week: Query & { readonly large: Target };
}

const YEAR = '/api/events/20250101/20251231/day/ALL';
const WEEK = `/api/events/20250106/20250113/day/${PHONES[0]}`;

async function main(): Promise<void> {
  const { composeApp, loadConfig, createLogger, listen, listenOptions } = await serverModules();
  const config = loadConfig({ DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000' });
  const uncachedConfig = loadConfig({ DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000', REPORT_CACHE_BYTES: '0' });
  const logger = createLogger('silent');
  const small = await storeWithCalls(30, 100);
  const large = await storeWithCalls(settings.eventsHistoryDays, 100);
  global.gc?.();
  const heapMiB = Math.round(process.memoryUsage().heapUsed / 1048576);
  const app = async (store: typeof small.store, appConfig = config) => {
    const { url } = await listen(composeApp(appConfig, { store, logger }), '127.0.0.1', 0, listenOptions(appConfig.server));
    return { url, authorization: await credentialsFor(url) };
  };
  const [smallApp, largeApp, uncachedApp] = [await app(small.store), await app(large.store), await app(large.store, uncachedConfig)];
  const baseline = express();
  /** The bytes the app answers `path` with, which the baseline then sends as they are. */
  const sameBytes = async (path: string): Promise<Omit<Query, 'baseline'>> => {
    const response = await fetch(largeApp.url + path, { headers: { authorization: largeApp.authorization } });
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    const body = await response.text();
    baseline.get(path, (_req, res) => {
      res.type('application/json; charset=utf-8').send(body);
    });
    return { path, bodyBytes: Buffer.byteLength(body) };
  };
  const [year, week] = [await sameBytes(YEAR), await sameBytes(WEEK)];
  const baselineServer = await listen(baseline, '127.0.0.1', 0, listenOptions(config.server));
  const at = (target: { url: string; authorization?: string }, path: string): Target => ({ url: target.url + path, authorization: target.authorization });
  const servers: EventServers = {
    smallCalls: small.calls,
    largeCalls: large.calls,
    heapMiB,
    year: { ...year, baseline: { url: baselineServer.url + YEAR }, small: at(smallApp, YEAR), large: at(largeApp, YEAR), uncached: at(uncachedApp, YEAR) },
    week: { ...week, baseline: { url: baselineServer.url + WEEK }, large: at(largeApp, WEEK) },
  };
  announce(servers);
}

void main();
