/**
 * The servers of bench/logins.ts, in a process of their own (pinned to a core by the parent, its standard
 * output, the access log at LOG_LEVEL=info, into a file): the app over one year of demo calls, once with
 * tool-password hashing bounded to one at a time (the default) and once with it bounded only by libuv's
 * thread pool. Announces their URLs.
 */
import { storeWithCalls, credentialsFor } from './bench-account';
import { serverModules } from './compiled';
import { announce } from './processes';
import { settings } from './settings';

// AUTH_CACHE_SECONDS=0: the load is one scrypt hash per login, as the row says, not a remembered password's digest.
const VARIABLES = {
  DATA_RATE_LIMIT: '1000000000',
  AUTH_RATE_LIMIT: '1000000000',
  AUTH_CACHE_SECONDS: '0',
  REPORT_CACHE_BYTES: '0',
  LOG_LEVEL: settings.serverLogLevel,
};

async function main(): Promise<void> {
  const { composeApp, loadConfig, listen, listenOptions } = await serverModules();
  const { store } = await storeWithCalls(365, 60);
  const server = async (concurrency: number) => {
    const config = loadConfig({ ...VARIABLES, PASSWORD_HASH_CONCURRENCY: String(concurrency) });
    const { url } = await listen(composeApp(config, { store }), '127.0.0.1', 0, listenOptions(config.server));
    return { url, concurrency, authorization: await credentialsFor(url) };
  };
  announce({ bounded: await server(1), unbounded: await server(64) });
}

void main();
