import { DateTime } from 'luxon';
import { firstKeyedDay, keyedFromEpoch, PERIODS, periodsOverlapping, WEEK_STARTS } from './periods';
import { calendarDateOf, epochDayOf, isoWeekdayIndex, localDayStartSeconds, localEpochDay } from '../../time/calendar';
import { offsetMinutes, offsetSpans } from '../../time/zone-offsets';

const day = (year: number, month: number, dayOfMonth: number) => epochDayOf({ year, month, day: dayOfMonth });

describe('calendar', () => {
  test('counts epoch days from 1970-01-01 and back again', () => {
    expect(day(1970, 1, 1)).toBe(0);
    expect(day(2018, 2, 7)).toBe(17569);
    expect(calendarDateOf(17569)).toEqual({ year: 2018, month: 2, day: 7 });
  });

  test('knows the weekday, Monday first', () => {
    expect(isoWeekdayIndex(day(1970, 1, 1))).toBe(3);
    expect(isoWeekdayIndex(day(2018, 2, 5))).toBe(0);
    expect(isoWeekdayIndex(day(2018, 2, 4))).toBe(6);
  });

  test('reads the local date of an instant in a time zone', () => {
    const instant = Date.parse('2018-02-08T03:00:00Z');
    expect(localEpochDay(instant, 'America/New_York')).toBe(day(2018, 2, 7));
    expect(localEpochDay(instant, 'Asia/Kolkata')).toBe(day(2018, 2, 8));
  });

  test('gives the Unix seconds of the local start of a day', () => {
    expect(localDayStartSeconds(day(2018, 2, 1), 'America/New_York')).toBe(1517461200);
    expect(localDayStartSeconds(day(2018, 2, 1), 'Asia/Kathmandu')).toBe(1517422500);
  });
});

describe('periods overlapping a range', () => {
  test('gives one day period per day', () => {
    expect(periodsOverlapping(day(2018, 2, 1), day(2018, 2, 3), 'day', 'monday')).toEqual([
      { start: day(2018, 2, 1), first: day(2018, 2, 1), last: day(2018, 2, 1) },
      { start: day(2018, 2, 2), first: day(2018, 2, 2), last: day(2018, 2, 2) },
      { start: day(2018, 2, 3), first: day(2018, 2, 3), last: day(2018, 2, 3) },
    ]);
  });

  test('clips weeks to the range but keys them by their own first day', () => {
    expect(periodsOverlapping(day(2018, 2, 1), day(2018, 2, 8), 'week', 'monday')).toEqual([
      { start: day(2018, 1, 29), first: day(2018, 2, 1), last: day(2018, 2, 4) },
      { start: day(2018, 2, 5), first: day(2018, 2, 5), last: day(2018, 2, 8) },
    ]);
  });

  test('starts weeks on Sunday when asked', () => {
    expect(periodsOverlapping(day(2018, 2, 4), day(2018, 2, 4), 'week', 'sunday')).toEqual([
      { start: day(2018, 2, 4), first: day(2018, 2, 4), last: day(2018, 2, 4) },
    ]);
  });

  test('crosses a year end by month, with months of their own lengths', () => {
    expect(periodsOverlapping(day(2019, 12, 15), day(2020, 2, 29), 'month', 'monday')).toEqual([
      { start: day(2019, 12, 1), first: day(2019, 12, 15), last: day(2019, 12, 31) },
      { start: day(2020, 1, 1), first: day(2020, 1, 1), last: day(2020, 1, 31) },
      { start: day(2020, 2, 1), first: day(2020, 2, 1), last: day(2020, 2, 29) },
    ]);
  });
});

describe('time zone arithmetic agrees with luxon', () => {
  const ZONES = ['America/New_York', 'America/Santiago', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Asia/Tehran', 'Africa/Casablanca', 'Pacific/Chatham', 'Europe/London', 'UTC'];
  let state = 42;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };

  test.each(ZONES)('gives the local date of 3,000 instants in %s as luxon does', (zone) => {
    const mismatches = [];
    for (let sample = 0; sample < 3_000; sample += 1) {
      const instant = Math.floor(random() * Date.UTC(2038, 0, 1));
      const local = DateTime.fromMillis(instant, { zone });
      const [actual, expected] = [localEpochDay(instant, zone), day(local.year, local.month, local.day)];
      if (actual !== expected) mismatches.push({ instant, actual, expected });
    }
    expect(mismatches).toEqual([]);
  });

  test.each(ZONES)('gives the start of every day from 2016 to 2020 in %s as luxon does', (zone) => {
    const mismatches = [];
    for (let current = day(2016, 1, 1); current <= day(2020, 12, 31); current += 1) {
      const { year, month, day: dayOfMonth } = calendarDateOf(current);
      const [actual, expected] = [localDayStartSeconds(current, zone), DateTime.fromObject({ year, month, day: dayOfMonth }, { zone }).toSeconds()];
      if (actual !== expected) mismatches.push({ day: current, actual, expected });
    }
    expect(mismatches).toEqual([]);
  });
});

describe('the start of a local day', () => {
  // Zones whose clocks have jumped at midnight, forward (midnight never happened) or back (it happened twice).
  const MIDNIGHT_ZONES = ['Asia/Gaza', 'America/Havana', 'America/Santiago', 'America/Asuncion', 'Asia/Beirut', 'America/Sao_Paulo'];

  test.each(MIDNIGHT_ZONES)('is the first instant whose local date is that day, every day from 2000 to 2030 in %s', (zone) => {
    const mismatches = [];
    for (let current = day(2000, 1, 1); current <= day(2030, 12, 31); current += 1) {
      const startMs = localDayStartSeconds(current, zone) * 1000;
      const [dayOfStart, dayBefore] = [localEpochDay(startMs, zone), localEpochDay(startMs - 1, zone)];
      if (dayOfStart !== current || dayBefore !== current - 1) mismatches.push({ day: current, dayOfStart, dayBefore });
    }
    expect(mismatches).toEqual([]);
  });
});

describe('the spans of one UTC offset of a zone', () => {
  const ZONES = ['America/New_York', 'Asia/Gaza', 'Australia/Lord_Howe', 'Africa/Monrovia', 'Europe/London', 'UTC'];
  let state = 7;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };

  test.each(ZONES)('cover 1970 to 2038 without gaps, each instant in the span of its offset, in %s', (zone) => {
    const from = 0;
    const to = Date.UTC(2038, 0, 1);
    const spans = offsetSpans(zone, from, to);
    expect(spans[0]?.startMs).toBe(from);
    expect(spans.at(-1)?.endMs).toBe(to + 1);
    for (let index = 1; index < spans.length; index += 1) {
      expect(spans[index]?.startMs).toBe(spans[index - 1]?.endMs);
      expect(spans[index]?.offsetMinutes).not.toBe(spans[index - 1]?.offsetMinutes);
    }
    const mismatches = [];
    for (const span of spans) {
      for (const instant of [span.startMs, span.endMs - 1]) {
        if (offsetMinutes(zone, instant) !== span.offsetMinutes) mismatches.push({ instant, span });
      }
    }
    for (let sample = 0; sample < 2_000; sample += 1) {
      const instant = Math.floor(random() * to);
      const span = spans.find((candidate) => candidate.startMs <= instant && instant < candidate.endMs);
      if (span?.offsetMinutes !== offsetMinutes(zone, instant)) mismatches.push({ instant, span });
    }
    expect(mismatches).toEqual([]);
  });

  test('are one span where the offset never changes', () => {
    expect(offsetSpans('UTC', 1000, 5000)).toEqual([{ startMs: 1000, endMs: 5001, offsetMinutes: 0 }]);
  });
});

describe('the first day whose period starts at or after the Unix epoch', () => {
  test.each([
    ['day', 'monday', 'UTC', day(1970, 1, 1)],
    ['day', 'monday', 'America/New_York', day(1970, 1, 1)],
    ['day', 'monday', 'Asia/Tokyo', day(1970, 1, 2)],
    ['week', 'monday', 'America/New_York', day(1970, 1, 5)],
    ['week', 'sunday', 'UTC', day(1970, 1, 4)],
    ['month', 'monday', 'America/New_York', day(1970, 1, 1)],
    ['month', 'sunday', 'Asia/Tokyo', day(1970, 2, 1)],
  ] as const)('is that of a %s (weeks from %s) in %s', (period, weekStart, zone, expected) => {
    expect(firstKeyedDay(period, weekStart, zone)).toBe(expected);
  });

  test.each(['UTC', 'America/New_York', 'Asia/Tokyo', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kathmandu'])(
    'keys its period at or after 0 and the period before it below 0, and every day from 1970-02-01 is keyed, in %s',
    (zone) => {
      for (const period of PERIODS) {
        for (const weekStart of WEEK_STARTS) {
          const first = firstKeyedDay(period, weekStart, zone);
          const [before, keyed] = periodsOverlapping(first - 1, first, period, weekStart);
          expect([localDayStartSeconds(before?.start ?? NaN, zone) < 0, localDayStartSeconds(keyed?.start ?? NaN, zone) >= 0]).toEqual([true, true]);
          expect([keyedFromEpoch(first - 1, period, weekStart, zone), keyedFromEpoch(first, period, weekStart, zone), keyedFromEpoch(day(1970, 2, 1), period, weekStart, zone)]).toEqual([false, true, true]);
        }
      }
    },
  );
});
