/**
 * npm run bench:logins: how much a burst of logins slows the reports. The 99th-percentile latency of a
 * one-month event report (10 connections), alone and while 4 clients keep logging in (each login is one
 * scrypt hash), as a multiple of the same server's latency alone; with hashing bounded to one at a time
 * (PASSWORD_HASH_CONCURRENCY=1, the default) and bounded only by libuv's thread pool. Median of
 * BENCH_RUNS alternating rounds of BENCH_SECONDS each.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { median, RUNS, SECONDS } from './rounds';

interface Server {
  readonly url: string;
  readonly concurrency: number;
  readonly authorization: string;
}

const REPORT = '/api/events/20250101/20250131/day/ALL';

async function reportP99(server: Server): Promise<number> {
  const result = await autocannon({ url: server.url + REPORT, connections: 10, duration: SECONDS, headers: { authorization: server.authorization } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${server.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.latency.p99;
}

function keepLoggingIn(server: Server): Promise<autocannon.Result> {
  return autocannon({
    url: `${server.url}/api/auth`,
    method: 'POST',
    connections: 4,
    duration: SECONDS,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'tool=dev&login=bench&password=bench',
  });
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/login-servers.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const servers = JSON.parse(line) as { bounded: Server; unbounded: Server };
    const multiples = { bounded: [] as number[], unbounded: [] as number[] };
    for (let run = 1; run <= RUNS; run += 1) {
      for (const name of ['bounded', 'unbounded'] as const) {
        const server = servers[name];
        const alone = await reportP99(server);
        const [withLogins] = await Promise.all([reportP99(server), keepLoggingIn(server)]);
        multiples[name].push(withLogins / alone);
        process.stdout.write(`run ${run}/${RUNS}, ${name}: p99 ${alone} ms alone, ${withLogins} ms with logins\n`);
      }
    }
    process.stdout.write(
      [
        `report ${REPORT}, p99 latency while 4 clients keep logging in, as a multiple of the same server alone (median of ${RUNS}):`,
        `  PASSWORD_HASH_CONCURRENCY=${servers.bounded.concurrency}:  ${median(multiples.bounded).toFixed(2)}x`,
        `  PASSWORD_HASH_CONCURRENCY=${servers.unbounded.concurrency} (the thread pool's 4): ${median(multiples.unbounded).toFixed(2)}x`,
        '',
      ].join('\n'),
    );
  } finally {
    child.kill();
  }
}

void main();
