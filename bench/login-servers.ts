/**
 * The servers of bench/logins.ts, in a process of their own so that the load generator does not share
 * their event loop: the app over one year of demo calls, once with tool-password hashing bounded to one
 * at a time (the default) and once with it bounded only by libuv's thread pool. Announces their URLs.
 */
import type * as App from '../src/app';
import type * as ConfigModule from '../src/config/config';
import type * as LoggerModule from '../src/logger';
import type * as ServerModule from '../src/server';
import type * as ClockModule from '../src/time/clock';
import { storeWithCalls, credentialsFor } from './bench-account';
import { compiled } from './compiled';
import { announce } from './processes';

const LIMITS = { DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000000000', REPORT_CACHE_BYTES: '0' };

async function main(): Promise<void> {
  const { createApp } = await compiled<typeof App>('app');
  const { loadConfig } = await compiled<typeof ConfigModule>('config/config');
  const { createLogger } = await compiled<typeof LoggerModule>('logger');
  const { listen } = await compiled<typeof ServerModule>('server');
  const { systemClock } = await compiled<typeof ClockModule>('time/clock');
  const { store } = await storeWithCalls(365, 60);
  const logger = createLogger('silent');
  const server = async (concurrency: number) => {
    const config = loadConfig({ ...LIMITS, PASSWORD_HASH_CONCURRENCY: String(concurrency) });
    const { url } = await listen(createApp({ config, store, clock: systemClock, logger }), '127.0.0.1', 0);
    return { url, concurrency, authorization: await credentialsFor(url) };
  };
  announce({ bounded: await server(1), unbounded: await server(64) });
}

void main();
