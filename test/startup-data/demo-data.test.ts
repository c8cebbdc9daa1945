import { DateTime } from 'luxon';
import { verifyPassword } from '../../src/accounts/password-hash';
import { callRecordSchema, type CallRecordInput } from '../../src/domain/call-record';
import { generateDemoCalls, loadDemoData, type DemoAccount, type DemoCallOptions } from '../../src/startup-data/demo-data';
import { createMemoryStore } from '../../src/storage/memory/memory-store';
import { epochDayOf } from '../../src/time/calendar';
import { FakeClock } from '../support/fake-clock';

const PHONES = ['18005550100', '18005550101', '18005550102'];
const TIME_ZONE = 'America/New_York';
/** Wednesday 2018-02-07 10:00 in New York. */
const NOW = new FakeClock().now();

function options(overrides: Partial<DemoCallOptions> = {}): DemoCallOptions {
  return { phones: PHONES, days: 56, callsPerDay: 60, seed: 7, timeZone: TIME_ZONE, now: NOW, ...overrides };
}

function generate(overrides: Partial<DemoCallOptions> = {}): CallRecordInput[] {
  return [...generateDemoCalls(options(overrides))];
}

/** Eight weeks with the default options, generated once for the tests that only read it. */
const eightWeeks = generate();

/** The local date a wire record falls on: `started_at` is written in the local offset. */
function localDate(record: CallRecordInput): DateTime {
  return DateTime.fromISO(record.started_at.slice(0, 10), { zone: TIME_ZONE });
}

function average(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

describe('generateDemoCalls', () => {
  it('gives the same records for the same seed and different ones for another seed', () => {
    expect(generate()).toEqual(eightWeeks);
    expect(generate({ seed: 8 })).not.toEqual(eightWeeks);
  });

  it('starts no call after now, and does start calls earlier today', () => {
    const startTimes = eightWeeks.map((record) => callRecordSchema.parse(record).startedAt);

    expect(startTimes.filter((startedAt) => startedAt > NOW)).toEqual([]);
    expect(startTimes.some((startedAt) => startedAt > NOW - 10 * 3_600_000)).toBe(true);
  });

  it('yields the calls oldest first, over the given number of local days ending today', () => {
    const records = generate({ days: 10 });
    const startTimes = records.map((record) => callRecordSchema.parse(record).startedAt);

    expect(startTimes).toEqual([...startTimes].sort((a, b) => a - b));
    expect(records[0]?.started_at.slice(0, 10)).toBe('2018-01-29');
    expect(records.at(-1)?.started_at.slice(0, 10)).toBe('2018-02-07');
  });

  it('gives every call a unique id', () => {
    const ids = eightWeeks.map((record) => record.call_id);

    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives a past day the same calls whatever window it is generated in', () => {
    const isFeb5 = (record: CallRecordInput) => record.started_at.startsWith('2018-02-05');
    const today = generate({ days: 3 }).filter(isFeb5);
    const nextWeek = generate({ days: 14, now: NOW + 7 * 86_400_000 }).filter(isFeb5);

    expect(today.length).toBeGreaterThan(0);
    expect(nextWeek).toEqual(today);
  });

  it('makes weekdays busier than weekends on average', () => {
    const callsPerDay = new Map<string, { weekend: boolean; calls: number }>();
    for (const record of eightWeeks) {
      const date = localDate(record);
      const day = callsPerDay.get(date.toISODate() ?? '') ?? { weekend: date.weekday >= 6, calls: 0 };
      callsPerDay.set(date.toISODate() ?? '', { ...day, calls: day.calls + 1 });
    }
    const days = [...callsPerDay.values()];

    const weekday = average(days.filter((day) => !day.weekend).map((day) => day.calls));
    const weekend = average(days.filter((day) => day.weekend).map((day) => day.calls));

    expect(weekday).toBeGreaterThan(3 * weekend);
  });

  it('puts most weekday calls in local office hours, 9:00 to 17:59', () => {
    const weekdayHours = eightWeeks
      .filter((record) => localDate(record).weekday <= 5)
      .map((record) => Number(record.started_at.slice(11, 13)));

    const officeShare = weekdayHours.filter((hour) => hour >= 9 && hour <= 17).length / weekdayHours.length;

    expect(officeShare).toBeGreaterThan(0.6);
  });

  it('averages roughly callsPerDay calls per phone on a weekday', () => {
    const weekdayCalls = generate({ days: 28 }).filter((record) => localDate(record).weekday <= 5).length;

    const perPhonePerWeekday = weekdayCalls / PHONES.length / 20;

    expect(perPhonePerWeekday).toBeGreaterThan(40);
    expect(perPhonePerWeekday).toBeLessThan(80);
  });

  it('yields records that callRecordSchema accepts, with loops and form items no more than log events', () => {
    const parsed = eightWeeks.map((record) => callRecordSchema.parse(record));

    expect(parsed.filter((call) => !PHONES.includes(call.phone))).toEqual([]);
    expect(parsed.filter((call) => call.logEvents < 1)).toEqual([]);
    expect(parsed.filter((call) => call.loops > call.logEvents || call.formItems > call.logEvents)).toEqual([]);
  });

  it('writes each start time in the offset the time zone has at that instant, across a DST change', () => {
    const aroundSpringForward = generate({ days: 3, callsPerDay: 600, now: Date.UTC(2018, 2, 12, 12) });

    const offsetOf = (record: CallRecordInput) => record.started_at.slice(-6);
    const zoneOffsetAt = (record: CallRecordInput) =>
      DateTime.fromMillis(callRecordSchema.parse(record).startedAt, { zone: TIME_ZONE }).toFormat('ZZ');

    expect(aroundSpringForward.filter((record) => offsetOf(record) !== zoneOffsetAt(record))).toEqual([]);
    expect(new Set(aroundSpringForward.map(offsetOf))).toEqual(new Set(['-05:00', '-04:00']));
  });
});

describe('loadDemoData', () => {
  const store = createMemoryStore();
  const today = epochDayOf({ year: 2018, month: 2, day: 7 });
  let demo: DemoAccount;

  beforeAll(async () => {
    demo = await loadDemoData(store, new FakeClock());
  });

  it('describes the demo account, with last week ending today in its time zone', () => {
    expect(demo).toEqual({
      tool: 'dev',
      login: 'demo',
      password: 'demo-password',
      phones: PHONES,
      timeZone: TIME_ZONE,
      lastWeek: { start: '20180201', end: '20180207' },
    });
  });

  it('creates an active account whose password is demo-password and which owns the demo numbers', async () => {
    const account = await store.accounts.find('dev:demo');

    expect(account).toMatchObject({ tool: 'dev', login: 'demo', active: true, timeZone: TIME_ZONE });
    expect(await verifyPassword('demo-password', account?.passwordHash ?? '')).toBe(true);
    expect(await store.phones.ownedBy('dev:demo')).toEqual(PHONES);
  });

  it('adds about four months of calls up to today, and none after', async () => {
    const totals = await store.calls.dailyTotals(PHONES, today - 200, today + 30);

    const calls = totals.reduce((sum, day) => sum + day.calls, 0);
    expect(totals[0]?.day).toBe(today - 119);
    expect(totals.at(-1)?.day).toBe(today);
    expect(calls).toBeGreaterThan(10_000);
    expect(calls).toBeLessThan(40_000);
  });
});
