/**
 * The servers of bench/logins.ts, in a process of their own so that the load generator does not share
 * their event loop: the app over one year of demo calls, once with tool-password hashing bounded to one
 * at a time (the default) and once with it bounded only by libuv's thread pool. Announces their URLs.
 */
import { storeWithCalls, credentialsFor } from './bench-account';
import { serverModules } from './compiled';
import { announce } from './processes';

const LIMITS = { DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000000000', REPORT_CACHE_BYTES: '0' };

async function main(): Promise<void> {
  const { composeApp, loadConfig, createLogger, listen, listenOptions } = await serverModules();
  const { store } = await storeWithCalls(365, 60);
  const logger = createLogger('silent');
  const server = async (concurrency: number) => {
    const config = loadConfig({ ...LIMITS, PASSWORD_HASH_CONCURRENCY: String(concurrency) });
    const { url } = await listen(composeApp(config, { store, logger }), '127.0.0.1', 0, listenOptions(config.server));
    return { url, concurrency, authorization: await credentialsFor(url) };
  };
  announce({ bounded: await server(1), unbounded: await server(64) });
}

void main();
