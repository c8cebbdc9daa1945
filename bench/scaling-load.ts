/**
 * The load of bench:scaling: the plan's batches posted by loaders (bench/scaling-loader.ts), one per
 * server instance, all instances on the one primary. A first phase of one instance, then the rest with
 * every instance; each phase's rate is the median of its 10-second intervals' records per second (what
 * the instances took together), beside its mean; loading stops when the time given runs out.
 */
import { startServerProcess as startScript } from './processes';
import { median } from './rounds';
import type { LoaderMessage, LoaderTask } from './scaling-loader';
import { batchCount, BATCH_RECORDS, type ScalingPlan } from './scaling-records';

export interface LoadPhase {
  readonly instances: number;
  readonly records: number;
  readonly seconds: number;
  /** Median over the phase's whole 10-second intervals (the mean when it had none). */
  readonly medianRecordsPerSecond: number;
  readonly meanRecordsPerSecond: number;
  readonly batchP50Ms: number;
  readonly batchP99Ms: number;
  /** 503 answers (sent again). */
  readonly unavailable: number;
}

const INTERVAL_MS = 10_000;

const percentile = (values: readonly number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? Number.NaN;

/** Runs one loader per URL over its share of batches [first, end); `stopAt` (performance.now()) stops them. */
async function phase(urls: readonly string[], token: string, plan: ScalingPlan, first: number, end: number, stopAt: number, log: (line: string) => void): Promise<LoadPhase> {
  const done: { at: number; records: number; ms: number; unavailable: number }[] = [];
  const loaders = await Promise.all(urls.map(() => startScript<{ ready: true }>('bench/scaling-loader.ts')));
  const began = performance.now();
  let lastLog = began;
  const finished = loaders.map(
    ({ child }, index) =>
      new Promise<void>((resolve, reject) => {
        const stopper = setTimeout(() => child.send('stop'), Math.max(0, stopAt - performance.now()));
        const ended = (error?: Error) => {
          clearTimeout(stopper);
          if (error === undefined) resolve();
          else reject(error);
        };
        child.on('message', (message: LoaderMessage) => {
          if ('done' in message) return ended();
          done.push({ at: performance.now(), records: message.records, ms: message.ms, unavailable: message.unavailable });
          if (performance.now() - lastLog > 60_000) {
            lastLog = performance.now();
            log(`  ${done.reduce((sum, batch) => sum + batch.records, 0).toLocaleString('en-US')} calls in ${((lastLog - began) / 1000).toFixed(0)} s`);
          }
        });
        child.once('exit', (code) => ended(code === 0 || code === null ? undefined : new Error(`loader ${index} exited with ${code}`)));
        child.send({ url: urls[index] as string, token, plan, first: first + index, step: urls.length, end } satisfies LoaderTask);
      }),
  );
  try {
    await Promise.all(finished);
  } finally {
    await Promise.all(loaders.map((loader) => loader.stop()));
  }
  const seconds = (performance.now() - began) / 1000;
  const records = done.reduce((sum, batch) => sum + batch.records, 0);
  const intervals = new Map<number, number>();
  for (const batch of done) {
    const interval = Math.floor((batch.at - began) / INTERVAL_MS);
    intervals.set(interval, (intervals.get(interval) ?? 0) + batch.records);
  }
  const whole = [...intervals].filter(([interval]) => (interval + 1) * INTERVAL_MS <= seconds * 1000).map(([, taken]) => taken / (INTERVAL_MS / 1000));
  const batchMs = done.map((batch) => batch.ms);
  return {
    instances: urls.length,
    records,
    seconds,
    medianRecordsPerSecond: whole.length > 0 ? median(whole) : records / seconds,
    meanRecordsPerSecond: records / seconds,
    batchP50Ms: percentile(batchMs, 50),
    batchP99Ms: percentile(batchMs, 99),
    unavailable: done.reduce((sum, batch) => sum + batch.unavailable, 0),
  };
}

/** The first `firstPhaseCalls` calls through the first URL alone, the rest through all of them, until `seconds` have passed. */
export async function loadCalls(
  urls: readonly string[],
  token: string,
  plan: ScalingPlan,
  firstPhaseCalls: number,
  seconds: number,
  log: (line: string) => void,
): Promise<LoadPhase[]> {
  const stopAt = performance.now() + seconds * 1000;
  const split = Math.min(batchCount(plan), Math.ceil(firstPhaseCalls / BATCH_RECORDS));
  log(`load: ${plan.calls.toLocaleString('en-US')} calls planned, ${split * BATCH_RECORDS} through 1 instance, the rest through ${urls.length}`);
  const phases = [await phase(urls.slice(0, 1), token, plan, 0, split, stopAt, log)];
  if (split < batchCount(plan) && performance.now() < stopAt) phases.push(await phase(urls, token, plan, split, batchCount(plan), stopAt, log));
  return phases;
}
