/**
 * The throwaway services that .ci/run starts (a PostgreSQL primary, its streaming replica, PgBouncer in
 * front of the primary, and Redis); each suite that needs one is skipped without it.
 */
export const SERVICE_VARIABLES = ['TEST_DATABASE_URL', 'TEST_DATABASE_REPLICA_URL', 'TEST_PGBOUNCER_URL', 'TEST_REDIS_URL'] as const;

export type ServiceVariable = (typeof SERVICE_VARIABLES)[number];

/** What each service's variable runs, as the global set-up's skip notice names it. */
export const SERVICE_SUITES: Readonly<Record<ServiceVariable, string>> = {
  TEST_DATABASE_URL: 'the PostgreSQL store, migrations and deployment suites, and the "PostgreSQL" project (the HTTP suites on PostgreSQL)',
  TEST_DATABASE_REPLICA_URL: 'the read-replica suites (with TEST_DATABASE_URL, its primary)',
  TEST_PGBOUNCER_URL: 'the "PgBouncer" project and suites (with TEST_DATABASE_URL, the database behind it)',
  TEST_REDIS_URL: 'the Redis store and the suites of several instances sharing limits, sessions and scenarios',
};

export function serviceUrl(env: NodeJS.ProcessEnv, variable: ServiceVariable): string | undefined {
  const url = env[variable];
  return url === undefined || url === '' ? undefined : url;
}

export function missingServices(env: NodeJS.ProcessEnv): ServiceVariable[] {
  return SERVICE_VARIABLES.filter((variable) => serviceUrl(env, variable) === undefined);
}

/**
 * The suite that runs docs/deployment.md's commands on the machine itself, as root and with sudo: the
 * packaged PostgreSQL cluster on port 5432 and Redis on 6379, a role and a database `ivr` (dropped after).
 * Machine-wide state and fixed ports: it runs only where this variable is `true` (.ci/run sets it). So
 * does the guide's release, a whole build and an install from npm's cache or the registry, too slow for
 * every run of a contributor's.
 */
export const DEPLOYMENT_DOC_VARIABLE = 'TEST_DEPLOYMENT_DOC';

export function deploymentDocAllowed(env: NodeJS.ProcessEnv): boolean {
  return env[DEPLOYMENT_DOC_VARIABLE] === 'true';
}
