/**
 * npm run bench:scale: whether a report's cost follows the calls stored. The one-year daily event query
 * of 20 numbers merged, built on every request (REPORT_CACHE_BYTES=0), over 10,000 calls and over
 * BENCH_LARGE_CALLS, both served by one process; BENCH_QUERY_REQUESTS sequential requests per store and
 * round, the stores taking turns to go first; the multiple is the median of the rounds' p50 ratios.
 */
import { LARGE_HEAP, startServerProcess } from './processes';
import { compare, median, type Comparison } from './rounds';
import type { ScaleServer, ScaleServers } from './scale-servers';
import { settings } from './settings';
import { runStandalone, type Log } from './standalone';

export interface QueryScale {
  readonly servers: ScaleServers;
  /** p50 in ms over the large store (measured) against the small one (baseline). */
  readonly p50: Comparison;
}

const WARM_UP_REQUESTS = 20;

/** Milliseconds of each of `count` requests sent one after another, each answered before the next is sent. */
async function sequentialLatencies(url: string, headers: Record<string, string>, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const began = performance.now();
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    latencies.push(performance.now() - began);
  }
  return latencies;
}

const p50 = async (server: ScaleServer, path: string, requests: number) =>
  median(await sequentialLatencies(server.url + path, { authorization: server.authorization }, requests));

export async function measureQueryScale(log: Log): Promise<QueryScale> {
  log(`loading ${settings.smallCalls} and ${settings.largeCalls} calls`);
  const servers = await startServerProcess<ScaleServers>('bench/scale-servers.ts', { nodeArgs: [LARGE_HEAP] });
  try {
    const { path, small, large } = servers.info;
    log(`${large.calls} calls loaded in ${servers.info.largeLoadSeconds.toFixed(0)} s`);
    for (const server of [small, large]) await p50(server, path, WARM_UP_REQUESTS);
    const samples = { small: [] as number[], large: [] as number[] };
    for (let round = 1; round <= settings.runs; round += 1) {
      const order = round % 2 === 1 ? (['small', 'large'] as const) : (['large', 'small'] as const);
      for (const name of order) samples[name].push(await p50(servers.info[name], path, settings.queryRequests));
      log(`round ${round}/${settings.runs}: p50 ${samples.small.at(-1)?.toFixed(2)} ms over ${small.calls} calls, ${samples.large.at(-1)?.toFixed(2)} ms over ${large.calls}`);
    }
    return { servers: servers.info, p50: compare(samples.large, samples.small) };
  } finally {
    await servers.stop();
  }
}

if (require.main === module) {
  runStandalone('bench:scale', async (log) => {
    const { servers, p50: figure } = await measureQueryScale(log);
    return [
      `GET ${servers.path}, REPORT_CACHE_BYTES=0, ${settings.queryRequests} sequential requests per store and round, ${settings.runs} rounds:`,
      `  ${servers.small.calls} calls: p50 ${figure.baseline.toFixed(2)} ms`,
      `  ${servers.large.calls} calls: p50 ${figure.measured.toFixed(2)} ms (${figure.ratio.toFixed(2)}x; goal <= 1.2x)`,
    ];
  });
}
