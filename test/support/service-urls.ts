/**
 * The throwaway services that .ci/run starts (a PostgreSQL primary, its streaming replica, PgBouncer in
 * front of the primary, and Redis); each suite that needs one is skipped without it.
 */
export const SERVICE_VARIABLES = ['TEST_DATABASE_URL', 'TEST_DATABASE_REPLICA_URL', 'TEST_PGBOUNCER_URL', 'TEST_REDIS_URL'] as const;

export type ServiceVariable = (typeof SERVICE_VARIABLES)[number];

export function serviceUrl(env: NodeJS.ProcessEnv, variable: ServiceVariable): string | undefined {
  const url = env[variable];
  return url === undefined || url === '' ? undefined : url;
}

export function missingServices(env: NodeJS.ProcessEnv): ServiceVariable[] {
  return SERVICE_VARIABLES.filter((variable) => serviceUrl(env, variable) === undefined);
}
