/**
 * The cost of the mirror's caller plan (src/cli/mirror/caller-plan.ts) for a year of busy numbers: the
 * time to plan each number and all of them, and the memory the plans hold, since a run holds every
 * number's plan while it writes (docs/mirror.md, "How callers are planned"). Each number's figures are
 * those of calls made here first: regulars of their own region calling again, people calling once, some
 * callers withheld. Each number is then planned in every shape too: what a number whose regions no shape
 * meets would cost, since planCallers stops at the first shape that meets them all. Run with --expose-gc: `npm run bench:mirror-plan [numbers] [calls a day]`.
 */
import { DateTime } from 'luxon';
import { CALLER_SHAPES, planCallers, planShaped } from '../src/cli/mirror/caller-plan';
import { regionBook } from '../src/cli/mirror/caller-regions';
import type { CallerFigures, DistinctPeriod } from '../src/cli/mirror/figures';
import { mulberry32, seedFrom, type Random } from '../src/startup-data/demo/random';

const NUMBERS = Number(process.argv[2] ?? 20);
const CALLS_PER_DAY = Number(process.argv[3] ?? 1_000);
const FIRST_DAY = DateTime.fromISO('2025-01-01', { zone: 'UTC' });
const DAYS = 365;
const REGULARS = 5_000;
const REGULAR_SHARE = 0.4;
const WITHHELD_SHARE = 0.06;
const REGIONS = Array.from({ length: 60 }, (_, index) => `US-R${index}`);
const MIB = 1024 * 1024;

/** Consecutive periods of the year, each starting on a day `startsOn` says starts one. */
function periods(startsOn: (day: DateTime) => boolean): { first: number; last: number }[] {
  const firsts = Array.from({ length: DAYS }, (_, index) => index).filter((index) => index === 0 || startsOn(FIRST_DAY.plus({ days: index })));
  return firsts.map((first, index) => ({ first, last: (firsts[index + 1] ?? DAYS) - 1 }));
}

const MONTHS = periods((day) => day.day === 1);
const WEEKS = periods((day) => day.weekday === 1);
const PIECES = periods((day) => day.day === 1 || day.weekday === 1);

function numberFigures(random: Random): CallerFigures {
  const regionOf = (caller: number) => REGIONS[Math.floor(mulberry32(caller)() ** 2 * REGIONS.length)] ?? 'ZZ';
  let nextOnce = REGULARS;
  const byDay = Array.from({ length: DAYS }, () => {
    const callers: number[] = [];
    let withheld = 0;
    const calls = Math.round(CALLS_PER_DAY * (0.5 + random()));
    for (let call = 0; call < calls; call += 1) {
      const who = random();
      if (who < WITHHELD_SHARE) withheld += 1;
      else callers.push(who < WITHHELD_SHARE + REGULAR_SHARE ? Math.floor(random() ** 1.5 * REGULARS) : nextOnce++);
    }
    return { callers, withheld };
  });
  const distinct = (period: { first: number; last: number }): DistinctPeriod => {
    const seen = new Set<number>();
    for (const day of byDay.slice(period.first, period.last + 1)) for (const caller of day.callers) seen.add(caller);
    return { ...period, callers: seen.size };
  };
  return {
    days: byDay.map((day) => ({ calls: day.callers.length + day.withheld, callers: new Set(day.callers).size })),
    pieces: PIECES.map(distinct),
    weeks: WEEKS.map(distinct),
    months: MONTHS.map(distinct),
    regions: MONTHS.map((month) => {
      const calls = new Map<string, number>();
      for (const day of byDay.slice(month.first, month.last + 1)) for (const caller of day.callers) calls.set(regionOf(caller), (calls.get(regionOf(caller)) ?? 0) + 1);
      return { ...month, value: [...calls].map(([region, count]) => ({ region, calls: count })) };
    }),
  };
}

function main(): void {
  if (global.gc === undefined) throw new Error('run with --expose-gc');
  const figures = Array.from({ length: NUMBERS }, (_, index) => numberFigures(mulberry32(seedFrom('mirror plan bench', index))));
  const calls = figures.reduce((sum, number) => sum + number.days.reduce((total, day) => total + day.calls, 0), 0);
  global.gc();
  const before = process.memoryUsage();
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const times: number[] = [];
  const plans = figures.map((number) => {
    const start = performance.now();
    const plan = planCallers(number);
    times.push(performance.now() - start);
    return plan;
  });
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStarted);
  global.gc();
  const after = process.memoryUsage();
  const unmet = plans.reduce((sum, plan) => sum + plan.unmet.length, 0);
  const callers = plans.reduce((sum, plan) => sum + plan.regionOf.length, 0);
  times.sort((a, b) => a - b);
  const everyShapeStarted = performance.now();
  for (const number of figures) {
    const book = regionBook(number);
    for (const shape of CALLER_SHAPES) planShaped(number, book, shape);
  }
  const everyShapeMs = performance.now() - everyShapeStarted;
  const line = {
    node: process.version,
    numbers: NUMBERS,
    days: DAYS,
    calls,
    callers,
    unmetFigures: unmet,
    planSeconds: Number((elapsedMs / 1000).toFixed(2)),
    cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
    medianNumberMs: Math.round(times[Math.floor(times.length / 2)] ?? 0),
    slowestNumberMs: Math.round(times[times.length - 1] ?? 0),
    everyShapeSeconds: Number((everyShapeMs / 1000).toFixed(2)),
    heldMiB: Number(((after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / MIB).toFixed(1)),
    peakRssMiB: Math.round((process.resourceUsage().maxRSS * 1024) / MIB),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

main();
