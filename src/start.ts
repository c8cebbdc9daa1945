import type { Logger } from 'pino';
import { createApp } from './app';
import { configWarnings, loadConfig, type Config } from './config/config';
import { createLogger } from './logger';
import { shutdownState, type ShutdownState } from './operations/shutdown-state';
import { listen, listenOptions, type RunningServer } from './server';
import { DEMO_ACCOUNT_ID, loadDemoData, type DemoAccount } from './startup-data/demo/demo-account';
import { openStore } from './storage/open-store';
import { loadSeedFile, type SeedFileSummary } from './startup-data/seed-file';
import type { Store } from './storage/store';
import { loadSurveyHandler } from './survey/handler-module';
import { systemClock, type Clock } from './time/clock';

export interface Started {
  readonly config: Config;
  readonly logger: Logger;
  readonly store: Store;
  readonly running: RunningServer;
  /** Set when the bundled demo data was loaded (no SEED_FILE). */
  readonly demo: DemoAccount | undefined;
  /** Set when SEED_FILE was loaded: what it brought. */
  readonly seed: SeedFileSummary | undefined;
  /** Begun at the first signal: GET /readyz answers 503 from then on. */
  readonly shutdown: ShutdownState;
  /** Stops accepting, finishes requests in flight, closes the store. */
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly clock?: Clock;
  readonly logger?: Logger;
}

/**
 * Wires every dependency once (configuration, logger, store, clock), loads the data, and listens.
 * Throws ConfigError (also for a SURVEY_HANDLER that cannot be loaded), DependencyUnavailableError (for
 * PostgreSQL or Redis), SeedFileError or ListenError (HOST and PORT cannot be bound), with a message
 * naming the culprit.
 */
export async function start(env: NodeJS.ProcessEnv, options: StartOptions = {}): Promise<Started> {
  const config = loadConfig(env);
  const surveyHandler =
    config.surveyHandler === undefined ? undefined : loadSurveyHandler(config.surveyHandler, process.cwd());
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const store = await openStore(config, logger);
  const shutdown = shutdownState();
  let demo: DemoAccount | undefined;
  let seed: SeedFileSummary | undefined;
  let running: RunningServer;
  try {
    if (config.seedFile !== undefined) {
      seed = await loadSeedFile(config.seedFile, store, config.defaultTimeZone);
      logger.info({ seedFile: config.seedFile, ...seed }, 'seed file loaded');
    } else if ((await store.accounts.find(DEMO_ACCOUNT_ID)) === undefined) {
      // A durable store keeps the demo account from an earlier start, perhaps changed since: left as it is.
      demo = await loadDemoData(store, clock);
    }
    running = await listen(createApp({ config, store, clock, logger, surveyHandler, shutdown }), config.host, config.port, listenOptions(config, logger));
  } catch (error) {
    await store.close();
    throw error;
  }
  for (const warning of configWarnings(config)) logger.warn(warning);
  logger.info({ url: running.url, store: config.store }, 'listening');
  return {
    config,
    logger,
    store,
    running,
    demo,
    seed,
    shutdown,
    stop: async () => {
      await running.close();
      await store.close();
    },
  };
}
