import { MAX_PATH_STEPS, type CallRecordInput, type PathStep } from '../../domain/call-record';
import type { Region } from '../../domain/caller-region';
import { count, plural } from '../counts';
import type { NumberPlan } from './account-plan';
import { CallerNumbers } from './caller-numbers';
import { NO_CALLERS, type DayCallers } from './caller-regions';
import type { CallerFigures, DayFigures, NumberFigures, RangeFigures } from './figures';

/** The index-th of `parts` near-equal whole parts of `total`, the larger ones first. */
function share(total: number, parts: number, index: number): number {
  return Math.floor(total / parts) + (index < total % parts ? 1 : 0);
}

/** Calls start within the first 23 hours of their local day, so that a day that loses an hour to summer time keeps them all. */
const SPREAD_SECONDS = 23 * 3600;
const MS_PER_HUNDREDTH_OF_MINUTE = 600;
const MS_PER_HUNDREDTH_OF_SECOND = 10;

/** Whatever of the source's figures the calls could not reproduce, said in words; empty when every one is met. */
export type Shortfalls = string[];

/** Each day's form items of the flow, by the call (its index in the day) that carries them. */
type StepsByCall = Map<number, PathStep[]>;
const NO_STEPS: StepsByCall = new Map();

function stretchDays(days: readonly DayFigures[], stretch: RangeFigures<unknown>): number[] {
  const indexes: number[] = [];
  days.forEach((day, index) => {
    if (day.day >= stretch.start && day.day <= stretch.end) indexes.push(index);
  });
  return indexes;
}

/**
 * The flow's rows of each stretch dealt out over its calls, one row to each call in turn. A row's call is
 * found from the days' running totals of calls, so that a stretch of many calls costs no more than its rows.
 */
function placeFlow(figures: NumberFigures, shortfalls: Shortfalls): StepsByCall[] {
  const placed = figures.days.map((): StepsByCall => new Map());
  for (const stretch of figures.flow) {
    if (stretch.value.length === 0) continue;
    const days = stretchDays(figures.days, stretch).filter((dayIndex) => (figures.days[dayIndex]?.calls ?? 0) > 0);
    const callsBefore: number[] = [];
    let calls = 0;
    for (const dayIndex of days) {
      callsBefore.push(calls);
      calls += figures.days[dayIndex]?.calls ?? 0;
    }
    if (calls === 0 || stretch.value.length > calls * MAX_PATH_STEPS) {
      shortfalls.push(`${figures.phone}: the flow's ${stretch.value.length} rows of ${stretch.start}-${stretch.end} have too few calls to go on`);
      continue;
    }
    stretch.value.forEach((step, row) => {
      const ordinal = row % calls;
      const position = lastAtMost(callsBefore, ordinal);
      const steps = placed[days[position] ?? 0];
      const callIndex = ordinal - (callsBefore[position] ?? 0);
      const onCall = steps?.get(callIndex);
      if (onCall === undefined) steps?.set(callIndex, [step]);
      else onCall.push(step);
    });
  }
  return placed;
}

/** The index of the last of the ascending `values` that is at most `target` (the first is 0 and at most any target). */
function lastAtMost(values: readonly number[], target: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((values[middle] ?? 0) <= target) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** What of a number's figures decides who called when (caller-plan.ts), by index of its days. */
export function callerFiguresOf(figures: NumberFigures): CallerFigures {
  const indexOf = new Map(figures.days.map((day, index) => [day.day, index]));
  return {
    days: figures.days,
    ...figures.callers,
    regions: figures.regions.map((stretch) => ({ first: indexOf.get(stretch.start) ?? 0, last: indexOf.get(stretch.end) ?? 0, value: stretch.value })),
  };
}

/** What of a number's figures its plan does not meet, in words. */
function unmetInWords(figures: NumberFigures, plan: NumberPlan): Shortfalls {
  const named = (first: number, last: number) => `${figures.days[first]?.day ?? ''}-${figures.days[last]?.day ?? ''}`;
  return plan.unmet.map((unmet) =>
    unmet.what === 'callers'
      ? `${figures.phone} over ${named(unmet.first, unmet.last)}: ${plural(unmet.planned, 'distinct caller')}, where the source has ${count(unmet.source)}`
      : `${figures.phone} over ${named(unmet.first, unmet.last)}: ${plural(unmet.planned, 'call')} from ${unmet.region}, where the source's geographic report has ${count(unmet.source)}`,
  );
}

/**
 * The account's callers' numbers: each caller keeps one number over every day and every number it calls,
 * taken the first time it calls.
 */
export class AccountCallers {
  private readonly numberOf = new Map<number, string | undefined>();
  private readonly numbers = new CallerNumbers();

  constructor(readonly regionOf: readonly Region[]) {}

  regionOfCaller(caller: number): Region {
    return this.regionOf[caller] ?? '';
  }

  places(region: Region): boolean {
    return this.numbers.places(region);
  }

  /** The caller's number; undefined (`taken` false) when its region's ran out the first time it called. */
  numberOfCaller(caller: number): { readonly number: string | undefined; readonly taken: boolean } {
    if (this.numberOf.has(caller)) return { number: this.numberOf.get(caller), taken: false };
    const number = this.numbers.take(this.regionOfCaller(caller));
    this.numberOf.set(caller, number);
    return { number, taken: true };
  }
}

function wireTime(second: number): string {
  return new Date(second * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The regions of the planned callers that no number of this version's data is placed in, each said once,
 * on the first day a caller from it calls: those callers' calls are made without a caller.
 */
function regionsWithoutNumbers(figures: NumberFigures, plan: NumberPlan, callers: AccountCallers, shortfalls: Shortfalls): Set<Region> {
  const without = new Set<Region>();
  const placed = new Set<Region>();
  plan.days.forEach((day, index) => {
    for (const caller of day.callers) {
      const region = callers.regionOfCaller(caller);
      if (placed.has(region) || without.has(region)) continue;
      if (callers.places(region)) {
        placed.add(region);
        continue;
      }
      without.add(region);
      shortfalls.push(`${figures.phone} on ${figures.days[index]?.day ?? ''}: no number of this version's data is placed in ${region}`);
    }
  });
  return without;
}

/**
 * The day's calls' callers, in call order: each planned caller's number for as many calls as it made, then
 * none. A caller keeps one number over every day it calls on, taken the first day it calls.
 */
function callersOfDay(day: DayCallers, callers: AccountCallers, unplaceable: ReadonlySet<Region>, where: string, shortfalls: Shortfalls): (string | undefined)[] {
  const numbers: (string | undefined)[] = [];
  day.callers.forEach((caller, position) => {
    const region = callers.regionOfCaller(caller);
    const { number, taken } = callers.numberOfCaller(caller);
    if (taken && number === undefined && !unplaceable.has(region)) shortfalls.push(`${where}: the numbers this version's data places in ${region} ran out`);
    for (let call = 0; call < (day.calls[position] ?? 0); call += 1) numbers.push(number);
  });
  return numbers;
}

function* dayCalls(phone: string, day: DayFigures, callers: readonly (string | undefined)[], steps: StepsByCall): Generator<CallRecordInput> {
  const durationMs = day.callMinuteHundredths * MS_PER_HUNDREDTH_OF_MINUTE;
  const transferMs = day.transferMinuteHundredths * MS_PER_HUNDREDTH_OF_MINUTE;
  const pageLoadSeconds = (day.pageLoadHundredths * MS_PER_HUNDREDTH_OF_SECOND) / 1000;
  for (let index = 0; index < day.calls; index += 1) {
    const part = (total: number) => share(total, day.calls, index);
    const record: CallRecordInput = {
      call_id: `mirror-${phone}-${day.day}-${index}`,
      phone,
      started_at: wireTime(day.startSecond + Math.floor((index * SPREAD_SECONDS) / day.calls)),
      log_events: part(day.logEvents),
      loops: part(day.loops),
      form_items: part(day.formItems),
      duration_seconds: part(durationMs) / 1000,
      transfers: part(day.transfers),
      transfer_seconds: part(transferMs) / 1000,
      js_errors: part(day.jsErrors),
      fetch_errors: part(day.fetchErrors),
      page_loads: pageLoadSeconds > 0 ? 1 : 0,
      page_load_seconds: pageLoadSeconds,
    };
    const caller = callers[index];
    const path = steps.get(index);
    yield { ...record, ...(caller === undefined ? {} : { caller }), ...(path === undefined ? {} : { path }) };
  }
}

/** What a number's calls will be, known before any is made. */
export interface PlannedTotals {
  readonly calls: number;
  /** Calls given a caller: those of the planned callers whose region has numbers. */
  readonly callsWithCaller: number;
  /** Distinct callers over the range. */
  readonly callers: number;
  /** The flow's rows that calls will carry. */
  readonly flowRows: number;
}

export interface NumberCalls {
  readonly planned: PlannedTotals;
  /** The calls, day by day; made as they are read, so that a year of a busy number is never held whole. */
  readonly records: Iterable<CallRecordInput>;
  /** Said when planning, and added to while the records are made. */
  readonly shortfalls: Shortfalls;
}

/**
 * Calls that reproduce a number's figures. Per day: its calls, their counters' sums, minutes to the
 * hundredth, the average page load to the hundredth of a second (one page load a call), and distinct
 * callers. Per stretch of the geographic report: the calls of each region. Per stretch of the flow:
 * every row, each carried by one call. Call ids follow from the number, the day and the call's place in
 * it, so that mirroring a day again stores nothing new. The plan (callers, flow, totals) is made at once;
 * the calls only as they are read, so that a dry run costs no more than the plan. `plan` is the number's
 * part of the account's (account-plan.ts), its callers the account's.
 */
export function synthesizeNumber(figures: NumberFigures, plan: NumberPlan, callers: AccountCallers): NumberCalls {
  const shortfalls = unmetInWords(figures, plan);
  const steps = placeFlow(figures, shortfalls);
  const unplaceable = regionsWithoutNumbers(figures, plan, callers, shortfalls);
  let callsWithCaller = 0;
  for (const day of plan.days) {
    day.callers.forEach((caller, position) => {
      if (!unplaceable.has(callers.regionOfCaller(caller))) callsWithCaller += day.calls[position] ?? 0;
    });
  }
  const planned: PlannedTotals = {
    calls: figures.days.reduce((sum, day) => sum + day.calls, 0),
    callsWithCaller,
    callers: plan.callers,
    flowRows: steps.reduce((sum, byCall) => sum + [...byCall.values()].reduce((rows, path) => rows + path.length, 0), 0),
  };
  function* records(): Generator<CallRecordInput> {
    for (const [index, day] of figures.days.entries()) {
      if (day.calls === 0) continue;
      const where = `${figures.phone} on ${day.day}`;
      const numbers = callersOfDay(plan.days[index] ?? NO_CALLERS, callers, unplaceable, where, shortfalls);
      yield* dayCalls(figures.phone, day, numbers, steps[index] ?? NO_STEPS);
    }
  }
  return { planned, records: records(), shortfalls };
}
