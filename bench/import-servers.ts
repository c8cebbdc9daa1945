/**
 * The servers of bench/admin-import.ts, in a process of their own so the load generator does not share
 * their event loop: the app with the admin API, once over a fresh memory store for version-1 records and
 * once for version-2 records (each store's account owning 20 numbers), and the bare node:http server
 * that only parses each line (the baseline). Announces their URLs.
 */
import { startBareNdjsonServer } from './bare-ndjson-server';
import { benchAccountStore, TWENTY_PHONES } from './bench-account';
import { serverModules } from './compiled';
import { announce } from './processes';

export interface ImportServers {
  readonly baseline: string;
  readonly v1: string;
  readonly v2: string;
  readonly token: string;
}

const TOKEN = 'bench-admin-token-0123456789';

async function main(): Promise<void> {
  const { composeApp, loadConfig, createLogger, listen, listenOptions } = await serverModules();
  const config = loadConfig({ ADMIN_TOKEN: TOKEN, ADMIN_RATE_LIMIT: '1000000000' });
  const logger = createLogger('silent');
  const admin = async () => {
    const store = await benchAccountStore(TWENTY_PHONES);
    const { url } = await listen(composeApp(config, { store, logger }), '127.0.0.1', 0, listenOptions(config.server));
    return `${url}/admin/calls`;
  };
  announce({ baseline: (await startBareNdjsonServer()).url, v1: await admin(), v2: await admin(), token: TOKEN } satisfies ImportServers);
}

void main();
