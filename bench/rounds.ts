/** What the benchmarks share to turn rounds into one figure. */
import { settings } from './settings';

/** Rounds per target (BENCH_RUNS). */
export const RUNS = settings.runs;
/** Seconds of load per target and round (BENCH_SECONDS). */
export const SECONDS = settings.seconds;

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('the median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** A figure against its baseline over alternating rounds. */
export interface Comparison {
  readonly measured: number;
  readonly baseline: number;
  /**
   * Median of the per-round ratios measured / baseline: both sides of a round ran seconds apart, so a
   * machine that drifts between rounds moves them together.
   */
  readonly ratio: number;
}

export function compare(measured: readonly number[], baseline: readonly number[]): Comparison {
  if (measured.length !== baseline.length) throw new Error('each round needs both a figure and its baseline');
  return {
    measured: median(measured),
    baseline: median(baseline),
    ratio: median(measured.map((value, round) => value / (baseline[round] as number))),
  };
}

/** A piece taken out (bench/pieces.ts): the figure without it against the baseline, and the app with it against the app without it. */
export interface PieceOut {
  readonly against: Comparison;
  /** Below 1 (for a rate) by the piece's part of the app's time. */
  readonly share: Comparison;
}

/** Each piece's rounds (`without`) against the baseline's and the whole app's of the same rounds. */
export function piecesOut<Name extends string>(app: readonly number[], baseline: readonly number[], without: Readonly<Record<Name, readonly number[]>>): Record<Name, PieceOut> {
  const entries = Object.entries<readonly number[]>(without).map(([name, figures]) => [name, { against: compare(figures, baseline), share: compare(app, figures) }]);
  return Object.fromEntries(entries) as Record<Name, PieceOut>;
}

/**
 * Items per second of each target over the same batches, the targets taking turns batch by batch (the
 * order reversed every batch, and each round starting the other way): a target's rate is its items over
 * the sum of its own requests' times, so that a busy moment of a shared machine falls on every target
 * alike rather than on whichever target ran then. `post` sends batch `index` to a target and resolves
 * once it is answered.
 */
export async function interleavedRates<Name extends string>(
  names: readonly Name[],
  batchItems: readonly number[],
  round: number,
  post: (name: Name, index: number) => Promise<void>,
): Promise<Record<Name, number>> {
  const seconds = new Map<Name, number>(names.map((name) => [name, 0]));
  for (let index = 0; index < batchItems.length; index += 1) {
    for (const name of (index + round) % 2 === 1 ? names : [...names].reverse()) {
      const started = performance.now();
      await post(name, index);
      seconds.set(name, (seconds.get(name) as number) + (performance.now() - started) / 1000);
    }
  }
  const items = batchItems.reduce((sum, count) => sum + count, 0);
  return Object.fromEntries(names.map((name) => [name, items / (seconds.get(name) as number)])) as Record<Name, number>;
}
