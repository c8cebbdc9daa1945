import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { chromiumAvailable, chromiumPath } from './chromium';
import { DEPLOYMENT_DOC_VARIABLE, deploymentDocAllowed, missingServices } from './service-urls';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Once per `jest` run, before any worker starts: brings dist/ up to date (an incremental build, a no-op
 * when nothing changed), so the suites that run the server or the command-line tool as a process spawn
 * compiled JavaScript; and says which suites are skipped and why (services, browser, the deployment guide
 * run on the machine itself), or, under CI, fails the run at once.
 */
export default function globalSetup(): void {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });

  if (!chromiumAvailable) {
    if (process.env.CI === 'true') throw new Error(`no browser at ${chromiumPath}: CI must run the browser suites (see .ci/run)`);
    process.stdout.write(`\nSkipped: the browser suites, because there is no Chromium at ${chromiumPath} (set CHROMIUM_PATH).\n`);
  }

  if (!deploymentDocAllowed(process.env)) {
    if (process.env.CI === 'true') {
      throw new Error(`${DEPLOYMENT_DOC_VARIABLE} is not true: CI must run docs/deployment.md's commands on its machine (see .ci/run)`);
    }
    process.stdout.write(
      `\nSkipped: the suite that runs docs/deployment.md's PostgreSQL and Redis commands on this machine (its packaged cluster on ` +
        `port 5432 and Redis on 6379, as root and with sudo), because ${DEPLOYMENT_DOC_VARIABLE} is not true. \`bash .ci/run\` sets it.\n`,
    );
  }

  const missing = missingServices(process.env);
  if (missing.length === 0) return;
  const names = missing.join(' and ');
  if (process.env.CI === 'true') {
    throw new Error(`${names} not set: CI must run the PostgreSQL, replica, PgBouncer and Redis suites (see .ci/run)`);
  }
  process.stdout.write(
    `\nSkipped: the suites that need ${names} (PostgreSQL, replica, PgBouncer and Redis stores, and the HTTP suites on PostgreSQL), ` +
      `because ${missing.length === 1 ? 'it is' : 'they are'} not set. \`bash .ci/run\` starts throwaway instances and runs them all.\n`,
  );
}
