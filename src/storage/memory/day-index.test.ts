import { DayIndex } from './day-index';

describe('day index', () => {
  it('keeps a value per day, in and across chunks, before 1970 and far off', () => {
    const index = new DayIndex<string>();
    const days = [-300, -1, 0, 255, 256, 20_089, 20_453, 2_932_896];
    for (const day of days) index.getOrAdd(day, () => `day ${day}`);
    expect(days.map((day) => index.get(day))).toEqual(days.map((day) => `day ${day}`));
    expect([-2, 1, 257, 20_090].map((day) => index.get(day))).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('makes a value once and returns the same one after', () => {
    const index = new DayIndex<{ count: number }>();
    index.getOrAdd(7, () => ({ count: 0 })).count += 1;
    index.getOrAdd(7, () => ({ count: 100 })).count += 1;
    expect(index.get(7)).toEqual({ count: 2 });
  });
});
