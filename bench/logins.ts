/**
 * npm run bench:logins: how much a burst of logins slows the reports. The 99th-percentile latency of a
 * one-month event report (10 connections), alone and while 4 clients keep logging in (each login is one
 * scrypt hash), as a multiple of the same server's latency alone; with hashing bounded to one at a time
 * (PASSWORD_HASH_CONCURRENCY=1, the default) and bounded only by libuv's thread pool. Median of
 * BENCH_RUNS alternating rounds of BENCH_SECONDS each.
 */
import autocannon from 'autocannon';
import { load, warmUp } from './load';
import { startServerProcess } from './processes';
import { compare, type Comparison } from './rounds';
import { settings } from './settings';
import { runStandalone, type Log } from './standalone';

interface Server {
  readonly url: string;
  readonly concurrency: number;
  readonly authorization: string;
}

export interface LoginSlowdown {
  /** p99 in ms with logins (measured) against alone (baseline), per hashing bound. */
  readonly bounded: Comparison;
  readonly unbounded: Comparison;
  readonly boundedConcurrency: number;
  readonly unboundedConcurrency: number;
}

export const LOGIN_CLIENTS = 4;
const REPORT = '/api/events/20250101/20250131/day/ALL';

const reportLoad = (server: Server) => ({ url: server.url + REPORT, headers: { authorization: server.authorization } });

async function reportP99(server: Server): Promise<number> {
  return (await load(reportLoad(server))).latency.p99;
}

function keepLoggingIn(server: Server): Promise<autocannon.Result> {
  return autocannon({
    url: `${server.url}/api/auth`,
    method: 'POST',
    connections: LOGIN_CLIENTS,
    duration: settings.seconds,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'tool=dev&login=bench&password=bench',
  });
}

export async function measureLoginSlowdown(log: Log): Promise<LoginSlowdown> {
  const serverProcess = await startServerProcess<{ bounded: Server; unbounded: Server }>('bench/login-servers.ts');
  try {
    const servers = serverProcess.info;
    for (const server of [servers.bounded, servers.unbounded]) await warmUp(reportLoad(server));
    const samples = { bounded: { alone: [] as number[], withLogins: [] as number[] }, unbounded: { alone: [] as number[], withLogins: [] as number[] } };
    for (let round = 1; round <= settings.runs; round += 1) {
      for (const name of ['bounded', 'unbounded'] as const) {
        const server = servers[name];
        const alone = await reportP99(server);
        const [withLogins] = await Promise.all([reportP99(server), keepLoggingIn(server)]);
        samples[name].alone.push(alone);
        samples[name].withLogins.push(withLogins);
        log(`round ${round}/${settings.runs}, PASSWORD_HASH_CONCURRENCY=${server.concurrency}: p99 ${alone} ms alone, ${withLogins} ms with logins`);
      }
    }
    return {
      bounded: compare(samples.bounded.withLogins, samples.bounded.alone),
      unbounded: compare(samples.unbounded.withLogins, samples.unbounded.alone),
      boundedConcurrency: servers.bounded.concurrency,
      unboundedConcurrency: servers.unbounded.concurrency,
    };
  } finally {
    await serverProcess.stop();
  }
}

if (require.main === module) {
  runStandalone('bench:logins', async (log) => {
    const slowdown = await measureLoginSlowdown(log);
    return [
      `report ${REPORT}, p99 latency while ${LOGIN_CLIENTS} clients keep logging in, as a multiple of the same server alone (median of ${settings.runs}):`,
      `  PASSWORD_HASH_CONCURRENCY=${slowdown.boundedConcurrency}:  ${slowdown.bounded.ratio.toFixed(2)}x`,
      `  PASSWORD_HASH_CONCURRENCY=${slowdown.unboundedConcurrency} (the thread pool's 4): ${slowdown.unbounded.ratio.toFixed(2)}x`,
    ];
  });
}
