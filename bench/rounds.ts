/** What the throughput benchmarks share: how many alternating rounds, how long each, and their median. */

/** Rounds per target, alternated so that a noisy moment of the machine hits every target alike. */
export const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Seconds of load per target and round. */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
