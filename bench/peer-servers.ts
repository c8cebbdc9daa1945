/**
 * The app of bench/peers.ts, in a process of its own (pinned to a core by the parent, its standard output,
 * the access log at LOG_LEVEL=info, into a file): the app as `npm start` composes it over a memory store
 * holding a year of generated calls of the bench account, its rate limits out of the way of the load.
 * Announces its URL and Basic credentials; the peers are started from its /openapi.json.
 */
import { addBenchHistory, benchAccountStore, credentialsFor, PHONES } from './bench-account';
import { serverModules } from './compiled';
import { announce } from './processes';
import { settings } from './settings';

export interface PeerApp {
  readonly url: string;
  readonly authorization: string;
  readonly calls: number;
}

/** Days of generated calls (3 numbers, about 300 calls a day): the year the 8-day report falls in. */
const HISTORY_DAYS = 365;

async function main(): Promise<void> {
  const { composeApp, loadConfig, listen, listenOptions } = await serverModules();
  const config = loadConfig({ DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000000000', LOG_LEVEL: settings.serverLogLevel });
  const store = await benchAccountStore(PHONES);
  const calls = await addBenchHistory(store, HISTORY_DAYS, 100);
  const { url } = await listen(composeApp(config, { store }), '127.0.0.1', 0, listenOptions(config.server));
  announce({ url, authorization: await credentialsFor(url), calls } satisfies PeerApp);
}

if (require.main === module) void main();
