import { callRecordSchema } from '../../domain/call-record';
import { regionOfCaller } from '../../domain/caller-region';
import { normaliseCaller } from '../../domain/caller';
import { CallerNumbers } from './caller-numbers';
import type { DayFigures, DistinctCallers, NumberFigures } from './figures';
import { planAccount } from './account-plan';
import { AccountCallers, callerFiguresOf, synthesizeNumber, type NumberCalls } from './synthesis';

/** A number's calls, planned as the only number mirrored. */
function synthesizedAlone(figures: NumberFigures): NumberCalls {
  const plan = planAccount([callerFiguresOf(figures)], undefined);
  return synthesizeNumber(figures, plan.numbers[0] ?? { days: [], callers: 0, unmet: [] }, new AccountCallers(plan.regionOf));
}

/** Distinct callers of days read as one week and one month: as many as the busiest day's, a caller calling on each day. */
function oneWeek(days: readonly DayFigures[]): DistinctCallers {
  const whole = [{ first: 0, last: days.length - 1, callers: Math.max(...days.map((day) => day.callers)) }];
  return { pieces: whole, weeks: whole, months: whole };
}

const DAY: DayFigures = {
  day: '20180207',
  startSecond: 1_517_979_600,
  calls: 3,
  logEvents: 10,
  loops: 2,
  formItems: 7,
  transfers: 1,
  jsErrors: 4,
  fetchErrors: 0,
  callers: 2,
  callMinuteHundredths: 153,
  transferMinuteHundredths: 75,
  pageLoadHundredths: 31,
};

describe('synthesizeNumber', () => {
  test("makes a day's calls whose sums are the day's figures, valid records placed where the geographic report said, with the flow's rows", () => {
    const figures: NumberFigures = {
      phone: '18005550100',
      days: [DAY],
      callers: oneWeek([DAY]),
      regions: [{ start: DAY.day, end: DAY.day, value: [{ region: 'GB', calls: 2 }, { region: 'US-TOLLFREE', calls: 1 }] }],
      flow: [{ start: DAY.day, end: DAY.day, value: [{ application: 'a.vxml', page: 'p', form: 'f', item: 'i', visits: 3, filled: 1, nomatch: 0, noinput: 2, transfer: 1, disconnect: 0 }] }],
    };
    const { records, shortfalls } = synthesizedAlone(figures);
    const calls = [...records].map((record) => callRecordSchema.parse(record));
    expect(shortfalls).toEqual([]);
    const sum = (field: (call: (typeof calls)[number]) => number) => calls.reduce((total, call) => total + field(call), 0);
    expect(calls.map((call) => call.callId)).toEqual(['mirror-18005550100-20180207-0', 'mirror-18005550100-20180207-1', 'mirror-18005550100-20180207-2']);
    expect([sum((call) => call.logEvents), sum((call) => call.loops), sum((call) => call.formItems)]).toEqual([10, 2, 7]);
    expect([sum((call) => call.durationMs ?? 0), sum((call) => call.transfers ?? 0), sum((call) => call.transferMs ?? 0)]).toEqual([91_800, 1, 45_000]);
    expect([sum((call) => call.jsErrors ?? 0), sum((call) => call.pageLoadMs ?? 0) / sum((call) => call.pageLoads ?? 0)]).toEqual([4, 310]);
    expect(calls.every((call) => call.startedAt >= DAY.startSecond * 1000 && call.startedAt < (DAY.startSecond + 23 * 3600) * 1000)).toBe(true);
    const callers = calls.map((call) => call.caller).filter((caller) => caller !== undefined);
    expect(new Set(callers).size).toBe(2);
    expect(callers.map((caller) => regionOfCaller(normaliseCaller(caller) ?? '')).sort()).toEqual(['GB', 'GB', 'US-TOLLFREE']);
    expect(calls.flatMap((call) => call.path ?? [])).toEqual(figures.flow[0]?.value);
  });

  test("deals a month's flow rows over its calls in turn, skipping a day without calls", () => {
    const step = (item: string) => ({ application: 'a.vxml', page: 'p', form: 'f', item, visits: 1, filled: 0, nomatch: 0, noinput: 0, transfer: 0, disconnect: 0 });
    const day = (date: string, calls: number): DayFigures => ({ ...DAY, day: date, calls, callers: 0, logEvents: 0, loops: 0, formItems: 0, transfers: 0, jsErrors: 0 });
    const figures: NumberFigures = {
      phone: '18005550100',
      days: [day('20180201', 2), day('20180202', 0), day('20180203', 1)],
      callers: oneWeek([day('20180201', 2)]),
      regions: [],
      flow: [{ start: '20180201', end: '20180203', value: [step('one'), step('two'), step('three'), step('four')] }],
    };
    const { records, shortfalls } = synthesizedAlone(figures);
    const items = [...records].map((record) => [record.call_id, (record.path ?? []).map((entry) => entry.item)]);
    expect(shortfalls).toEqual([]);
    expect(items).toEqual([
      ['mirror-18005550100-20180201-0', ['one', 'four']],
      ['mirror-18005550100-20180201-1', ['two']],
      ['mirror-18005550100-20180203-0', ['three']],
    ]);
  });

  test('says which figures it cannot meet: a flow with no call to carry it, a region no number of this data is placed in, once', () => {
    const quiet = { ...DAY, day: '20180208', calls: 0, callers: 0, logEvents: 0 };
    const figures: NumberFigures = {
      phone: '18005550100',
      days: [DAY, quiet],
      callers: oneWeek([DAY, quiet]),
      regions: [{ start: DAY.day, end: quiet.day, value: [{ region: 'XX', calls: 3 }] }],
      flow: [{ start: quiet.day, end: quiet.day, value: [{ application: 'a.vxml', page: 'p', form: 'f', item: 'i', visits: 1, filled: 0, nomatch: 0, noinput: 0, transfer: 0, disconnect: 0 }] }],
    };
    const { records, shortfalls } = synthesizedAlone(figures);
    expect([...records]).toHaveLength(3);
    expect(shortfalls).toEqual([
      "18005550100: the flow's 1 rows of 20180208-20180208 have too few calls to go on",
      '18005550100 on 20180207: no number of this version\'s data is placed in XX',
    ]);
  });
});

describe('CallerNumbers', () => {
  test('hands out distinct numbers that this server places in the region asked for: states, toll-free, countries, unplaceable', () => {
    const numbers = new CallerNumbers();
    for (const region of ['US-MA', 'US-DC', 'US-TOLLFREE', 'ZZ', 'GB', 'CA', 'PR', 'MX', 'GG', 'JP']) {
      const handed = Array.from({ length: 50 }, () => numbers.take(region));
      expect(new Set(handed).size).toBe(50);
      for (const number of handed) expect(regionOfCaller(normaliseCaller(number ?? '') ?? '')).toBe(region);
    }
  });

  test('gives nothing for a region no number is placed in', () => {
    expect(new CallerNumbers().take('XX')).toBeUndefined();
  });
});
