/**
 * The app under measurement of bench/events.ts, in a process of its own (pinned to a core by the parent,
 * its standard output, the access log at LOG_LEVEL=info, into a file): the real app over a small and a
 * large call history (answering from kept reports after the first request), the app over the large
 * history with REPORT_CACHE_BYTES=0, which builds every report anew, and the app over the large history
 * with each piece of a request's fixed cost taken out in turn (`PIECES`), then all of them. Announces
 * their URLs; the baseline and the generator's ceiling are processes of their own
 * (plain-express-server.ts, ceiling-server.ts).
 */
import { credentialsFor, PHONES, storeWithCalls } from './bench-account';
import { serverModules } from './compiled';
import { appWithout, type Piece } from './pieces';
import { announce } from './processes';
import { settings } from './settings';

export interface Target {
  readonly url: string;
  readonly authorization: string;
}

/** The pieces of a kept report's fixed cost taken out in turn (bench/pieces.ts), then all of them. */
export const PIECES = ['access log lines', 'request metrics', 'data rate limit', 'credential check'] as const satisfies readonly Piece[];
export const ALL_PIECES = 'all four';

export interface EventServers {
  readonly smallCalls: number;
  readonly largeCalls: number;
  readonly heapMiB: number;
  /** One year by day, every number merged. */
  readonly year: { readonly path: string; readonly small: Target; readonly large: Target; readonly uncached: Target };
  /** Eight days by day, one number; `without`: the app with a piece taken out, or all of them. */
  readonly week: { readonly path: string; readonly large: Target; readonly without: Readonly<Record<(typeof PIECES)[number] | typeof ALL_PIECES, Target>> };
}

const YEAR = '/api/events/20250101/20251231/day/ALL';
const WEEK = `/api/events/20250106/20250113/day/${PHONES[0]}`;

async function main(): Promise<void> {
  const modules = await serverModules();
  const { composeApp, loadConfig, listen, listenOptions } = modules;
  const variables = { DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000', LOG_LEVEL: settings.serverLogLevel };
  const config = loadConfig(variables);
  const uncachedConfig = loadConfig({ ...variables, REPORT_CACHE_BYTES: '0' });
  const small = await storeWithCalls(30, 100);
  const large = await storeWithCalls(settings.eventsHistoryDays, 100);
  global.gc?.();
  const heapMiB = Math.round(process.memoryUsage().heapUsed / 1048576);
  const serve = async (app: ReturnType<typeof composeApp>) => {
    const { url } = await listen(app, '127.0.0.1', 0, listenOptions(config.server));
    return { url, authorization: await credentialsFor(url) };
  };
  /** The app as `npm start` composes it, logging at the configuration's LOG_LEVEL to standard output. */
  const app = (store: typeof small.store, appConfig = config) => serve(composeApp(appConfig, { store }));
  const account = await large.store.accounts.find('dev:bench');
  const without = (pieces: readonly Piece[]) => serve(appWithout({ modules, variables, store: large.store, account }, pieces));
  const [smallApp, largeApp, uncachedApp] = [await app(small.store), await app(large.store), await app(large.store, uncachedConfig)];
  const withoutEach = {} as Record<(typeof PIECES)[number] | typeof ALL_PIECES, Target>;
  for (const piece of PIECES) withoutEach[piece] = await without([piece]);
  withoutEach[ALL_PIECES] = await without(PIECES);
  const at = (target: Target, path: string): Target => ({ url: target.url + path, authorization: target.authorization });
  announce({
    smallCalls: small.calls,
    largeCalls: large.calls,
    heapMiB,
    year: { path: YEAR, small: at(smallApp, YEAR), large: at(largeApp, YEAR), uncached: at(uncachedApp, YEAR) },
    week: {
      path: WEEK,
      large: at(largeApp, WEEK),
      without: Object.fromEntries(Object.entries(withoutEach).map(([name, target]) => [name, at(target, WEEK)])) as EventServers['week']['without'],
    },
  } satisfies EventServers);
}

// Its measuring module imports its names: served only when run as the child process, not in the orchestrator.
if (require.main === module) void main();
