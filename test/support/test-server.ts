import { composeApp } from '../../src/composition-root';
import { loadConfig, type Config } from '../../src/configuration';
import { createLogger } from '../../src/logger';
import { createMemoryStore } from '../../src/storage/memory/memory-store';
import type { Store } from '../../src/storage/store';
import type { SurveyHandler } from '../../src/domain/survey-handler';
import { FakeClock } from './fake-clock';
import { serve } from './http';

export interface TestServer {
  /** e.g. http://127.0.0.1:40123 */
  readonly url: string;
  readonly store: Store;
  readonly clock: FakeClock;
  readonly config: Config;
  close(): Promise<void>;
}

export interface TestServerOptions {
  readonly clock?: FakeClock;
  readonly surveyHandler?: SurveyHandler;
}

/**
 * A fresh app on a fresh in-memory store, really listening on 127.0.0.1 and a free port, for clients
 * that need a socket (PHP's SoapClient, the soap package's client, raw HTTP).
 */
export async function startTestServer(env: NodeJS.ProcessEnv = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const config = loadConfig(env);
  const store = createMemoryStore();
  const clock = options.clock ?? new FakeClock();
  const app = composeApp(config, { store, clock, logger: createLogger('silent'), surveyHandler: options.surveyHandler });
  const running = await serve(app);
  return {
    url: running.url,
    store,
    clock,
    config,
    close: async () => {
      running.server.closeAllConnections();
      await running.close();
    },
  };
}
