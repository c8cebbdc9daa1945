/** Load from this process against a server in another: autocannon, bounded by BENCH_SECONDS. */
import autocannon from 'autocannon';
import { settings } from './settings';

/** BENCH_SECONDS of load over settings.connections connections; any failed request fails the measurement. */
export async function load(options: autocannon.Options): Promise<autocannon.Result> {
  const result = await autocannon({ connections: settings.connections, duration: settings.seconds, ...options });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${String(options.url)}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result;
}

/** Milliseconds of each of `count` requests sent one after another, each answered before the next is sent. */
export async function sequentialLatencies(url: string, headers: Record<string, string>, count: number): Promise<number[]> {
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

/** A second of the same load, not counted, so that the first round does not measure code still being compiled. */
export async function warmUp(options: autocannon.Options): Promise<void> {
  await load({ ...options, duration: 1 });
}
