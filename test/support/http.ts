import type { Express } from 'express';
import { loadConfig } from '../../src/configuration';
import { listen, listenOptions, type RunningServer } from '../../src/listen';

/**
 * The connection settings of a default configuration, but no cap on connections per address: tests send
 * hundreds of requests at once from 127.0.0.1 (src/http/connection-guards/connection-guards.test.ts tests the cap).
 */
const TEST_LISTEN_OPTIONS = listenOptions(loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0' }).server);

/** A real HTTP server for the app on a free loopback port; close it in afterEach. */
export function serve(app: Express): Promise<RunningServer> {
  return listen(app, '127.0.0.1', 0, TEST_LISTEN_OPTIONS);
}

export function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}
