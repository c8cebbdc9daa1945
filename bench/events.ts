/**
 * npm run bench:events: throughput of the event tracker as a ratio against a plain Express route
 * returning the same bytes, measured in the same run, median of alternating rounds: one year by day of
 * every number merged (over a small and a large call history, to show that its cost follows the
 * periods, not the calls, and over the large one with no kept reports, the cost of a miss), and eight
 * days of one number. The app (logging at LOG_LEVEL=info into a file), the baseline and the generator's
 * ceiling each run in a process of their own pinned to core 0, wrk on core 1 (bench/wrk.ts, bench/load.ts).
 */
import { answersFile, bodyBytes, captureAnswer } from './answers';
import { alternateRounds, checkGenerator, checkLine, type GeneratorCheck, type Measured } from './load';
import { logFilePath, logWritten, startServerProcess } from './processes';
import { compare, type Comparison } from './rounds';
import { ALL_PIECES, PIECES, type EventServers, type Target } from './servers';
import { settings } from './settings';
import { runStandalone, type Log } from './standalone';
import { ensureLoadTools, prepareLoad, SERVER_CORE } from './wrk';

export interface EventTrackerFigures {
  readonly servers: EventServers;
  readonly yearBytes: number;
  readonly weekBytes: number;
  /** Requests per second of each target against the plain route sending the same bytes. */
  readonly year: { readonly small: Comparison; readonly large: Comparison; readonly uncached: Comparison };
  readonly week: Comparison;
  /**
   * The 8-day query with each piece of the fixed cost taken out, then all of them: against the baseline,
   * and the app with it (`share`: the ratio full / without, below 1 by the piece's part of a request).
   */
  readonly weekWithout: Readonly<Record<(typeof PIECES)[number] | typeof ALL_PIECES, { readonly against: Comparison; readonly share: Comparison }>>;
  /** Large history against small: 1 when the cost does not depend on the number of calls. */
  readonly largeOverSmall: Comparison;
  /** The generator against the fastest server, per answer. */
  readonly checks: readonly GeneratorCheck[];
  readonly leftOut: readonly string[];
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export async function measureEventTracker(log: Log): Promise<EventTrackerFigures> {
  await ensureLoadTools(log);
  const appLog = logFilePath('events-app');
  const app = await startServerProcess<EventServers>('bench/servers.ts', { nodeArgs: ['--expose-gc'], core: SERVER_CORE, logFile: appLog });
  const others: { stop(): Promise<void> }[] = [];
  try {
    const { year, week } = app.info;
    const authorized = (target: Target) => ({ url: target.url, headers: { authorization: target.authorization } });
    const yearAnswer = await captureAnswer(year.large.url, authorized(year.large));
    const weekAnswer = await captureAnswer(week.large.url, authorized(week.large));
    const file = answersFile([yearAnswer, weekAnswer]);
    const baseline = await startServerProcess<{ url: string }>('bench/plain-express-server.ts', { args: [file], core: SERVER_CORE });
    others.push(baseline);
    const ceiling = await startServerProcess<{ url: string }>('bench/ceiling-server.ts', { args: [file], core: SERVER_CORE });
    others.push(ceiling);
    const measured = (target: { url: string; headers?: Record<string, string> }): Measured => ({ load: prepareLoad(target, settings.connections) });
    const withoutNames = [...PIECES, ALL_PIECES] as const;
    // In this order, each figure of record (large, week) runs right after its baseline.
    const targets = {
      yearBaseline: measured({ url: baseline.info.url + year.path }),
      large: measured(authorized(year.large)),
      small: measured(authorized(year.small)),
      uncached: measured(authorized(year.uncached)),
      yearCeiling: measured(authorized({ url: ceiling.info.url + year.path, authorization: year.large.authorization })),
      weekBaseline: measured({ url: baseline.info.url + week.path }),
      week: measured(authorized(week.large)),
      ...(Object.fromEntries(withoutNames.map((name) => [`without ${name}`, measured(authorized(week.without[name]))])) as Record<
        `without ${(typeof withoutNames)[number]}`,
        Measured
      >),
      weekCeiling: measured(authorized({ url: ceiling.info.url + week.path, authorization: week.large.authorization })),
    };
    const { rates, leftOut } = await alternateRounds(targets, log);
    log(logWritten(appLog));
    return {
      servers: app.info,
      yearBytes: bodyBytes(yearAnswer),
      weekBytes: bodyBytes(weekAnswer),
      year: {
        small: compare(rates.small, rates.yearBaseline),
        large: compare(rates.large, rates.yearBaseline),
        uncached: compare(rates.uncached, rates.yearBaseline),
      },
      week: compare(rates.week, rates.weekBaseline),
      weekWithout: Object.fromEntries(
        withoutNames.map((name) => {
          const rate = rates[`without ${name}`];
          return [name, { against: compare(rate, rates.weekBaseline), share: compare(rates.week, rate) }];
        }),
      ) as EventTrackerFigures['weekWithout'],
      largeOverSmall: compare(rates.large, rates.small),
      checks: [
        checkGenerator(`event tracker, one year ALL (${kB(bodyBytes(yearAnswer))})`, rates.yearCeiling, {
          'plain Express route': rates.yearBaseline,
          'event tracker, small history': rates.small,
          'event tracker, large history': rates.large,
          'event tracker, no kept report': rates.uncached,
        }),
        checkGenerator(`event tracker, 8 days one number (${kB(bodyBytes(weekAnswer))})`, rates.weekCeiling, {
          'plain Express route': rates.weekBaseline,
          'event tracker': rates.week,
          ...Object.fromEntries(withoutNames.map((name) => [`event tracker without ${name}`, rates[`without ${name}`]])),
        }),
      ],
      leftOut,
    };
  } finally {
    for (const server of [app, ...others]) await server.stop();
  }
}

function summary(figures: EventTrackerFigures): string[] {
  const { servers, year, week } = figures;
  const line = (label: string, figure: Comparison) => `  ${label}: ${figure.measured.toFixed(0)} req/s (${figure.ratio.toFixed(2)} of baseline)`;
  return [
    `${settings.runs} rounds of ${settings.seconds}s per target, wrk -t1 -c${settings.connections} on core 1, servers on core 0, medians:`,
    `query ${servers.year.path} (365 day periods, ${figures.yearBytes} bytes):`,
    `  plain Express route, same bytes: ${year.large.baseline.toFixed(0)} req/s (baseline 1.00)`,
    line(`event tracker, ${servers.smallCalls} calls stored`, year.small),
    line(`event tracker, ${servers.largeCalls} calls stored`, year.large),
    line(`event tracker, ${servers.largeCalls} calls, REPORT_CACHE_BYTES=0 (built every time)`, year.uncached),
    `  large history / small history: ${figures.largeOverSmall.ratio.toFixed(2)} (1.00 = cost independent of the number of calls)`,
    `query ${servers.week.path} (8 day periods, one number, ${figures.weekBytes} bytes):`,
    `  plain Express route, same bytes: ${week.baseline.toFixed(0)} req/s (baseline 1.00)`,
    line(`event tracker, ${servers.largeCalls} calls stored`, week),
    ...Object.entries(figures.weekWithout).map(
      ([name, { against, share }]) => `${line(`  without ${name}`, against)}; the app with it: ${share.ratio.toFixed(2)} of the app without`,
    ),
    `server heap after loading both histories: ${servers.heapMiB} MiB`,
    ...figures.checks.map(checkLine),
    ...figures.leftOut.map((round) => `left out: ${round}`),
  ];
}

if (require.main === module) runStandalone('bench:events', async (log) => summary(await measureEventTracker(log)));
