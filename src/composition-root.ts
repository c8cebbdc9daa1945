import type { Express } from 'express';
import type { Logger } from 'pino';
import { passwordHasher, type PasswordHasher } from './accounts/password-hasher';
import { accountAdmin } from './admin/accounts/account-admin';
import { readCallRecord } from './admin/calls/call-import';
import { createApp, type AppServices } from './app';
import { configWarnings, loadConfig, type Config } from './configuration';
import { loadDashboardAssets } from './dashboard/assets';
import { heavyTurns } from './http/heavy-turns';
import { listen, listenOptions, type RunningServer } from './listen';
import { createLogger } from './logger';
import { apiDocument } from './openapi/document';
import { createAppMetrics, type AppMetrics } from './operations/app-metrics';
import { countingDependencyErrors } from './operations/dependency-errors';
import { operationsServices } from './operations/services';
import { shutdownState, type ShutdownState } from './operations/shutdown-state';
import { adminRateLimit, rateLimitGroups, surveyRateLimit } from './rate-limit/groups';
import { authenticator } from './reporting/auth/authenticate';
import { loginCache } from './reporting/auth/login-cache';
import { temporaryCredentials } from './reporting/auth/temporary-credentials';
import { dataResources } from './reporting/data-resources';
import { reportCache } from './reporting/report-cache/report-cache';
import { startMaintenance } from './retention/maintenance';
import { createSandbox, sandboxClock, type MovableClock, type Random } from './sandbox/sandbox';
import { DEMO_ACCOUNT_ID, loadDemoData, PUBLIC_DEMO_ACCOUNT_WARNING, publicDemoAccountStored, type DemoAccount } from './startup-data/demo/demo-account';
import { loadSeedFile, type SeedFileSummary } from './startup-data/seed-file';
import { openStore } from './storage/open-store';
import type { Store } from './storage/store';
import { HeldBodyBytes } from './survey/body-stream';
import { loadSurveyHandler } from './survey/handlers/handler-module';
import { sampleSurveyHandler } from './survey/handlers/sample-handler';
import type { SurveyService } from './survey/router';
import type { SurveyHandler } from './domain/survey-handler';
import { systemClock, type Clock } from './time/clock';

/**
 * The composition root, read top to bottom as the architecture:
 *
 *   configuration (loadConfig) -> the process's dependencies (processDependencies) -> stores (openStore)
 *   -> services (createServices) -> HTTP app (createApp) -> server (listen)
 *
 * Every default of a dependency is decided here, once; every service is built here, once; the features
 * receive their own settings group and services, never the configuration or the environment.
 */

/**
 * What every service shares: one store, one clock, one logger, one set of metrics, one shutdown state, one
 * survey handler, one password hasher.
 */
interface SharedDependencies {
  readonly store: Store;
  /** What every window, expiry and "today" reads: the movable clock when SANDBOX_CLOCK is set. */
  readonly clock: Clock;
  /** Set with SANDBOX_CLOCK: the admin API moves it forward. */
  readonly movableClock: MovableClock | undefined;
  /**
   * The clock given, never moved: what the upkeep of raw calls reads (months made ready, retention), since
   * a month dropped by a sandbox's clock moved on would be gone for good.
   */
  readonly systemClock: Clock;
  readonly logger: Logger;
  readonly metrics: AppMetrics;
  /** Begun at the first signal (src/server-process.ts): GET /readyz then answers 503. */
  readonly shutdown: ShutdownState;
  /**
   * The logic of a survey service that names none of its own: the specification's sample, unless a test
   * puts its own in place.
   */
  readonly surveyHandler: SurveyHandler;
  /** Each survey service with its logic: its own handler module or rules file, else surveyHandler. */
  readonly surveyServices: readonly SurveyService[];
  /** Tool passwords hashed and checked for logins and the admin API: scrypt, bounded by PASSWORD_HASH_*. */
  readonly passwords: PasswordHasher;
  /** What the sandbox's delays given as distributions draw from. */
  readonly random: Random;
}

/** The shared dependencies but the store, which is opened with the logger decided here. */
type ProcessDependencies = Omit<SharedDependencies, 'store'>;

/**
 * What a test may put in place of a default: not the movable clock, which SANDBOX_CLOCK makes around the
 * clock given, nor the system clock, which is the clock given.
 */
type ReplaceableDependencies = Partial<Omit<ProcessDependencies, 'movableClock' | 'systemClock' | 'surveyServices'>>;

/** The shared dependencies a caller brings: a store always, and whichever fakes a test puts in place of the defaults. */
export type GivenDependencies = Pick<SharedDependencies, 'store'> & ReplaceableDependencies;

/**
 * Every default of a shared dependency, decided once: the system clock (movable with SANDBOX_CLOCK, and
 * kept unmoved for the upkeep of raw calls), logs at LOG_LEVEL, fresh metrics, no shutdown begun,
 * SURVEY_HANDLER or the sample, scrypt in the line of PASSWORD_HASH_CONCURRENCY and PASSWORD_HASH_QUEUE,
 * Math.random for the sandbox's delays.
 */
function processDependencies(config: Config, given: ReplaceableDependencies): ProcessDependencies {
  const unmoved = given.clock ?? systemClock;
  const { clock, movable: movableClock } = sandboxClock(config.sandbox, unmoved);
  const logger = given.logger ?? createLogger(config.server.logLevel);
  const surveyHandler = given.surveyHandler ?? sampleSurveyHandler;
  return {
    clock,
    movableClock,
    systemClock: unmoved,
    logger,
    metrics: given.metrics ?? createAppMetrics(),
    shutdown: given.shutdown ?? shutdownState(),
    passwords:
      given.passwords ?? passwordHasher({ concurrency: config.accounts.passwordHashConcurrency, mostWaiting: config.accounts.passwordHashQueue }),
    random: given.random ?? Math.random,
    surveyHandler,
    surveyServices: config.survey.services.map((settings) => ({
      settings,
      handler:
        settings.handler === undefined
          ? surveyHandler
          : loadSurveyHandler(settings.handler.file, process.cwd(), {
              // Half the handler timeout: the calls waiting for a version that never loads still have time to be answered.
              reload: config.survey.reload && { loadTimeoutSeconds: config.survey.evaluation.timeoutSeconds / 2 },
              bounds: config.survey.evaluation,
              isolated: config.survey.isolation === 'worker',
              logger,
              setting: settings.handler.setting,
            }),
    })),
  };
}

/** Every service of the app, built once from its feature's settings and the shared dependencies. */
function createServices(config: Config, shared: SharedDependencies): AppServices {
  const { clock, logger, metrics, passwords } = shared;
  // Every service uses the store through this view, so each failed call counts against its dependency.
  const store = countingDependencyErrors(shared.store, metrics);
  const limitDependencies = { store, clock, logger, refusals: metrics };
  const { rateLimits } = config;
  const credentials = temporaryCredentials({ store, clock, ttlSeconds: config.reporting.credentialTtlSeconds });
  const sandbox = createSandbox(config.sandbox, {
    store,
    clock,
    movableClock: shared.movableClock,
    random: shared.random,
    counter: metrics,
    limits: rateLimits,
    adminApi: config.admin.token !== undefined,
  });
  return {
    logger,
    trustProxy: config.server.trustProxy,
    reporting: {
      authenticate: authenticator(
        store,
        credentials,
        passwords,
        loginCache({ ttlSeconds: config.reporting.authCacheSeconds, maxEntries: config.reporting.authCacheMaxEntries, clock }),
      ),
      credentials,
      limits: rateLimitGroups(limitDependencies, rateLimits),
      dataResources: dataResources(store, {
        weekStart: config.reporting.weekStart,
        maxRangeDays: config.reporting.maxRangeDays,
        reports: reportCache(config.reporting.reportCacheBytes),
      }),
      scenarios: sandbox.answers,
    },
    // Without ADMIN_TOKEN the admin API does not exist.
    admin:
      config.admin.token === undefined
        ? undefined
        : {
            token: config.admin.token,
            limit: adminRateLimit(limitDependencies, rateLimits),
            accounts: accountAdmin(store, config.accounts.defaultTimeZone, passwords, credentials),
            store,
            readCallRecord,
            importedCalls: metrics,
            sandbox,
            retention: { store, clock: shared.systemClock, logger, months: config.retention.months },
          },
    survey: {
      call: {
        store,
        clock,
        sessionTtlSeconds: config.survey.sessionTtlSeconds,
        maxSessions: config.survey.maxSessions,
        evaluation: config.survey.evaluation,
      },
      bounds: { maxBytes: config.survey.maxBytes, limits: config.survey.messageLimits, held: new HeldBodyBytes(config.survey.maxBytesHeld) },
      heavyTurns: heavyTurns(),
      limit: surveyRateLimit(limitDependencies, rateLimits),
      services: shared.surveyServices,
      publicUrl: config.server.publicUrl,
      logger,
      scenarios: sandbox.answers,
      inspector: sandbox.inspector,
    },
    operations: operationsServices({ metrics, store, clock, logger, settings: config.operations, shutdown: shared.shutdown }),
    // Built at start, so a mistake in it stops the start; its examples are dated from that day.
    reference: { document: apiDocument(config, clock.now()), publicUrl: config.server.publicUrl },
    dashboard: loadDashboardAssets(),
    movableClock: shared.movableClock,
  };
}

/**
 * The services of a configuration over the given dependencies, the rest decided as at start: what
 * composeApp serves, and what a benchmark takes pieces out of (bench/servers.ts).
 */
export function composeServices(config: Config, given: GivenDependencies): AppServices {
  return createServices(config, { ...processDependencies(config, given), store: given.store });
}

/** The app of a configuration over the given dependencies, the rest decided as at start: what tests and benchmarks serve. */
export function composeApp(config: Config, given: GivenDependencies): Express {
  return createApp(composeServices(config, given));
}

export interface Started {
  readonly config: Config;
  readonly logger: Logger;
  readonly store: Store;
  readonly running: RunningServer;
  /** Set when the bundled demo data was loaded (DEMO_DATA on, no SEED_FILE). */
  readonly demo: DemoAccount | undefined;
  /** Set when SEED_FILE was loaded: what it brought. */
  readonly seed: SeedFileSummary | undefined;
  /** What the stored data call for: said on the banner and in the log, as the configuration's warnings are. */
  readonly dataWarnings: readonly string[];
  /** Begun at the first signal: GET /readyz answers 503 from then on. */
  readonly shutdown: ShutdownState;
  /** Stops accepting, finishes requests in flight, closes the store. */
  stop(): Promise<void>;
}

/** Fakes a caller may put in place of the system's own: a test's clock or logger. */
export type StartOptions = Partial<Pick<SharedDependencies, 'clock' | 'logger'>>;

/**
 * The server, from the environment to a listening socket, with the data loaded. Throws ConfigError (also
 * for a SURVEY_HANDLER that cannot be loaded), DependencyUnavailableError (for PostgreSQL or Redis),
 * SeedFileError or ListenError (HOST and PORT cannot be bound), with a message naming the culprit.
 */
export async function start(env: NodeJS.ProcessEnv, options: StartOptions = {}): Promise<Started> {
  const config = loadConfig(env);
  const dependencies = processDependencies(config, options);
  const { logger } = dependencies;
  const store = await openStore(config.storage, logger);
  try {
    const shared: SharedDependencies = { ...dependencies, store };
    const { demo, seed, dataWarnings } = await loadStartupData(config, shared);
    const maintenance = await startMaintenance({ store, clock: shared.systemClock, logger, months: config.retention.months });
    const running = await listen(createApp(createServices(config, shared)), config.server.host, config.server.port, listenOptions(config.server, logger)).catch(
      async (error: unknown) => {
        await maintenance.stop();
        throw error;
      },
    );
    for (const warning of [...configWarnings(config), ...dataWarnings]) logger.warn(warning);
    logger.info({ url: running.url, store: config.storage.store }, 'listening');
    return {
      config,
      logger,
      store,
      running,
      demo,
      seed,
      dataWarnings,
      shutdown: shared.shutdown,
      stop: async () => {
        await running.close();
        await maintenance.stop();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/**
 * SEED_FILE's accounts, numbers and calls; else, with DEMO_DATA, the demo account, unless a durable store
 * kept it from an earlier start (perhaps changed since: left as it is). Without the demo data, a demo
 * account an earlier start left with its published password is warned of.
 */
async function loadStartupData(
  config: Config,
  { store, clock, logger }: SharedDependencies,
): Promise<{ demo: DemoAccount | undefined; seed: SeedFileSummary | undefined; dataWarnings: string[] }> {
  const { seedFile, demoData } = config.startupData;
  let seed: SeedFileSummary | undefined;
  if (seedFile !== undefined) {
    seed = await loadSeedFile(seedFile, store, config.accounts.defaultTimeZone);
    logger.info({ seedFile, ...seed }, 'seed file loaded');
  } else if (demoData) {
    const kept = (await store.accounts.find(DEMO_ACCOUNT_ID)) !== undefined;
    return { demo: kept ? undefined : await loadDemoData(store, clock), seed: undefined, dataWarnings: [] };
  }
  return { demo: undefined, seed, dataWarnings: (await publicDemoAccountStored(store)) ? [PUBLIC_DEMO_ACCOUNT_WARNING] : [] };
}
