/**
 * npm run bench:events (the first half of npm run bench): throughput of the event tracker as a ratio
 * against a plain Express route returning the same bytes, measured in the same run, median of several
 * alternating runs; the same query over a small and a large call history, to show that its cost
 * follows the periods, not the calls; and over the large one with no kept reports, the cost of a miss.
 * Bounded: BENCH_RUNS rounds (default 5) of BENCH_SECONDS (default 3) per target, on loopback.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { median, RUNS, SECONDS } from './rounds';

interface Target {
  readonly url: string;
  readonly authorization?: string;
  readonly calls?: number;
}

interface Servers {
  readonly path: string;
  readonly bodyBytes: number;
  readonly heapMiB: number;
  readonly baseline: Target;
  readonly small: Target;
  readonly large: Target;
  readonly uncached: Target;
}


async function requestsPerSecond(target: Target): Promise<number> {
  const result = await autocannon({
    url: target.url,
    connections: 10,
    duration: SECONDS,
    headers: target.authorization === undefined ? {} : { authorization: target.authorization },
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/servers.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const servers = JSON.parse(line) as Servers;
    const samples = { baseline: [] as number[], small: [] as number[], large: [] as number[], uncached: [] as number[] };
    for (let run = 1; run <= RUNS; run += 1) {
      for (const name of ['baseline', 'small', 'large', 'uncached'] as const) samples[name].push(await requestsPerSecond(servers[name]));
      process.stdout.write(`run ${run}/${RUNS}: ${JSON.stringify(Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.at(-1)])))}\n`);
    }
    const [baseline, small, large, uncached] = [samples.baseline, samples.small, samples.large, samples.uncached].map(median) as [
      number,
      number,
      number,
      number,
    ];
    const lines = [
      `query ${servers.path} (365 day periods, ${servers.bodyBytes} bytes), ${RUNS} runs of ${SECONDS}s, 10 connections, medians:`,
      `  plain Express route, same bytes:      ${baseline.toFixed(0)} req/s (baseline 1.00)`,
      `  event tracker, ${servers.small.calls} calls stored:  ${small.toFixed(0)} req/s (${(small / baseline).toFixed(2)} of baseline)`,
      `  event tracker, ${servers.large.calls} calls stored: ${large.toFixed(0)} req/s (${(large / baseline).toFixed(2)} of baseline)`,
      `  event tracker, ${servers.uncached.calls} calls, REPORT_CACHE_BYTES=0 (built every time): ${uncached.toFixed(0)} req/s (${(uncached / baseline).toFixed(2)} of baseline)`,
      `  large history / small history: ${(large / small).toFixed(2)} (1.00 = cost independent of the number of calls)`,
      `  server heap after loading both histories: ${servers.heapMiB} MiB`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    child.kill();
  }
}

void main();
