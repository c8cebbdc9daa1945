import { epochDayOf } from '../../time/calendar';
import { periodsOverlapping } from '../query/periods';
import { periodKeys } from './period-keys';

const day = (year: number, month: number, date: number) => epochDayOf({ year, month, day: date });

/** The keys of the weeks (Monday first) overlapping `from`..`to`, in `timeZone`. */
const weekKeys = (from: number, to: number, timeZone: string) => [...periodKeys(periodsOverlapping(from, to, 'week', 'monday'), 'week', timeZone).seconds];

describe('period keys', () => {
  test("key each week by its first day's local midnight in the account's time zone", () => {
    // 2018-01-31 is a Wednesday: its week began on Monday 2018-01-29, before the range.
    expect(weekKeys(day(2018, 1, 31), day(2018, 2, 8), 'America/New_York')).toEqual([
      1517202000, // 2018-01-29T00:00:00-05:00
      1517806800, // 2018-02-05T00:00:00-05:00
    ]);
    expect(weekKeys(day(2018, 1, 31), day(2018, 2, 8), 'Asia/Tokyo')).toEqual([
      1517151600, // 2018-01-29T00:00:00+09:00
      1517756400, // 2018-02-05T00:00:00+09:00
    ]);
  });

  test('follow the zone across a change of its offset: the week after daylight saving time begins starts at -04:00', () => {
    expect(weekKeys(day(2026, 3, 2), day(2026, 3, 15), 'America/New_York')).toEqual([
      1772427600, // 2026-03-02T00:00:00-05:00
      1773028800, // 2026-03-09T00:00:00-04:00
    ]);
  });

  test('write each key as the JSON text of an object key, in order', () => {
    const keys = periodKeys(periodsOverlapping(day(2018, 1, 31), day(2018, 2, 8), 'week', 'monday'), 'week', 'America/New_York');
    expect(keys.jsonText.toString('latin1')).toBe('"1517202000":"1517806800":');
    expect([...keys.jsonEnds]).toEqual([13, 26]);
  });
});
