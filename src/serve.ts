/**
 * The server process: `npm start` runs it through src/main.ts, `ivr-reporting serve` through the CLI.
 */
import { banner } from './banner';
import { ConfigError } from './config/config';
import { ListenError } from './server';
import { start, type Started } from './start';
import { DependencyUnavailableError } from './storage/dependency-error';
import { SeedFileError } from './startup-data/seed-file';

const SHUTDOWN_GRACE_MS = 10_000;

/** Failures a person can fix from the message alone: one line, no stack trace. */
const STARTUP_FAILURES = [ConfigError, SeedFileError, DependencyUnavailableError, ListenError];

/**
 * Starts the server, prints the banner on standard error, and stops gracefully on SIGTERM or SIGINT;
 * exits 1 with one line on a bad configuration or seed file, an unreachable PostgreSQL or Redis, or an
 * address it cannot listen on.
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
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    started.logger.info({ signal }, 'shutting down: finishing requests in flight');
    const forced = setTimeout(() => {
      started.logger.error('requests still in flight after the grace period; closing them');
      started.running.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    started.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        started.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  // Printed last: whoever reads it may signal the process at once.
  process.stderr.write(banner(started.running.url, started.config, started.demo));
}
