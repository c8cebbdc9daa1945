/**
 * The server process: `npm start` runs it through src/main.ts, `ivr-reporting serve` through the CLI.
 */
import { ConfigError } from './config/config';
import { start, type Started } from './start';
import { DependencyUnavailableError } from './storage/dependency-error';
import { SeedFileError } from './storage/seed-file';

const SHUTDOWN_GRACE_MS = 10_000;

function welcome({ running, demo, config }: Started): string {
  if (demo === undefined) return `IVR reporting server listening on ${running.url}\n`;
  const base = running.url;
  const authCommand = `curl -s -X POST ${base}/api/auth -d tool=${demo.tool} -d login=${demo.login} -d password=${demo.password}`;
  const lastWeek = `${base}/api/events/${demo.lastWeek.start}/${demo.lastWeek.end}/day/ALL`;
  // The answer is {"login":"...","password":"..."} in that order: sed makes it curl's LOGIN:PASSWORD.
  const toBasicCredentials = `sed -E 's/.*"login":"([0-9a-f]+)","password":"([0-9a-f]+)".*/\\1:\\2/'`;
  return [
    `IVR reporting server listening on ${base} (${config.store === 'postgres' ? 'PostgreSQL' : 'in-memory'} store with demo data)`,
    '',
    `Demo account: tool=${demo.tool} login=${demo.login} password=${demo.password} (numbers ${demo.phones.join(', ')}, time zone ${demo.timeZone})`,
    '',
    'Get temporary credentials:',
    `  ${authCommand}`,
    '',
    'Then ask for the last week by day, with the login and password it returned:',
    `  curl -s -u LOGIN:PASSWORD ${lastWeek}`,
    '',
    'Or both in one command:',
    `  curl -s -u "$(${authCommand} | ${toBasicCredentials})" ${lastWeek}`,
    '',
  ].join('\n');
}

/** Starts the server, prints the welcome, and stops gracefully on SIGTERM or SIGINT; exits 1 on a bad configuration or seed file, or an unreachable PostgreSQL or Redis. */
export async function serve(env: NodeJS.ProcessEnv): Promise<void> {
  let started: Started;
  try {
    started = await start(env);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof SeedFileError || error instanceof DependencyUnavailableError) {
      process.stderr.write(`${error.message}\n`);
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
  process.stdout.write(welcome(started));
}
