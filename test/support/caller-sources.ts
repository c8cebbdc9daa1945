import type { Random } from '../../src/startup-data/demo/random';
import type { AccountCallerFigures, CallerFigures, DistinctPeriod, RegionStretch } from '../../src/cli/mirror/figures';

/*
 * Figures of the mirror's caller plans as a source computes them from calls: people with a region each,
 * a few of them calling often, on days of a range that starts anywhere in a week and a month.
 */

const REGIONS = ['US-NY', 'US-CA', 'US-TOLLFREE', 'GB', 'FR', 'MX', 'ZZ', 'CA', 'US-MA', 'DE', 'US-TX', 'JP'];
const WITHHELD_SHARE = 0.06;

/** Consecutive periods covering `days` days, each starting at one of `starts` (the first at day 0). */
function periodsFrom(days: number, starts: readonly number[]): { first: number; last: number }[] {
  const firsts = [0, ...starts.filter((start) => start > 0 && start < days)];
  return firsts.map((first, index) => ({ first, last: (firsts[index + 1] ?? days) - 1 }));
}

/** Weeks cut by months: a week's days within one month. */
function piecesOf(weeks: readonly { first: number; last: number }[], monthStarts: readonly number[]): { first: number; last: number }[] {
  return weeks.flatMap((week) => periodsFrom(week.last - week.first + 1, monthStarts.map((start) => start - week.first)).map((part) => ({ first: part.first + week.first, last: part.last + week.first })));
}

/** A range's days, and the first days of its months and weeks, starting anywhere in both. */
interface Calendar {
  readonly days: number;
  readonly monthStarts: readonly number[];
  readonly weekStarts: readonly number[];
}

function calendar(random: Random, mostDays: number): Calendar {
  const days = 1 + Math.floor(random() * mostDays);
  const monthStarts: number[] = [];
  for (let start = Math.floor(random() * 31); start < days; start += 28 + Math.floor(random() * 4)) monthStarts.push(start);
  const weekStarts: number[] = [];
  for (let start = Math.floor(random() * 7); start < days; start += 7) weekStarts.push(start);
  return { days, monthStarts, weekStarts };
}

/** Each call's caller, per day; undefined for a withheld one. */
type CallsOfDay = readonly (readonly (number | undefined)[])[];

function distinctIn(callsOfDay: CallsOfDay, period: { first: number; last: number }): DistinctPeriod {
  const callers = new Set(callsOfDay.slice(period.first, period.last + 1).flat().filter((caller) => caller !== undefined));
  return { ...period, callers: callers.size };
}

function figuresOf(range: Calendar, regionOf: readonly string[], callsOfDay: CallsOfDay): CallerFigures {
  const months = periodsFrom(range.days, range.monthStarts);
  const weeks = periodsFrom(range.days, range.weekStarts);
  const regions = months.map((month): RegionStretch => {
    const calls = new Map<string, number>();
    for (const caller of callsOfDay.slice(month.first, month.last + 1).flat()) {
      if (caller !== undefined) calls.set(regionOf[caller] ?? '', (calls.get(regionOf[caller] ?? '') ?? 0) + 1);
    }
    return { ...month, value: [...calls].map(([region, count]) => ({ region, calls: count })) };
  });
  return {
    days: callsOfDay.map((callers) => ({ calls: callers.length, callers: new Set(callers.filter((caller) => caller !== undefined)).size })),
    pieces: piecesOf(weeks, range.monthStarts).map((piece) => distinctIn(callsOfDay, piece)),
    weeks: weeks.map((week) => distinctIn(callsOfDay, week)),
    months: months.map((month) => distinctIn(callsOfDay, month)),
    regions,
  };
}

function regionsOfPeople(random: Random, mostPeople: number): string[] {
  return Array.from({ length: 1 + Math.floor(random() * mostPeople) }, () => REGIONS[Math.floor(random() ** 2 * REGIONS.length)] ?? 'ZZ');
}

/** A number's figures. */
export function sourceFigures(random: Random, shape: { days: number; people: number; callsPerDay: number }): CallerFigures {
  const range = calendar(random, shape.days);
  const people = regionsOfPeople(random, shape.people);
  const skew = 1 + random() * 3;
  const callsOfDay = Array.from({ length: range.days }, () => {
    const callers: (number | undefined)[] = [];
    const calls = Math.floor(random() * shape.callsPerDay);
    for (let call = 0; call < calls; call += 1) callers.push(random() < WITHHELD_SHARE ? undefined : Math.floor(random() ** skew * people.length));
    return callers;
  });
  return figuresOf(range, people, callsOfDay);
}

/**
 * An account's numbers' figures and its ALL's: each person calls a number of its own, and the others at
 * times (`elsewhere`: the share of its calls to another number).
 */
export function accountFigures(
  random: Random,
  shape: { days: number; people: number; callsPerDay: number; numbers: number; elsewhere: number },
): { readonly numbers: CallerFigures[]; readonly all: AccountCallerFigures } {
  const range = calendar(random, shape.days);
  const people = regionsOfPeople(random, shape.people);
  const home = people.map(() => Math.floor(random() * shape.numbers));
  const skew = 1 + random() * 3;
  const byNumber = Array.from({ length: shape.numbers }, () => Array.from({ length: range.days }, (): (number | undefined)[] => []));
  for (let day = 0; day < range.days; day += 1) {
    const calls = Math.floor(random() * shape.callsPerDay * shape.numbers);
    for (let call = 0; call < calls; call += 1) {
      const caller = random() < WITHHELD_SHARE ? undefined : Math.floor(random() ** skew * people.length);
      const number = caller !== undefined && random() >= shape.elsewhere ? (home[caller] ?? 0) : Math.floor(random() * shape.numbers);
      byNumber[number]?.[day]?.push(caller);
    }
  }
  const numbers = byNumber.map((callsOfDay) => figuresOf(range, people, callsOfDay));
  const everyCall = Array.from({ length: range.days }, (_, day) => byNumber.flatMap((callsOfDay) => callsOfDay[day] ?? []));
  const { days, pieces, weeks, months } = figuresOf(range, people, everyCall);
  return { numbers, all: { days: days.map((day) => ({ callers: day.callers })), pieces, weeks, months } };
}

/** Shapes of accounts, for the sharing of callers between numbers (shared-callers.test.ts, account-plan.test.ts). */
export const ACCOUNT_SHAPES = [
  { name: 'a few people calling several numbers nearly every day', people: 6, callsPerDay: 8, numbers: 3, elsewhere: 0.4 },
  { name: 'people who call again, some another number', people: 200, callsPerDay: 15, numbers: 4, elsewhere: 0.2 },
  { name: 'people calling any of the numbers, as the demo account\'s do', people: 600, callsPerDay: 20, numbers: 3, elsewhere: 1 },
  { name: 'many people calling once or twice, a few of them two numbers', people: 5_000, callsPerDay: 40, numbers: 3, elsewhere: 0.1 },
] as const;

