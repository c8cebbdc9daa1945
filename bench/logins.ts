/**
 * npm run bench:logins: how much a burst of logins slows the reports. The 99th-percentile latency of a
 * one-month event report (wrk -t1 -c<BENCH_CONNECTIONS>), alone and while 4 clients keep logging in (a
 * second wrk, each login one scrypt hash), as a multiple of the same server's latency alone; with hashing
 * bounded to one at a time (PASSWORD_HASH_CONCURRENCY=1, the default) and bounded only by libuv's thread
 * pool. The servers (logging at LOG_LEVEL=info into a file) and the generator's ceiling run pinned to
 * core 0, thread pool included, both wrk on core 1. Median of BENCH_RUNS alternating rounds of BENCH_SECONDS.
 */
import { answersFile, bodyBytes, captureAnswer } from './answers';
import { alternateRounds, checkGenerator, checkLine, type GeneratorCheck } from './load';
import { logFilePath, logWritten, startServerProcess } from './processes';
import { compare, type Comparison } from './rounds';
import { settings } from './settings';
import { runStandalone, type Log } from './standalone';
import { ensureLoadTools, prepareLoad, SERVER_CORE } from './wrk';

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
  readonly check: GeneratorCheck;
  readonly leftOut: readonly string[];
}

export const LOGIN_CLIENTS = 4;
const REPORT = '/api/events/20250101/20250131/day/ALL';

export async function measureLoginSlowdown(log: Log): Promise<LoginSlowdown> {
  await ensureLoadTools(log);
  const appLog = logFilePath('logins-app');
  const serverProcess = await startServerProcess<{ bounded: Server; unbounded: Server }>('bench/login-servers.ts', { core: SERVER_CORE, logFile: appLog });
  let ceiling: { stop(): Promise<void>; info: { url: string } } | undefined;
  try {
    const { bounded, unbounded } = serverProcess.info;
    const answer = await captureAnswer(bounded.url + REPORT, { headers: { authorization: bounded.authorization } });
    ceiling = await startServerProcess<{ url: string }>('bench/ceiling-server.ts', { args: [answersFile([answer])], core: SERVER_CORE });
    const report = (url: string, authorization: string) => prepareLoad({ url: url + REPORT, headers: { authorization } }, settings.connections);
    const logins = (server: Server) =>
      prepareLoad({ url: `${server.url}/api/auth`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'tool=dev&login=bench&password=bench' }, LOGIN_CLIENTS);
    const { results, rates, leftOut } = await alternateRounds(
      {
        boundedAlone: { load: report(bounded.url, bounded.authorization) },
        boundedWithLogins: { load: report(bounded.url, bounded.authorization), alongside: logins(bounded) },
        unboundedAlone: { load: report(unbounded.url, unbounded.authorization) },
        unboundedWithLogins: { load: report(unbounded.url, unbounded.authorization), alongside: logins(unbounded) },
        ceiling: { load: report(ceiling.info.url, bounded.authorization) },
      },
      log,
    );
    log(logWritten(appLog));
    const p99 = (name: keyof typeof results) => results[name].map((result) => result.latencyMs.p99);
    return {
      bounded: compare(p99('boundedWithLogins'), p99('boundedAlone')),
      unbounded: compare(p99('unboundedWithLogins'), p99('unboundedAlone')),
      boundedConcurrency: bounded.concurrency,
      unboundedConcurrency: unbounded.concurrency,
      check: checkGenerator(`logins, the one-month report alone (${bodyBytes(answer)} B)`, rates.ceiling, {
        [`PASSWORD_HASH_CONCURRENCY=${bounded.concurrency}`]: rates.boundedAlone,
        [`PASSWORD_HASH_CONCURRENCY=${unbounded.concurrency}`]: rates.unboundedAlone,
      }),
      leftOut,
    };
  } finally {
    await serverProcess.stop();
    await ceiling?.stop();
  }
}

if (require.main === module) {
  runStandalone('bench:logins', async (log) => {
    const slowdown = await measureLoginSlowdown(log);
    return [
      `report ${REPORT}, p99 latency while ${LOGIN_CLIENTS} clients keep logging in, as a multiple of the same server alone (median of ${settings.runs}):`,
      `  PASSWORD_HASH_CONCURRENCY=${slowdown.boundedConcurrency}:  ${slowdown.bounded.ratio.toFixed(2)}x (p99 ${slowdown.bounded.measured.toFixed(1)} ms, alone ${slowdown.bounded.baseline.toFixed(1)} ms)`,
      `  PASSWORD_HASH_CONCURRENCY=${slowdown.unboundedConcurrency} (the thread pool's 4): ${slowdown.unbounded.ratio.toFixed(2)}x ` +
        `(p99 ${slowdown.unbounded.measured.toFixed(1)} ms, alone ${slowdown.unbounded.baseline.toFixed(1)} ms)`,
      checkLine(slowdown.check),
      ...slowdown.leftOut.map((round) => `left out: ${round}`),
    ];
  });
}
