import { MAX_PATH_STEPS, type CallRecordInput, type PathStep } from '../../domain/call-record';
import type { Region } from '../../domain/caller-region';
import type { CallerNumbers } from './caller-numbers';
import type { DayFigures, NumberFigures, RangeFigures, RegionCalls } from './figures';

/** One distinct caller of a day: where its number is from, and how many of the day's calls it made. */
export interface PlannedCaller {
  readonly region: Region;
  readonly calls: number;
}

export interface CallerPlan {
  /** Per day, in the order given, its distinct callers. */
  readonly days: readonly (readonly PlannedCaller[])[];
  /** Calls of the regions that no day could take, and days' callers that no region could give: 0 when the plan is exact. */
  readonly unplacedCalls: number;
  readonly missingCallers: number;
}

interface Remaining {
  readonly region: Region;
  left: number;
}

/**
 * The day's `taken` calls in at most `callers` pieces of one region each: the regions with the fewest calls
 * left are taken whole first (at most all pieces but one), so that none is left at the end for a day with
 * too few callers to reach it; the rest comes from the regions with the most calls left.
 */
function takePieces(regions: Remaining[], taken: number, callers: number): PlannedCaller[] {
  const open = regions.filter((entry) => entry.left > 0).sort((a, b) => a.left - b.left || (a.region < b.region ? -1 : 1));
  const pieces: PlannedCaller[] = [];
  let wanted = taken;
  let largest = open.length - 1;
  let smallest = 0;
  const reachable = (from: number, to: number, count: number) => {
    let sum = 0;
    for (let index = to; index >= from && index > to - count; index -= 1) sum += open[index]?.left ?? 0;
    return sum;
  };
  // A small region is taken whole while the pieces left can still carry the rest, from the largest regions.
  for (; smallest < largest && pieces.length < callers - 1; smallest += 1) {
    const entry = open[smallest];
    if (entry === undefined) break;
    const rest = wanted - entry.left;
    const piecesLeft = callers - pieces.length - 1;
    if (rest < piecesLeft || rest > reachable(smallest + 1, largest, piecesLeft)) break;
    pieces.push({ region: entry.region, calls: entry.left });
    wanted = rest;
    entry.left = 0;
  }
  for (; wanted > 0 && largest >= smallest && pieces.length < callers; largest -= 1) {
    const entry = open[largest];
    if (entry === undefined) break;
    const part = Math.min(wanted, entry.left);
    pieces.push({ region: entry.region, calls: part });
    entry.left -= part;
    wanted -= part;
  }
  return pieces;
}

/** The most calls `callers` pieces can take: the regions with the most calls left, one piece each. */
function mostReachable(regions: readonly Remaining[], callers: number): number {
  return regions
    .map((entry) => entry.left)
    .sort((a, b) => b - a)
    .slice(0, callers)
    .reduce((sum, left) => sum + left, 0);
}

/**
 * Gives each day of a stretch its distinct callers, each with a region and its calls, so that the days
 * have exactly their `callers` and the regions exactly their calls over the stretch. A day takes at least
 * one call per caller, at most its calls, and no more than its callers' pieces can reach (takePieces).
 * Within those bounds it takes its share of the calls beyond one per caller, by its calls beyond its
 * callers, so that the last days are not left with more than they can take.
 */
export function planCallers(days: readonly Pick<DayFigures, 'calls' | 'callers'>[], regions: readonly RegionCalls[]): CallerPlan {
  const unmet = (plan: CallerPlan) => plan.unplacedCalls + plan.missingCallers;
  let best = planInOrder(days, regions, TAKES[0]);
  for (const take of TAKES) {
    for (const reversed of [false, true]) {
      if (unmet(best) === 0) return best;
      const plan = reversed ? reversedPlan(days, regions, take) : planInOrder(days, regions, take);
      if (unmet(plan) < unmet(best)) best = plan;
    }
  }
  return best;
}

/** How many calls a day takes, given the fewest it may, its fair share and the most it may. */
type Take = (least: number, fair: number, most: number) => number;

/** Its fair share first, else as few as it may, else as many: each tried on the days in order, then backwards. */
const TAKES: readonly [Take, ...Take[]] = [
  (least, fair, most) => Math.min(most, Math.max(least, fair)),
  (least, _fair, most) => Math.min(least, most),
  (_least, _fair, most) => most,
];

function reversedPlan(days: readonly Pick<DayFigures, 'calls' | 'callers'>[], regions: readonly RegionCalls[], take: Take): CallerPlan {
  const plan = planInOrder([...days].reverse(), regions, take);
  return { ...plan, days: [...plan.days].reverse() };
}

function planInOrder(days: readonly Pick<DayFigures, 'calls' | 'callers'>[], regions: readonly RegionCalls[], take: Take): CallerPlan {
  const remaining: Remaining[] = regions.filter((entry) => entry.calls > 0).map((entry) => ({ region: entry.region, left: entry.calls }));
  let remainingCalls = remaining.reduce((sum, entry) => sum + entry.left, 0);
  let laterCallers = days.reduce((sum, day) => sum + day.callers, 0);
  let laterCapacity = days.reduce((sum, day) => sum + (day.callers > 0 ? day.calls - day.callers : 0), 0);
  let missingCallers = 0;
  const planned = days.map((day): PlannedCaller[] => {
    if (day.callers === 0) return [];
    laterCallers -= day.callers;
    const capacity = day.calls - day.callers;
    laterCapacity -= capacity;
    const extra = remainingCalls - day.callers - laterCallers;
    const fair = day.callers + (capacity + laterCapacity === 0 ? 0 : Math.round((extra * capacity) / (capacity + laterCapacity)));
    // At least one call per caller, and what the later days cannot take; at most the day's calls, what
    // leaves the later days one call per caller, and what its callers' pieces can reach.
    const least = Math.max(day.callers, remainingCalls - laterCallers - laterCapacity);
    const most = Math.min(day.calls, remainingCalls - laterCallers, mostReachable(remaining, day.callers));
    const taken = Math.max(0, take(least, fair, most));
    const pieces = takePieces(remaining, taken, day.callers);
    remainingCalls -= pieces.reduce((sum, piece) => sum + piece.calls, 0);
    const callers = splitIntoCallers(pieces, day.callers);
    missingCallers += day.callers - callers.length;
    return callers;
  });
  return { days: planned, unplacedCalls: remainingCalls, missingCallers };
}

/** `pieces` (one per region, at most `callers` of them) split into `callers` callers where their calls allow. */
function splitIntoCallers(pieces: readonly PlannedCaller[], callers: number): PlannedCaller[] {
  let toAdd = callers - pieces.length;
  const result: PlannedCaller[] = [];
  for (const piece of pieces) {
    const count = 1 + Math.max(0, Math.min(toAdd, piece.calls - 1));
    toAdd -= count - 1;
    for (let index = 0; index < count; index += 1) result.push({ region: piece.region, calls: share(piece.calls, count, index) });
  }
  return result;
}

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

function planAllCallers(figures: NumberFigures, shortfalls: Shortfalls): (readonly PlannedCaller[])[] {
  const perDay: (readonly PlannedCaller[])[] = figures.days.map(() => []);
  for (const stretch of figures.regions) {
    const indexes = stretchDays(figures.days, stretch);
    const plan = planCallers(
      indexes.map((index) => figures.days[index] ?? { calls: 0, callers: 0 }),
      stretch.value,
    );
    indexes.forEach((dayIndex, position) => {
      perDay[dayIndex] = plan.days[position] ?? [];
    });
    const where = `${figures.phone} over ${stretch.start}-${stretch.end}`;
    if (plan.unplacedCalls > 0) shortfalls.push(`${where}: ${plan.unplacedCalls} calls of the geographic report found no day's caller to make them`);
    if (plan.missingCallers > 0) shortfalls.push(`${where}: ${plan.missingCallers} of the days' distinct callers found no call of the geographic report`);
  }
  return perDay;
}

function wireTime(second: number): string {
  return new Date(second * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The regions of the planned callers that no number of this version's data is placed in, said once per
 * caller of each day that would need one: those callers' calls are made without a caller.
 */
function regionsWithoutNumbers(figures: NumberFigures, callers: readonly (readonly PlannedCaller[])[], numbers: CallerNumbers, shortfalls: Shortfalls): Set<Region> {
  const without = new Set<Region>();
  const placed = new Set<Region>();
  figures.days.forEach((day, index) => {
    for (const caller of callers[index] ?? []) {
      if (placed.has(caller.region)) continue;
      if (!without.has(caller.region) && numbers.places(caller.region)) {
        placed.add(caller.region);
        continue;
      }
      without.add(caller.region);
      shortfalls.push(`${figures.phone} on ${day.day}: no number of this version's data is placed in ${caller.region}`);
    }
  });
  return without;
}

/** The day's calls' callers, in call order: each planned caller's number for as many calls as it made, then none. */
function callersOfDay(planned: readonly PlannedCaller[], numbers: CallerNumbers, unplaceable: ReadonlySet<Region>, where: string, shortfalls: Shortfalls): (string | undefined)[] {
  const callers: (string | undefined)[] = [];
  for (const caller of planned) {
    const number = numbers.take(caller.region);
    if (number === undefined && !unplaceable.has(caller.region)) shortfalls.push(`${where}: the numbers this version's data places in ${caller.region} ran out`);
    for (let call = 0; call < caller.calls; call += 1) callers.push(number);
  }
  return callers;
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
  /** The days' distinct callers, summed. */
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
 * the calls only as they are read, so that a dry run costs no more than the plan.
 */
export function synthesizeNumber(figures: NumberFigures, numbers: CallerNumbers): NumberCalls {
  const shortfalls: Shortfalls = [];
  const callers = planAllCallers(figures, shortfalls);
  const steps = placeFlow(figures, shortfalls);
  const unplaceable = regionsWithoutNumbers(figures, callers, numbers, shortfalls);
  const planned: PlannedTotals = {
    calls: figures.days.reduce((sum, day) => sum + day.calls, 0),
    callsWithCaller: callers.flat().reduce((sum, caller) => sum + (unplaceable.has(caller.region) ? 0 : caller.calls), 0),
    callers: figures.days.reduce((sum, day) => sum + day.callers, 0),
    flowRows: steps.reduce((sum, byCall) => sum + [...byCall.values()].reduce((rows, path) => rows + path.length, 0), 0),
  };
  function* records(): Generator<CallRecordInput> {
    for (const [index, day] of figures.days.entries()) {
      if (day.calls === 0) continue;
      const where = `${figures.phone} on ${day.day}`;
      yield* dayCalls(figures.phone, day, callersOfDay(callers[index] ?? [], numbers, unplaceable, where, shortfalls), steps[index] ?? NO_STEPS);
    }
  }
  return { planned, records: records(), shortfalls };
}
