import { sourceFigures } from '../../../test/support/caller-sources';
import { mulberry32, seedFrom } from '../../startup-data/demo/random';
import { planCallers, type CallerPlan } from './caller-plan';
import type { CallerFigures } from './figures';

/** Every figure counted again from the plan, independently of the planner's own count. */
function expectEveryFigureMet(figures: CallerFigures, plan: CallerPlan): void {
  expect(plan.unmet).toEqual([]);
  const callersOver = (period: { first: number; last: number }) => new Set(plan.days.slice(period.first, period.last + 1).flatMap((day) => [...day.callers])).size;
  figures.days.forEach((day, index) => {
    const planned = plan.days[index];
    expect([...(planned?.callers ?? [])]).toHaveLength(day.callers);
    expect(new Set(planned?.callers).size).toBe(day.callers);
    expect([...(planned?.calls ?? [])].every((calls) => calls >= 1)).toBe(true);
    expect([...(planned?.calls ?? [])].reduce((sum, calls) => sum + calls, 0)).toBeLessThanOrEqual(day.calls);
  });
  for (const period of [...figures.pieces, ...figures.weeks, ...figures.months]) expect({ ...period, callers: callersOver(period) }).toEqual(period);
  for (const stretch of figures.regions) {
    const calls = new Map<string, number>();
    for (const day of plan.days.slice(stretch.first, stretch.last + 1)) {
      day.callers.forEach((caller, position) => {
        const region = plan.regionOf[caller] ?? '';
        calls.set(region, (calls.get(region) ?? 0) + (day.calls[position] ?? 0));
      });
    }
    expect(Object.fromEntries(calls)).toEqual(Object.fromEntries(stretch.value.map((entry) => [entry.region, entry.calls])));
  }
}

/** The plan's own account of what it does not meet, counted again independently: every distinct count met, regions as it says. */
function expectCountsMetAndUnmetTold(figures: CallerFigures, plan: CallerPlan): void {
  const callersOver = (period: { first: number; last: number }) => new Set(plan.days.slice(period.first, period.last + 1).flatMap((day) => [...day.callers])).size;
  const dayPeriods = figures.days.map((day, index) => ({ first: index, last: index, callers: day.callers }));
  for (const period of [...dayPeriods, ...figures.pieces, ...figures.weeks, ...figures.months]) expect({ ...period, callers: callersOver(period) }).toEqual(period);
  const told = plan.unmet.filter((unmet) => unmet.what === 'region');
  const regionsMet = figures.regions.filter((stretch) => !told.some((unmet) => unmet.first === stretch.first));
  expectEveryFigureMet({ ...figures, regions: regionsMet }, { ...plan, unmet: plan.unmet.filter((unmet) => unmet.what !== 'region') });
}

const SHAPES = [
  { name: 'a few people calling nearly every day', people: 4, callsPerDay: 12, mostMissed: 3 },
  { name: 'people who call again, some often', people: 150, callsPerDay: 20, mostMissed: 1 },
  { name: 'many people calling once or twice', people: 5_000, callsPerDay: 60, mostMissed: 0 },
] as const;

describe('planCallers', () => {
  test.each(SHAPES)('meets every distinct count of 200 sources of $name, and every region of all but $mostMissed, saying which it misses', ({ people, callsPerDay, mostMissed }) => {
    let missed = 0;
    for (let seed = 0; seed < 200; seed += 1) {
      const figures = sourceFigures(mulberry32(seedFrom('caller plan', people, seed)), { days: 70, people, callsPerDay });
      const plan = planCallers(figures);
      expectCountsMetAndUnmetTold(figures, plan);
      if (plan.unmet.length > 0) missed += 1;
    }
    // As measured on these sources; docs/mirror.md states the shares.
    expect(missed).toBeLessThanOrEqual(mostMissed);
  });

  test('a caller of the last days of a month who calls again in the first days of the next keeps one region over both', () => {
    const figures: CallerFigures = {
      days: [{ calls: 2, callers: 1 }, { calls: 1, callers: 1 }],
      pieces: [{ first: 0, last: 0, callers: 1 }, { first: 1, last: 1, callers: 1 }],
      weeks: [{ first: 0, last: 1, callers: 1 }],
      months: [{ first: 0, last: 0, callers: 1 }, { first: 1, last: 1, callers: 1 }],
      regions: [
        { first: 0, last: 0, value: [{ region: 'GB', calls: 2 }] },
        { first: 1, last: 1, value: [{ region: 'GB', calls: 1 }] },
      ],
    };
    const plan = planCallers(figures);
    expectEveryFigureMet(figures, plan);
    expect(plan.regionOf).toEqual(['GB']);
  });

  test('says which figure it cannot meet, and what it has instead, when the figures contradict each other', () => {
    const figures: CallerFigures = {
      days: [{ calls: 2, callers: 1 }, { calls: 2, callers: 1 }],
      pieces: [{ first: 0, last: 1, callers: 3 }],
      weeks: [{ first: 0, last: 1, callers: 3 }],
      months: [{ first: 0, last: 1, callers: 3 }],
      regions: [{ first: 0, last: 1, value: [{ region: 'GB', calls: 4 }] }],
    };
    expect(planCallers(figures).unmet).toEqual([
      { what: 'callers', first: 0, last: 1, source: 3, planned: 2 },
      { what: 'callers', first: 0, last: 1, source: 3, planned: 2 },
      { what: 'callers', first: 0, last: 1, source: 3, planned: 2 },
    ]);
  });
});
