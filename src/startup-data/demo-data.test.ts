import { DateTime } from 'luxon';
import { verifyPassword } from '../accounts/password-hash';
import { callRecordSchema, type CallRecord, type CallRecordInput, type PathStep } from '../domain/call-record';
import { normaliseCaller } from '../domain/caller';
import { regionOfCaller } from '../domain/caller-region';
import { generateDemoCallRecords, generateDemoCalls, type DemoCallOptions } from './demo/calls';
import { loadDemoData, type DemoAccount } from './demo/demo-account';
import { createMemoryStore } from '../storage/memory/memory-store';
import type { DayTotals } from '../storage/store';
import { epochDayOf } from '../time/calendar';
import { dailyTotals } from '../../test/support/day-totals';
import { FakeClock } from '../../test/support/fake-clock';

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
const eightWeeksRead = eightWeeks.map((record) => callRecordSchema.parse(record));

/** The local date a wire record falls on: `started_at` is written in the local offset. */
function localDate(record: CallRecordInput): DateTime {
  return DateTime.fromISO(record.started_at.slice(0, 10), { zone: TIME_ZONE });
}

function average(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function countBy<Value>(values: readonly Value[], keyOf: (value: Value) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(keyOf(value), (counts.get(keyOf(value)) ?? 0) + 1);
  return counts;
}

function pathOf(call: CallRecord): readonly PathStep[] {
  return call.path ?? [];
}

function visitsOf(call: CallRecord): number {
  return sum(pathOf(call).map((step) => step.visits));
}

/** How a caller was written on the wire. */
function callerForm(caller: string): string {
  if (caller.startsWith('+1')) return '+1 and 10 digits';
  if (caller.startsWith('+')) return '+ and another country code';
  if (caller.length === 11 && caller.startsWith('1')) return '1 and 10 digits';
  return caller.length === 10 ? '10 digits' : 'cut short';
}

describe('generateDemoCalls', () => {
  it('gives the same records for the same seed and different ones for another seed', () => {
    // As text: comparing thousands of records with their paths property by property takes seconds.
    expect(JSON.stringify(generate())).toBe(JSON.stringify(eightWeeks));
    expect(JSON.stringify(generate({ seed: 8 }))).not.toBe(JSON.stringify(eightWeeks));
  });

  it('starts no call after now, and does start calls earlier today', () => {
    const startTimes = eightWeeksRead.map((call) => call.startedAt);

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
    expect(eightWeeksRead.filter((call) => !PHONES.includes(call.phone))).toEqual([]);
    expect(eightWeeksRead.filter((call) => call.logEvents < 1)).toEqual([]);
    expect(eightWeeksRead.filter((call) => call.loops > call.logEvents || call.formItems > call.logEvents)).toEqual([]);
  });

  it('has callers who call again, a few of them often, and some calls with the caller withheld', () => {
    const callers = eightWeeksRead.flatMap((call) => (call.caller === undefined ? [] : [call.caller]));
    const callsByCaller = countBy(callers, (caller) => caller);
    const callsPerCaller = [...callsByCaller.values()].sort((a, b) => b - a);

    expect({
      calls: eightWeeksRead.length,
      withheld: eightWeeksRead.length - callers.length,
      distinctCallers: callsByCaller.size,
      callsFromRepeatCallers: sum(callsPerCaller.filter((calls) => calls > 1)),
      busiestCallers: callsPerCaller.slice(0, 5),
    }).toEqual({ calls: 9210, withheld: 535, distinctCallers: 4863, callsFromRepeatCallers: 4172, busiestCallers: [43, 32, 31, 26, 26] });
    expect(callsByCaller.size).toBeLessThan(0.6 * callers.length);
  });

  it('has clearly fewer distinct callers than calls with a caller in every full week', () => {
    const weeks = new Map<string, { calls: number; callers: Set<string> }>();
    for (const call of eightWeeksRead.filter((call) => call.caller !== undefined)) {
      const week = DateTime.fromMillis(call.startedAt, { zone: TIME_ZONE }).startOf('week').toISODate() ?? '';
      const totals = weeks.get(week) ?? { calls: 0, callers: new Set<string>() };
      totals.calls += 1;
      totals.callers.add(call.caller ?? '');
      weeks.set(week, totals);
    }
    const fullWeeks = [...weeks.values()].slice(1, -1);

    expect(fullWeeks).toHaveLength(7);
    expect(fullWeeks.filter((week) => week.callers.size > 0.85 * week.calls)).toEqual([]);
  });

  it('writes callers in every form the wire accepts, one caller in several forms', () => {
    const written = eightWeeks.flatMap((record) => (record.caller === undefined ? [] : [record.caller]));
    const formsOfOneCaller = new Map<string, Set<string>>();
    for (const caller of written) {
      const read = normaliseCaller(caller) ?? '';
      formsOfOneCaller.set(read, (formsOfOneCaller.get(read) ?? new Set()).add(callerForm(caller)));
    }

    expect(Object.fromEntries(countBy(written, callerForm))).toEqual({
      '10 digits': 2595,
      '1 and 10 digits': 4181,
      '+1 and 10 digits': 1731,
      '+ and another country code': 166,
      'cut short': 2,
    });
    expect(Math.max(...[...formsOfOneCaller.values()].map((forms) => forms.size))).toBe(3);
  });

  it('places callers in many states, in Canada, Puerto Rico and abroad, and a few nowhere', () => {
    const regions = countBy(
      eightWeeksRead.flatMap((call) => (call.caller === undefined ? [] : [call.caller])),
      regionOfCaller,
    );
    const states = [...regions.keys()].filter((region) => region.startsWith('US-')).sort();
    const elsewhere = [...regions].filter(([region]) => !region.startsWith('US-'));

    expect(states).toEqual([
      ...['US-AK', 'US-AL', 'US-AZ', 'US-CA', 'US-CO', 'US-CT', 'US-DC', 'US-FL', 'US-GA', 'US-HI', 'US-IL', 'US-IN'],
      ...['US-KY', 'US-LA', 'US-MA', 'US-MD', 'US-MI', 'US-MN', 'US-MO', 'US-NC', 'US-NJ', 'US-NM', 'US-NV', 'US-NY'],
      ...['US-OH', 'US-OK', 'US-OR', 'US-PA', 'US-SC', 'US-TN', 'US-TX', 'US-UT', 'US-VA', 'US-WA', 'US-WI'],
    ]);
    expect(Object.fromEntries(elsewhere)).toEqual({ CA: 463, PR: 221, MX: 60, GB: 57, FR: 29, DE: 20, ZZ: 8 });
  });

  it('makes most calls last one to six minutes and hang-ups a few seconds', () => {
    const seconds = eightWeeksRead.map((call) => (call.durationMs ?? 0) / 1000);
    const hangUps = eightWeeksRead.filter((call) => call.path === undefined);

    expect(seconds.filter((duration) => duration >= 60 && duration <= 360)).toHaveLength(6651);
    expect(hangUps).toHaveLength(1112);
    expect(hangUps.filter((call) => (call.durationMs ?? 0) > 12_000)).toEqual([]);
  });

  it('transfers some calls, a few twice, with transfer time only when transferred', () => {
    const transfers = countBy(eightWeeksRead, (call) => String(call.transfers));

    expect(Object.fromEntries(transfers)).toEqual({ 0: 7645, 1: 1384, 2: 181 });
    expect(eightWeeksRead.filter((call) => (call.transfers === 0) !== (call.transferMs === undefined))).toEqual([]);
    expect(eightWeeksRead.filter((call) => (call.transferMs ?? 0) > (call.durationMs ?? 0))).toEqual([]);
  });

  it('loads the start page and one more per form item visit, a few hundred milliseconds each', () => {
    const secondsPerLoad = eightWeeksRead.map((call) => (call.pageLoadMs ?? 0) / 1000 / (call.pageLoads ?? 1));

    expect(eightWeeksRead.filter((call) => call.pageLoads !== 1 + visitsOf(call))).toEqual([]);
    expect(secondsPerLoad.filter((seconds) => seconds < 0.1 || seconds > 1.5)).toEqual([]);
    expect(average(secondsPerLoad)).toBeCloseTo(0.322, 3);
  });

  it('raises script and fetch errors on a few calls, and on many on an incident day', () => {
    const days = new Map<string, CallRecord[]>();
    for (const call of eightWeeksRead) {
      const day = DateTime.fromMillis(call.startedAt, { zone: TIME_ZONE }).toISODate() ?? '';
      days.set(day, [...(days.get(day) ?? []), call]);
    }
    const jsErrorsPerCall = (calls: readonly CallRecord[]) => sum(calls.map((call) => call.jsErrors ?? 0)) / calls.length;
    const incidentDays = [...days].filter(([, calls]) => jsErrorsPerCall(calls) > 0.2).map(([day]) => day);

    expect({
      withJsErrors: eightWeeksRead.filter((call) => (call.jsErrors ?? 0) > 0).length,
      withFetchErrors: eightWeeksRead.filter((call) => (call.fetchErrors ?? 0) > 0).length,
      incidentDays,
    }).toEqual({ withJsErrors: 248, withFetchErrors: 234, incidentDays: ['2017-12-26', '2018-01-18', '2018-01-30'] });
  });

  it('sends nearly every call through the main menu, fewer on to billing and payment, with disconnects on the way', () => {
    const steps = eightWeeksRead.flatMap(pathOf);
    const funnel = new Map<string, { calls: number; visits: number; filled: number; transfer: number; disconnect: number }>();
    for (const step of steps) {
      const key = `${step.form}/${step.item}`;
      const totals = funnel.get(key) ?? { calls: 0, visits: 0, filled: 0, transfer: 0, disconnect: 0 };
      funnel.set(key, {
        calls: totals.calls + 1,
        visits: totals.visits + step.visits,
        filled: totals.filled + step.filled,
        transfer: totals.transfer + step.transfer,
        disconnect: totals.disconnect + step.disconnect,
      });
    }

    expect(new Set(steps.map((step) => step.application))).toEqual(
      new Set(['https://ivr.example.com/start.vxml', 'https://ivr.example.com/billing.vxml']),
    );
    expect(funnel.get('main_menu/selection')?.calls).toBeGreaterThan(0.85 * eightWeeksRead.length);
    expect(Object.fromEntries(funnel)).toEqual({
      'main_menu/selection': { calls: 8098, visits: 9168, filled: 7870, transfer: 0, disconnect: 217 },
      'account/account_number': { calls: 4959, visits: 5678, filled: 4827, transfer: 0, disconnect: 117 },
      'account/pin': { calls: 4827, visits: 5342, filled: 4712, transfer: 0, disconnect: 112 },
      'billing/bill_menu': { calls: 4712, visits: 5187, filled: 4599, transfer: 0, disconnect: 112 },
      'billing/payment_amount': { calls: 2886, visits: 3251, filled: 2812, transfer: 0, disconnect: 68 },
      'billing/confirm_payment': { calls: 2812, visits: 2953, filled: 2751, transfer: 0, disconnect: 61 },
      'transfer_agent/agent_queue': { calls: 1565, visits: 1565, filled: 1565, transfer: 1565, disconnect: 0 },
    });
  });

  it('keeps each path consistent: every visit ends one way, loops are re-visits, form items are entries', () => {
    const badSteps = eightWeeksRead.flatMap(pathOf).filter(
      (step) => step.filled + step.nomatch + step.noinput + step.disconnect !== step.visits || step.transfer > step.filled,
    );
    const badCalls = eightWeeksRead.filter((call) => {
      const path = pathOf(call);
      const disconnects = path.filter((step) => step.disconnect > 0);
      return (
        call.formItems !== path.length ||
        call.loops !== visitsOf(call) - path.length ||
        call.logEvents < 2 * visitsOf(call) ||
        disconnects.length > 1 ||
        (disconnects.length === 1 && disconnects[0] !== path.at(-1)) ||
        sum(path.map((step) => step.transfer)) > (call.transfers ?? 0)
      );
    });

    expect(badSteps).toEqual([]);
    expect(badCalls).toEqual([]);
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

describe('generateDemoCallRecords', () => {
  it('gives the calls of generateDemoCalls as callRecordSchema reads them', () => {
    const twoWeeks = options({ days: 14 });

    expect([...generateDemoCallRecords(twoWeeks)]).toEqual([...generateDemoCalls(twoWeeks)].map((record) => callRecordSchema.parse(record)));
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
    const totals = await dailyTotals(store, PHONES, today - 200, today + 30);

    const calls = totals.reduce((sum, day) => sum + day.calls, 0);
    expect(totals[0]?.day).toBe(today - 119);
    expect(totals.at(-1)?.day).toBe(today);
    expect(calls).toBeGreaterThan(10_000);
    expect(calls).toBeLessThan(40_000);
  });

  it('gives every report something to show: minutes, transfers, errors, page loads, repeat callers, places and paths', async () => {
    const first = today - 119;
    const totals = await dailyTotals(store, PHONES, first, today);
    const total = (field: Exclude<keyof DayTotals, 'day'>) => sum(totals.map((day) => day[field]));

    expect({
      calls: total('calls'),
      callMinutes: Math.round(total('durationMs') / 60_000),
      transfers: total('transfers'),
      jsErrors: total('jsErrors'),
      fetchErrors: total('fetchErrors'),
      pageLoads: total('pageLoads'),
      distinctCallers: await store.calls.distinctCallers(PHONES, [{ first, last: today }]),
      places: (await store.calls.regionTotals(PHONES, first, today)).length,
      formItems: (await store.calls.formItemTotals(PHONES, first, today, 1_000)).length,
    }).toEqual({
      calls: 18_275,
      callMinutes: 35_333,
      transfers: 3091,
      jsErrors: 731,
      fetchErrors: 674,
      pageLoads: 85_363,
      distinctCallers: [9261],
      places: 42,
      formItems: 7,
    });
  });
});
