/**
 * npm run bench:events: throughput of the event tracker as a ratio against a plain Express route
 * returning the same bytes, measured in the same run, median of alternating rounds: one year by day of
 * every number merged (over a small and a large call history, to show that its cost follows the
 * periods, not the calls, and over the large one with no kept reports, the cost of a miss), and eight
 * days of one number. Bounded: BENCH_RUNS rounds of BENCH_SECONDS per target, on loopback.
 */
import { load, warmUp } from './load';
import { startServerProcess } from './processes';
import { compare, type Comparison } from './rounds';
import type { EventServers, Target } from './servers';
import { settings } from './settings';
import { runStandalone, type Log } from './standalone';

export interface EventTrackerFigures {
  readonly servers: EventServers;
  /** Requests per second of each target against the plain route sending the same bytes. */
  readonly year: { readonly small: Comparison; readonly large: Comparison; readonly uncached: Comparison };
  readonly week: Comparison;
  /** Large history against small: 1 when the cost does not depend on the number of calls. */
  readonly largeOverSmall: Comparison;
}

const loadOf = (target: Target) => ({ url: target.url, headers: target.authorization === undefined ? {} : { authorization: target.authorization } });

async function requestsPerSecond(target: Target): Promise<number> {
  return (await load(loadOf(target))).requests.average;
}

export async function measureEventTracker(log: Log): Promise<EventTrackerFigures> {
  const servers = await startServerProcess<EventServers>('bench/servers.ts', { nodeArgs: ['--expose-gc'] });
  try {
    const { year, week } = servers.info;
    const targets = { yearBaseline: year.baseline, small: year.small, large: year.large, uncached: year.uncached, weekBaseline: week.baseline, week: week.large };
    for (const target of Object.values(targets)) await warmUp(loadOf(target));
    const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, [] as number[]])) as Record<keyof typeof targets, number[]>;
    for (let round = 1; round <= settings.runs; round += 1) {
      for (const [name, target] of Object.entries(targets) as [keyof typeof targets, Target][]) samples[name].push(await requestsPerSecond(target));
      log(`round ${round}/${settings.runs}: ${Object.entries(samples).map(([name, values]) => `${name} ${values.at(-1)?.toFixed(0)}`).join(', ')} req/s`);
    }
    return {
      servers: servers.info,
      year: {
        small: compare(samples.small, samples.yearBaseline),
        large: compare(samples.large, samples.yearBaseline),
        uncached: compare(samples.uncached, samples.yearBaseline),
      },
      week: compare(samples.week, samples.weekBaseline),
      largeOverSmall: compare(samples.large, samples.small),
    };
  } finally {
    await servers.stop();
  }
}

function summary(figures: EventTrackerFigures): string[] {
  const { servers, year, week } = figures;
  const line = (label: string, figure: Comparison) => `  ${label}: ${figure.measured.toFixed(0)} req/s (${figure.ratio.toFixed(2)} of baseline)`;
  return [
    `${settings.runs} rounds of ${settings.seconds}s per target, ${settings.connections} connections, medians:`,
    `query ${servers.year.path} (365 day periods, ${servers.year.bodyBytes} bytes):`,
    `  plain Express route, same bytes: ${year.large.baseline.toFixed(0)} req/s (baseline 1.00)`,
    line(`event tracker, ${servers.smallCalls} calls stored`, year.small),
    line(`event tracker, ${servers.largeCalls} calls stored`, year.large),
    line(`event tracker, ${servers.largeCalls} calls, REPORT_CACHE_BYTES=0 (built every time)`, year.uncached),
    `  large history / small history: ${figures.largeOverSmall.ratio.toFixed(2)} (1.00 = cost independent of the number of calls)`,
    `query ${servers.week.path} (8 day periods, one number, ${servers.week.bodyBytes} bytes):`,
    `  plain Express route, same bytes: ${week.baseline.toFixed(0)} req/s (baseline 1.00)`,
    line(`event tracker, ${servers.largeCalls} calls stored`, week),
    `server heap after loading both histories: ${servers.heapMiB} MiB`,
  ];
}

if (require.main === module) runStandalone('bench:events', async (log) => summary(await measureEventTracker(log)));
