import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { REAL_PROGRAMS } from './real-programs';
import { DEPLOYMENT_DOC_VARIABLE, deploymentDocAllowed, missingServices, SERVICE_SUITES } from './service-urls';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Once per `jest` run, before any worker starts: brings dist/ up to date (an incremental build, a no-op
 * when nothing changed), so the suites that run the server or the command-line tool as a process spawn
 * compiled JavaScript; and says which suites are skipped and what would run them (a service's variable, a
 * program to install, the deployment guide's own variable), or, under CI, fails the run at once.
 */
export default async function globalSetup(): Promise<void> {
  // The build and the programs' probes at once: each mostly waits on a process of its own.
  const [, found] = await Promise.all([build(), Promise.all(REAL_PROGRAMS.map((program) => program.probe()))]);
  const missingPrograms = REAL_PROGRAMS.filter((_program, index) => !found[index]);
  const missingVariables = missingServices(process.env);
  const missing: string[] = [...missingVariables];
  const notices = [
    ...missingVariables.map((variable) => `  ${SERVICE_SUITES[variable]}: set ${variable}`),
    ...missingPrograms.map((program) => `  ${program.suites}: ${program.install}`),
  ];
  if (!deploymentDocAllowed(process.env)) {
    missing.push(`${DEPLOYMENT_DOC_VARIABLE}=true`);
    notices.push(
      `  docs/deployment.md's PostgreSQL and Redis commands, run on this machine itself (its packaged cluster on port 5432 and ` +
        `Redis on 6379, as root and with sudo), and its release, built by npm run release and installed from its tarball: ` +
        `set ${DEPLOYMENT_DOC_VARIABLE}=true`,
    );
  }
  if (process.env.CI === 'true' && (missingPrograms.length > 0 || missing.length > 0)) {
    const lacking = [...missingPrograms.map((program) => `${program.name} (${program.install})`), ...missing];
    throw new Error(`CI must run every suite, and ${lacking.join(', ')} ${lacking.length === 1 ? 'is' : 'are'} missing (see .ci/run)`);
  }
  if (notices.length === 0) return;
  process.stdout.write(
    `\nSkipped, and what would run them (\`npm run services\` starts throwaway PostgreSQL, PgBouncer and Redis and prints the TEST_* ` +
      `lines to export; \`bash .ci/run\` installs and starts everything, and runs them all):\n${notices.join('\n')}\n`,
  );
}

/** `tsc -b`: dist/ up to date; its errors, if any, printed as a build prints them. */
async function build(): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json'], { cwd: ROOT });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    throw error;
  }
}
