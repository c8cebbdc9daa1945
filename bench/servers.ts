/**
 * The app under measurement of bench/events.ts, in a process of its own (pinned to a core by the parent,
 * its standard output, the access log at LOG_LEVEL=info, into a file): the real app over a small and a
 * large call history (answering from kept reports after the first request), and the app over the large
 * history with REPORT_CACHE_BYTES=0, which builds every report anew. Announces their URLs; the baseline
 * and the generator's ceiling are processes of their own (plain-express-server.ts, ceiling-server.ts).
 */
import { credentialsFor, PHONES, storeWithCalls } from './bench-account';
import { serverModules } from './compiled';
import { announce } from './processes';
import { settings } from './settings';

export interface Target {
  readonly url: string;
  readonly authorization: string;
}

export interface EventServers {
  readonly smallCalls: number;
  readonly largeCalls: number;
  readonly heapMiB: number;
  /** One year by day, every number merged. */
  readonly year: { readonly path: string; readonly small: Target; readonly large: Target; readonly uncached: Target };
  /** Eight days by day, one number. */
  readonly week: { readonly path: string; readonly large: Target };
}

const YEAR = '/api/events/20250101/20251231/day/ALL';
const WEEK = `/api/events/20250106/20250113/day/${PHONES[0]}`;

async function main(): Promise<void> {
  const { composeApp, loadConfig, listen, listenOptions } = await serverModules();
  const variables = { DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000', LOG_LEVEL: settings.serverLogLevel };
  const config = loadConfig(variables);
  const uncachedConfig = loadConfig({ ...variables, REPORT_CACHE_BYTES: '0' });
  const small = await storeWithCalls(30, 100);
  const large = await storeWithCalls(settings.eventsHistoryDays, 100);
  global.gc?.();
  const heapMiB = Math.round(process.memoryUsage().heapUsed / 1048576);
  /** The app as `npm start` composes it, logging at the configuration's LOG_LEVEL to standard output. */
  const app = async (store: typeof small.store, appConfig = config) => {
    const { url } = await listen(composeApp(appConfig, { store }), '127.0.0.1', 0, listenOptions(appConfig.server));
    return { url, authorization: await credentialsFor(url) };
  };
  const [smallApp, largeApp, uncachedApp] = [await app(small.store), await app(large.store), await app(large.store, uncachedConfig)];
  const at = (target: Target, path: string): Target => ({ url: target.url + path, authorization: target.authorization });
  announce({
    smallCalls: small.calls,
    largeCalls: large.calls,
    heapMiB,
    year: { path: YEAR, small: at(smallApp, YEAR), large: at(largeApp, YEAR), uncached: at(uncachedApp, YEAR) },
    week: { path: WEEK, large: at(largeApp, WEEK) },
  } satisfies EventServers);
}

void main();
