/**
 * The server process: `npm start` runs it through src/main.ts, `ivr-reporting serve` through the CLI.
 */
import { banner } from './banner';
import { ConfigError } from './config/config-error';
import { ListenError } from './listen';
import { start, type Started } from './composition-root';
import { flushLogs } from './logger';
import { DependencyUnavailableError } from './storage/dependency-error';
import { SeedFileError } from './startup-data/seed-file';

const SHUTDOWN_GRACE_MS = 10_000;

/** Failures a person can fix from the message alone: one line, no stack trace. */
const STARTUP_FAILURES = [ConfigError, SeedFileError, DependencyUnavailableError, ListenError];

/**
 * Starts the server, prints the banner on standard error, and stops gracefully on SIGTERM or SIGINT:
 * GET /readyz answers 503 from the first signal; the server goes on serving for SHUTDOWN_DRAIN_SECONDS
 * (a second signal ends that wait), then stops accepting and finishes the requests in flight, for at most
 * SHUTDOWN_GRACE_MS. A signal after that takes its default course. Exits 1 with one line on a bad
 * configuration or seed file, an unreachable PostgreSQL or Redis, or an address it cannot listen on.
 */
export async function serve(env: NodeJS.ProcessEnv): Promise<void> {
  let started: Started;
  try {
    started = await start(env);
  } catch (error) {
    if (STARTUP_FAILURES.some((failure) => error instanceof failure)) {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exit(1);
    }
    throw error;
  }
  let endDrain: ((signal: NodeJS.Signals) => void) | undefined;
  const stop = (signal: NodeJS.Signals) => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    started.logger.info({ signal }, 'shutting down: finishing requests in flight');
    const forced = setTimeout(() => {
      started.logger.error('requests still in flight after the grace period; closing them');
      started.running.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    const exit = (code: number) => flushLogs(started.logger).finally(() => process.exit(code));
    started.stop().then(
      () => exit(0),
      (error: unknown) => {
        started.logger.error({ err: error }, 'shutdown failed');
        return exit(1);
      },
    );
  };
  function onSignal(signal: NodeJS.Signals): void {
    if (endDrain !== undefined) {
      endDrain(signal);
      return;
    }
    started.shutdown.begin();
    const drainSeconds = started.config.operations.shutdownDrainSeconds;
    if (drainSeconds === 0) {
      stop(signal);
      return;
    }
    started.logger.info({ signal, drainSeconds }, 'shutting down: still serving for SHUTDOWN_DRAIN_SECONDS while /readyz answers 503');
    const waited = setTimeout(() => endDrain?.(signal), drainSeconds * 1000);
    endDrain = (signalNow) => {
      clearTimeout(waited);
      endDrain = undefined;
      stop(signalNow);
    };
  }
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // Printed last, once the start's log lines are out: whoever reads it may signal the process at once, or read the log.
  await flushLogs(started.logger);
  process.stderr.write(banner(started.running.url, started.config, started));
}
