/**
 * The load figures' rounds: BENCH_RUNS alternating rounds of BENCH_SECONDS of wrk per target (bench/wrk.ts),
 * each run after a warm-up of the same load; a round with an invalid run is left out, and said. And the
 * check that the generator was not the limit: its rate against the trivial server of bench/ceiling-server.ts
 * against the fastest server measured beside it.
 */
import { median } from './rounds';
import { settings } from './settings';
import type { Log } from './standalone';
import { commandLine, runWrk, type Load, type WrkResult } from './wrk';

export interface Measured {
  readonly load: Load;
  /** A second load running for the same seconds (not warmed up), e.g. clients logging in. */
  readonly alongside?: Load;
}

export interface Rounds<Name extends string> {
  /** wrk's results of each target in the valid rounds, in order. */
  readonly results: Readonly<Record<Name, readonly WrkResult[]>>;
  /** Requests per second of each target in the valid rounds. */
  readonly rates: Readonly<Record<Name, readonly number[]>>;
  /** The rounds left out and why. */
  readonly leftOut: readonly string[];
}

export async function alternateRounds<Name extends string>(targets: Readonly<Record<Name, Measured>>, log: Log): Promise<Rounds<Name>> {
  const names = Object.keys(targets) as Name[];
  for (const name of names) {
    const { load, alongside } = targets[name];
    log(`${name}: ${commandLine(load, settings.seconds)}${alongside === undefined ? '' : `, alongside ${commandLine(alongside, settings.seconds)}`}`);
  }
  const results = Object.fromEntries(names.map((name) => [name, [] as WrkResult[]])) as Record<Name, WrkResult[]>;
  const leftOut: string[] = [];
  for (let round = 1; round <= settings.runs; round += 1) {
    const ofRound = new Map<Name, WrkResult>();
    const problems: string[] = [];
    for (const name of names) {
      const { load, alongside } = targets[name];
      await runWrk(load, settings.warmUpSeconds);
      const [result, side] = await Promise.all([runWrk(load, settings.seconds), alongside === undefined ? undefined : runWrk(alongside, settings.seconds)]);
      ofRound.set(name, result);
      if (result.invalid !== undefined) problems.push(`${name}: ${result.invalid}`);
      if (side?.invalid !== undefined) problems.push(`${name}, the load alongside: ${side.invalid}`);
    }
    const figures = [...ofRound].map(([name, result]) => `${name} ${result.requestsPerSecond.toFixed(0)}/s (p99 ${result.latencyMs.p99.toFixed(1)} ms)`).join(', ');
    if (problems.length > 0) {
      leftOut.push(`round ${round}: ${problems.join('; ')}`);
      log(`round ${round}/${settings.runs} LEFT OUT (${problems.join('; ')}): ${figures}`);
    } else {
      for (const [name, result] of ofRound) results[name].push(result);
      log(`round ${round}/${settings.runs}: ${figures}`);
    }
  }
  if (leftOut.length === settings.runs) throw new Error(`every round had an invalid run: ${leftOut.join(' | ')}`);
  const rates = Object.fromEntries(names.map((name) => [name, results[name].map((result) => result.requestsPerSecond)])) as Record<Name, number[]>;
  return { results, rates, leftOut };
}

/** The generator's rate against a trivial server sending an answer, against the fastest server sending it. */
export interface GeneratorCheck {
  /** The group of figures and the answer, e.g. "event tracker, one year ALL (38.3 kB)". */
  readonly answer: string;
  /** Median requests per second of wrk against bench/ceiling-server.ts. */
  readonly ceiling: number;
  readonly fastest: number;
  readonly fastestServer: string;
  /** Median ceiling / the fastest server's median. */
  readonly multiple: number;
  /** The lowest of the rounds' own multiples (ceiling / fastest server of that round): how far noise took it. */
  readonly lowestRound: number;
  /** The multiple is at least GENERATOR_MARGIN. */
  readonly pass: boolean;
}

export const GENERATOR_MARGIN = 2;

export function checkGenerator(answer: string, ceiling: readonly number[], servers: Readonly<Record<string, readonly number[]>>): GeneratorCheck {
  const [fastestServer, fastest] = Object.entries(servers)
    .map(([name, rates]) => [name, median(rates)] as const)
    .reduce((best, next) => (next[1] > best[1] ? next : best));
  const multiple = median(ceiling) / fastest;
  const lowestRound = Math.min(...ceiling.map((rate, round) => rate / Math.max(...Object.values(servers).map((rates) => rates[round] as number))));
  return { answer, ceiling: median(ceiling), fastest, fastestServer, multiple, lowestRound, pass: multiple >= GENERATOR_MARGIN };
}

export const checkLine = (check: GeneratorCheck) =>
  `generator ceiling, ${check.answer}: ${check.ceiling.toFixed(0)} req/s against the fastest server's ${check.fastest.toFixed(0)} ` +
  `(${check.fastestServer}): ${check.multiple.toFixed(2)}x, ${check.pass ? 'pass' : 'FAIL'} (needs >= ${GENERATOR_MARGIN}x; lowest round ${check.lowestRound.toFixed(2)}x)`;
