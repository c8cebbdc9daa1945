/**
 * The cost of the mirror's caller plan (src/cli/mirror/caller-plan.ts) for a year of busy numbers: the
 * time to plan each number and all of them, and the memory the plans hold, since a run holds every
 * number's plan while it writes (docs/mirror.md, "How callers are planned"). Each number's figures are
 * those of calls made here first: regulars of their own region calling again, some of them another number
 * of the account, people calling once, some callers withheld. The numbers are planned alone, then as the
 * account (account-plan.ts: their callers shared so that ALL's distinct counts come near the source's).
 * Each number is then planned in every shape too: what a number whose regions no shape meets would cost,
 * since planCallers stops at the first shape that meets them all. Run with --expose-gc:
 * `npm run bench:mirror-plan [numbers] [calls a day]`.
 */
import { DateTime } from 'luxon';
import { CALLER_SHAPES, planCallers, planShaped } from '../src/cli/mirror/caller-plan';
import { regionBook } from '../src/cli/mirror/caller-regions';
import { planAccount } from '../src/cli/mirror/account-plan';
import type { AccountCallerFigures, CallerFigures, DistinctPeriod } from '../src/cli/mirror/figures';
import { mulberry32, seedFrom, type Random } from '../src/startup-data/demo/random';

const NUMBERS = Number(process.argv[2] ?? 20);
const CALLS_PER_DAY = Number(process.argv[3] ?? 1_000);
const FIRST_DAY = DateTime.fromISO('2025-01-01', { zone: 'UTC' });
const DAYS = 365;
const REGULARS = 5_000;
const REGULAR_SHARE = 0.4;
/** Of a regular's calls, those to another number of the account than its own. */
const SHARED_SHARE = 0.15;
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

/** Each call's caller, per number and day; undefined for a withheld one. */
type Calls = (number | undefined)[][][];

/**
 * An account's calls: each number's regulars calling again, some of them another number of the account
 * (SHARED_SHARE of their calls), and people calling once.
 */
function accountCalls(random: Random): Calls {
  let nextOnce = REGULARS * NUMBERS;
  return Array.from({ length: NUMBERS }, (_, number) =>
    Array.from({ length: DAYS }, () => {
      const callers: (number | undefined)[] = [];
      const calls = Math.round(CALLS_PER_DAY * (0.5 + random()));
      for (let call = 0; call < calls; call += 1) {
        const who = random();
        if (who < WITHHELD_SHARE) callers.push(undefined);
        else if (who >= WITHHELD_SHARE + REGULAR_SHARE) callers.push(nextOnce++);
        else {
          const home = random() < SHARED_SHARE ? Math.floor(random() * NUMBERS) : number;
          callers.push(home * REGULARS + Math.floor(random() ** 1.5 * REGULARS));
        }
      }
      return callers;
    }),
  );
}

const regionOf = (caller: number) => REGIONS[Math.floor(mulberry32(caller)() ** 2 * REGIONS.length)] ?? 'ZZ';

function distinctIn(byDay: readonly (readonly (number | undefined)[])[], period: { first: number; last: number }): DistinctPeriod {
  const seen = new Set<number>();
  for (const day of byDay.slice(period.first, period.last + 1)) for (const caller of day) if (caller !== undefined) seen.add(caller);
  return { ...period, callers: seen.size };
}

function numberFigures(byDay: readonly (readonly (number | undefined)[])[]): CallerFigures {
  return {
    days: byDay.map((day) => ({ calls: day.length, callers: new Set(day.filter((caller) => caller !== undefined)).size })),
    pieces: PIECES.map((piece) => distinctIn(byDay, piece)),
    weeks: WEEKS.map((week) => distinctIn(byDay, week)),
    months: MONTHS.map((month) => distinctIn(byDay, month)),
    regions: MONTHS.map((month) => {
      const calls = new Map<string, number>();
      for (const day of byDay.slice(month.first, month.last + 1)) for (const caller of day) if (caller !== undefined) calls.set(regionOf(caller), (calls.get(regionOf(caller)) ?? 0) + 1);
      return { ...month, value: [...calls].map(([region, count]) => ({ region, calls: count })) };
    }),
  };
}

function allFigures(calls: Calls): AccountCallerFigures {
  const byDay = Array.from({ length: DAYS }, (_, day) => calls.flatMap((number) => number[day] ?? []));
  const { days, pieces, weeks, months } = numberFigures(byDay);
  return { days: days.map((day) => ({ callers: day.callers })), pieces, weeks, months };
}

function main(): void {
  if (global.gc === undefined) throw new Error('run with --expose-gc');
  const account = accountCalls(mulberry32(seedFrom('mirror plan bench', NUMBERS)));
  const figures = account.map(numberFigures);
  const all = allFigures(account);
  account.length = 0;
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
  const unmet = plans.reduce((sum, plan) => sum + plan.unmet.length, 0);
  global.gc();
  const afterPlans = process.memoryUsage();
  plans.length = 0;
  times.sort((a, b) => a - b);

  // The whole account, numbers and their callers shared, as a run plans it; the plan it holds while it writes.
  global.gc();
  const beforeAccount = process.memoryUsage();
  const accountStarted = performance.now();
  const accountPlan = planAccount(figures, all);
  const accountMs = performance.now() - accountStarted;
  global.gc();
  const afterAccount = process.memoryUsage();
  const allPeriods = all.days.length + all.pieces.length + all.weeks.length + all.months.length;

  const everyShapeStarted = performance.now();
  for (const number of figures) {
    const book = regionBook(number);
    for (const shape of CALLER_SHAPES) planShaped(number, book, shape);
  }
  const everyShapeMs = performance.now() - everyShapeStarted;
  const seconds = (ms: number) => Number((ms / 1000).toFixed(2));
  const line = {
    node: process.version,
    numbers: NUMBERS,
    days: DAYS,
    calls,
    callers: accountPlan.regionOf.length,
    sourceCallersOfMonths: all.months.reduce((sum, month) => sum + month.callers, 0),
    unmetFigures: unmet,
    planSeconds: seconds(elapsedMs),
    cpuSeconds: seconds((cpu.user + cpu.system) / 1000),
    medianNumberMs: Math.round(times[Math.floor(times.length / 2)] ?? 0),
    slowestNumberMs: Math.round(times[times.length - 1] ?? 0),
    accountSeconds: seconds(accountMs),
    sharingSeconds: seconds(accountMs - elapsedMs),
    allPeriodsMet: allPeriods - accountPlan.allUnmet.length,
    allPeriods,
    allMostAbove: Math.max(0, ...accountPlan.allUnmet.map((entry) => entry.planned - entry.source)),
    everyShapeSeconds: seconds(everyShapeMs),
    heldByNumbersPlansMiB: Number(((afterPlans.heapUsed + afterPlans.arrayBuffers - before.heapUsed - before.arrayBuffers) / MIB).toFixed(1)),
    heldByAccountPlanMiB: Number(((afterAccount.heapUsed + afterAccount.arrayBuffers - beforeAccount.heapUsed - beforeAccount.arrayBuffers) / MIB).toFixed(1)),
    peakRssMiB: Math.round((process.resourceUsage().maxRSS * 1024) / MIB),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

main();
