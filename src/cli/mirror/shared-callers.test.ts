import { ACCOUNT_SHAPES, accountFigures } from '../../../test/support/caller-sources';
import { mulberry32, seedFrom } from '../../startup-data/demo/random';
import { planCallers, type CallerPlan } from './caller-plan';
import type { AccountCallerFigures } from './figures';
import { shareCallers, type SharedCallers } from './shared-callers';

/** ALL's distinct callers over days first..last, counted again from the account's callers. */
function allCallersOver(plans: readonly CallerPlan[], shared: SharedCallers, first: number, last: number): number {
  const seen = new Set<number>();
  plans.forEach((plan, number) => {
    for (const day of plan.days.slice(first, last + 1)) for (const caller of day.callers) seen.add(shared.callerOf[number]?.[caller] ?? -1);
  });
  return seen.size;
}

/** The index of the stretch (of the geographic report) that holds each day. */
function stretchesOf(stretches: readonly { first: number; last: number }[]): (day: number) => number {
  return (day) => stretches.findIndex((stretch) => stretch.first <= day && stretch.last >= day);
}

function expectSharingSound(plans: readonly CallerPlan[], all: AccountCallerFigures, shared: SharedCallers, stretchOf: (day: number) => number): void {
  // A number's callers stay apart: each is a different account caller, so no number's count moves.
  plans.forEach((plan, number) => {
    expect(new Set(shared.callerOf[number]).size).toBe(plan.regionOf.length);
  });
  // Each number's calls per region and stretch are its plan's: only callers who call as often traded regions.
  plans.forEach((plan, number) => {
    const callerOf = shared.callerOf[number] ?? new Int32Array(0);
    const callsBy = (regionOf: (caller: number) => string) => {
      const calls = new Map<string, number>();
      plan.days.forEach((day, dayIndex) => {
        day.callers.forEach((caller, position) => {
          const key = `${stretchOf(dayIndex)} ${regionOf(caller)}`;
          calls.set(key, (calls.get(key) ?? 0) + (day.calls[position] ?? 0));
        });
      });
      return Object.fromEntries(calls);
    };
    expect(callsBy((caller) => shared.regionOf[callerOf[caller] ?? -1] ?? '')).toEqual(callsBy((caller) => plan.regionOf[caller] ?? ''));
  });
  // What it says it misses is exactly what differs.
  const periods = [...all.days.map((day, index) => ({ first: index, last: index, callers: day.callers })), ...all.pieces, ...all.weeks, ...all.months];
  const differing = periods
    .map((period) => ({ what: 'callers', first: period.first, last: period.last, source: period.callers, planned: allCallersOver(plans, shared, period.first, period.last) }))
    .filter((period) => period.planned !== period.source);
  expect(shared.unmet).toEqual(differing);
}

describe('the callers shared between numbers', () => {
  test.each(ACCOUNT_SHAPES)("keep every number's figures, never take ALL below the source, and tell exactly what they miss, for 30 accounts of $name", (shape) => {
    for (let seed = 0; seed < 30; seed += 1) {
      const account = accountFigures(mulberry32(seedFrom('shared callers', shape.people, seed)), { days: 70, ...shape });
      const plans = account.numbers.map((figures) => planCallers(figures));
      const stretchOf = stretchesOf(account.numbers[0]?.regions ?? []);
      const shared = shareCallers(plans, account.all, Int32Array.from(account.all.days, (_, day) => stretchOf(day)), seed);
      expectSharingSound(plans, account.all, shared, stretchOf);
      for (const unmet of shared.unmet) expect(unmet.planned).toBeGreaterThan(unmet.source);
    }
  });
});
