import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { accepting } from '../support/loopback-port';
import { testPgbouncerUrl, testRedisUrl, testReplicaUrl } from '../support/services';

/*
 * `npm run services` (scripts/services.sh): the throwaway services of .ci/run for a contributor's own
 * `npm test`. It needs the Debian packages that .ci/run's services come from, which a machine with those
 * services set has.
 */

const ROOT = path.resolve(__dirname, '../..');
const VARIABLES = ['TEST_DATABASE_URL', 'TEST_DATABASE_REPLICA_URL', 'TEST_PGBOUNCER_URL', 'TEST_REDIS_URL'] as const;
const describeWhereServicesRun = [testReplicaUrl, testPgbouncerUrl, testRedisUrl].includes(undefined) ? describe.skip : describe;

async function query(url: string, sql: string): Promise<unknown> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows[0];
  } finally {
    await client.end();
  }
}

/** Redis's answer to PING on a redis:// URL's port. */
async function ping(url: string): Promise<string> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  socket.setEncoding('utf8');
  socket.end('PING\r\n');
  let answer = '';
  for await (const chunk of socket) answer += chunk as string;
  return answer;
}

describeWhereServicesRun('npm run services', () => {
  test('prints the four TEST_* lines of a primary, its replica, PgBouncer and Redis that answer, and stops them all on SIGTERM', async () => {
    const child = spawn('bash', ['scripts/services.sh'], { cwd: ROOT, env: { PATH: process.env.PATH } });
    try {
      let printed = '';
      child.stdout.setEncoding('utf8');
      while (!/^export TEST_REDIS_URL=.*\n/m.test(printed)) {
        const [chunk] = (await Promise.race([once(child.stdout, 'data'), once(child, 'exit')])) as [string | number];
        if (typeof chunk !== 'string') throw new Error(`npm run services exited (${chunk}) before printing its lines:\n${printed}`);
        printed += chunk;
      }
      const lines = printed.trimEnd().split('\n');
      expect(lines[0]).toBe('Throwaway PostgreSQL, its replica, PgBouncer and Redis run until Ctrl+C. Where the tests run:');
      const urls = Object.fromEntries(lines.slice(1).map((line) => /^export (TEST_\w+)=(\S+)$/.exec(line)?.slice(1) ?? [line]));
      expect(Object.keys(urls)).toEqual(VARIABLES);
      const { TEST_DATABASE_URL: primary, TEST_DATABASE_REPLICA_URL: replica, TEST_PGBOUNCER_URL: pgbouncer, TEST_REDIS_URL: redis } = urls as Record<
        (typeof VARIABLES)[number],
        string
      >;

      expect(await query(primary, 'SELECT pg_is_in_recovery() AS standby')).toEqual({ standby: false });
      expect(await query(replica, 'SELECT pg_is_in_recovery() AS standby')).toEqual({ standby: true });
      expect(await query(pgbouncer, 'SELECT 1 AS one')).toEqual({ one: 1 });
      expect(await ping(redis)).toBe('+PONG\r\n');

      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      const ports = [primary, replica, pgbouncer, redis].map((url) => Number(new URL(url).port));
      expect(await Promise.all(ports.map(accepting))).toEqual([false, false, false, false]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
