import type { Region } from '../../domain/caller-region';
import type { CallerPlan, Unmet } from './caller-plan';
import type { AccountCallerFigures } from './figures';
import { UnionFind } from './union-find';

/*
 * Callers shared between numbers: the account's distinct callers (ALL) over each day, piece, week and month
 * brought to the source's by making callers of different numbers one person. Each number's plan
 * (caller-plan.ts) already meets the number's own counts. A person made of callers of different numbers,
 * one each, of one region, leaves every number's counts and calls where they were, and takes one from
 * ALL's count of every period in which two of them call: that period's *overlap*, the numbers' callers in
 * it less the source's ALL, is what is left to take.
 */

/** How many partners a caller is tried with, per period, before it is passed over. */
const MOST_PARTNERS_TRIED = 64;
/**
 * How many callers of the periods a caller shares with others are counted for it, per period: with the
 * partners tried, what keeps a period's search linear in its callers, however many call.
 */
const MOST_COUNTED = 1_024;

/** Days, pieces, weeks and months: the periods are indexed in this order, so that they are met finest first. */
const LEVELS = 4;

export interface SharedCallers {
  /** Per number, in the order of the plans: per caller of its plan, the account's caller it is. */
  readonly callerOf: readonly Int32Array[];
  /** Each of the account's callers' region: a trade may have changed that of a number's caller. */
  readonly regionOf: readonly Region[];
  /** ALL's distinct counts not met, by index of the plans' days. */
  readonly unmet: readonly Unmet[];
}

interface Periods {
  /** Per period, ALL's count at the source. */
  readonly target: Int32Array;
  /** Per period, its level (LEVELS). */
  readonly level: Uint8Array;
  /** Per day and level, the day's period. */
  readonly ofDay: Int32Array;
  readonly spans: readonly { readonly first: number; readonly last: number }[];
}

/** The account's periods, each an index: its days, then its pieces, weeks and months. */
function periodsOf(all: AccountCallerFigures): Periods {
  const levels = [all.days.map((day, index) => ({ first: index, last: index, callers: day.callers })), all.pieces, all.weeks, all.months];
  const spans = levels.flat();
  const level = Uint8Array.from(levels.flatMap((periods, index) => periods.map(() => index)));
  const ofDay = new Int32Array(all.days.length * LEVELS).fill(-1);
  let base = 0;
  levels.forEach((periods, levelIndex) => {
    periods.forEach((period, index) => {
      for (let day = period.first; day <= period.last; day += 1) ofDay[day * LEVELS + levelIndex] = base + index;
    });
    base += periods.length;
  });
  return { target: Int32Array.from(spans, (period) => period.callers), level, ofDay, spans };
}

/** Lists of ints per key, held in one array (compressed rows): counted first, then filled. */
class Rows {
  readonly start: Int32Array;
  readonly items: Int32Array;
  private readonly filled: Int32Array;

  constructor(counts: Int32Array) {
    this.start = new Int32Array(counts.length + 1);
    counts.forEach((count, key) => {
      this.start[key + 1] = (this.start[key] ?? 0) + count;
    });
    this.items = new Int32Array(this.start[counts.length] ?? 0);
    this.filled = this.start.slice(0, counts.length);
  }

  push(key: number, item: number): void {
    const at = this.filled[key] ?? 0;
    this.items[at] = item;
    this.filled[key] = at + 1;
  }

  of(key: number): Int32Array {
    return this.items.subarray(this.start[key] ?? 0, this.start[key + 1] ?? 0);
  }
}

/**
 * The numbers' callers as the account's people: who has been made one with whom (union-find), and each
 * person's periods and numbers. A caller alone keeps its periods in `presence`; a person made of several,
 * in a list of its own.
 */
class People {
  private readonly sets: UnionFind;
  private readonly mergedPresence = new Map<number, Int32Array>();
  private readonly mergedNumbers = new Map<number, number[]>();

  constructor(
    private readonly presence: Rows,
    private readonly numberOf: Int32Array,
  ) {
    this.sets = new UnionFind(numberOf.length);
  }

  find(person: number): number {
    return this.sets.find(person);
  }

  /** Whether the caller is still a person of one number. */
  alone(person: number): boolean {
    return this.sets.isRoot(person) && !this.mergedNumbers.has(person);
  }

  /** A person's periods (`root` one's). */
  periodsOf(root: number): Int32Array {
    return this.mergedPresence.get(root) ?? this.presence.of(root);
  }

  periodCount(root: number): number {
    return this.mergedPresence.get(root)?.length ?? (this.presence.start[root + 1] ?? 0) - (this.presence.start[root] ?? 0);
  }

  /** Whether two people call a number in common. */
  shareANumber(a: number, b: number): boolean {
    const ofA = this.mergedNumbers.get(a);
    const ofB = this.mergedNumbers.get(b);
    if (ofA === undefined && ofB === undefined) return this.numberOf[a] === this.numberOf[b];
    const numbersOfB = ofB ?? [this.numberOf[b] ?? 0];
    return (ofA ?? [this.numberOf[a] ?? 0]).some((number) => numbersOfB.includes(number));
  }

  /** b made one with a, `union` the periods of both. */
  join(a: number, b: number, union: Int32Array): void {
    const numbers = [...(this.mergedNumbers.get(a) ?? [this.numberOf[a] ?? 0]), ...(this.mergedNumbers.get(b) ?? [this.numberOf[b] ?? 0])];
    this.mergedPresence.delete(b);
    this.mergedNumbers.delete(b);
    this.sets.join(a, b);
    this.mergedPresence.set(a, union);
    this.mergedNumbers.set(a, numbers);
  }
}

/**
 * Makes callers of different numbers one, period by period, finest first: while a period's ALL count is
 * above the source's, its people are taken in turn, those of the most periods first, and each is made one
 * with a partner who calls none of its numbers, if every period they would both be in has an overlap left.
 * The partners tried first are those who share most of its other periods with an overlap left, so that
 * callers of many days go together, as a person calling two numbers does; then those that follow it (in
 * an order mixed by number and day). Two people of different regions are made one when one of them can
 * trade regions with a caller of its number who makes as many calls in each stretch of `stretchOfDay`
 * (the geographic report's), so that every number's calls per region stay as they were. ALL's counts are
 * then counted again, and those not met told. Each `order` mixes callers of as many periods otherwise.
 */
export function shareCallers(plans: readonly CallerPlan[], all: AccountCallerFigures, stretchOfDay: Int32Array, order: number): SharedCallers {
  const periods = periodsOf(all);
  const { target, ofDay } = periods;
  const offsets = plans.map((_, index) => plans.slice(0, index).reduce((sum, plan) => sum + plan.regionOf.length, 0));
  const persons = plans.reduce((sum, plan) => sum + plan.regionOf.length, 0);
  const numberOf = new Int32Array(persons);
  const regionOf = new Int32Array(persons);
  const regionNames: Region[] = [];
  const regionIndex = new Map<Region, number>();
  plans.forEach((plan, number) => {
    plan.regionOf.forEach((region, caller) => {
      if (!regionIndex.has(region)) {
        regionIndex.set(region, regionNames.length);
        regionNames.push(region);
      }
      numberOf[(offsets[number] ?? 0) + caller] = number;
      regionOf[(offsets[number] ?? 0) + caller] = regionIndex.get(region) ?? 0;
    });
  });

  // Each caller's periods (presence), and each period's callers (members), both counted and then filled.
  const forEachPresence = (visit: (person: number, period: number) => void) => {
    const last = new Int32Array(persons * LEVELS).fill(-1);
    plans.forEach((plan, number) => {
      plan.days.forEach((day, dayIndex) => {
        for (const caller of day.callers) {
          const person = (offsets[number] ?? 0) + caller;
          for (let level = 0; level < LEVELS; level += 1) {
            const period = ofDay[dayIndex * LEVELS + level] ?? -1;
            if (period < 0 || last[person * LEVELS + level] === period) continue;
            last[person * LEVELS + level] = period;
            visit(person, period);
          }
        }
      });
    });
  };
  const presenceCounts = new Int32Array(persons);
  const memberCounts = new Int32Array(target.length);
  forEachPresence((person, period) => {
    presenceCounts[person] = (presenceCounts[person] ?? 0) + 1;
    memberCounts[period] = (memberCounts[period] ?? 0) + 1;
  });
  const presence = new Rows(presenceCounts);
  const members = new Rows(memberCounts);
  forEachPresence((person, period) => {
    presence.push(person, period);
    members.push(period, person);
  });
  const overlap = Int32Array.from(memberCounts, (count, period) => count - (target[period] ?? 0));
  const people = new People(presence, numberOf);
  const trades = new RegionTrades(plans, offsets, stretchOfDay, regionOf, regionNames.length, (person) => people.alone(person));

  const mark = new Int32Array(target.length).fill(-1);
  let stamp = 0;
  const shared: number[] = [];
  /** Whether every period both people are in has an overlap left; those periods left in `shared`. */
  const canShare = (a: number, b: number): boolean => {
    stamp += 1;
    shared.length = 0;
    for (const period of people.periodsOf(a)) mark[period] = stamp;
    for (const period of people.periodsOf(b)) {
      if (mark[period] !== stamp) continue;
      if ((overlap[period] ?? 0) < 1) return false;
      shared.push(period);
    }
    return true;
  };
  const regionsMeet = (a: number, b: number) => regionOf[a] === regionOf[b] || trades.can(b, regionOf[a] ?? 0) || trades.can(a, regionOf[b] ?? 0);
  /** b made one with a, after canShare(a, b). */
  const join = (a: number, b: number) => {
    if (regionOf[a] !== regionOf[b] && !trades.trade(b, regionOf[a] ?? 0)) trades.trade(a, regionOf[b] ?? 0);
    for (const period of shared) overlap[period] = (overlap[period] ?? 0) - 1;
    stamp += 1;
    const union: number[] = [];
    for (const ofOne of [people.periodsOf(a), people.periodsOf(b)]) {
      for (const period of ofOne) {
        if (mark[period] === stamp) continue;
        mark[period] = stamp;
        union.push(period);
      }
    }
    people.join(a, b, Int32Array.from(union));
  };

  const partners = new PartnerCounts(persons);
  const seen = new Int32Array(persons).fill(-1);
  /** a made one with a partner in `period`, if one is found: see shareCallers. */
  const partnered = (a: number, period: number, following: Int32Array): boolean => {
    const level = periods.level[period] ?? 0;
    let counted = 0;
    for (const other of people.periodsOf(a)) {
      if (counted >= MOST_COUNTED) break;
      if (other === period || (periods.level[other] ?? 0) > level || (overlap[other] ?? 0) <= 0) continue;
      for (let at = members.start[other] ?? 0, end = members.start[other + 1] ?? 0; at < end && counted < MOST_COUNTED; at += 1, counted += 1) {
        const b = people.find(members.items[at] ?? 0);
        if (b !== a && seen[b] === period) partners.add(b);
      }
    }
    const unCounted = following.filter((b) => !partners.has(b));
    const candidates = partners.takeMost();
    for (let index = 0, tried = 0; tried < MOST_PARTNERS_TRIED && index < candidates.length + unCounted.length; index += 1) {
      const b = index < candidates.length ? (candidates[index] ?? 0) : (unCounted[index - candidates.length] ?? 0);
      if (people.find(b) !== b || people.shareANumber(a, b)) continue;
      tried += 1;
      if (!canShare(a, b) || !regionsMeet(a, b)) continue;
      join(a, b);
      return true;
    }
    return false;
  };
  const seed = Math.imul(order, 0x9e3779b9);
  const mixed = (root: number) => Math.imul(root ^ seed, 2654435761) >>> 0;
  for (let period = 0; period < target.length; period += 1) {
    if ((overlap[period] ?? 0) <= 0) continue;
    const found: number[] = [];
    for (let at = members.start[period] ?? 0, end = members.start[period + 1] ?? 0; at < end; at += 1) {
      const root = people.find(members.items[at] ?? 0);
      if (seen[root] === period) continue;
      seen[root] = period;
      found.push(root);
    }
    // Callers of the most periods first, in an order mixed by number and day among equals.
    const keys = Float64Array.from(found, (root) => -people.periodCount(root) * 2 ** 32 + mixed(root));
    const roots = Int32Array.from(found.keys()).sort((a, b) => (keys[a] ?? 0) - (keys[b] ?? 0)).map((index) => found[index] ?? 0);
    for (let first = 0; first < roots.length && (overlap[period] ?? 0) > 0; first += 1) {
      const a = roots[first] ?? 0;
      if (people.find(a) === a) partnered(a, period, roots.subarray(first + 1, first + 1 + MOST_PARTNERS_TRIED));
    }
  }

  const callerOf = plans.map((plan) => new Int32Array(plan.regionOf.length));
  const idOf = new Int32Array(persons).fill(-1);
  const accountRegions: Region[] = [];
  plans.forEach((plan, number) => {
    plan.regionOf.forEach((_, caller) => {
      const root = people.find((offsets[number] ?? 0) + caller);
      if (idOf[root] === -1) {
        idOf[root] = accountRegions.length;
        accountRegions.push(regionNames[regionOf[root] ?? 0] ?? '');
      }
      (callerOf[number] ?? new Int32Array(0))[caller] = idOf[root] ?? 0;
    });
  });
  return { callerOf, regionOf: accountRegions, unmet: unmetCounts(members, periods, (person) => people.find(person)) };
}

/** How many periods each candidate partner shares with a caller, counted and then taken, most first. */
class PartnerCounts {
  private readonly counts: Int32Array;
  private touched: number[] = [];

  constructor(persons: number) {
    this.counts = new Int32Array(persons);
  }

  add(person: number): void {
    if (this.counts[person] === 0) this.touched.push(person);
    this.counts[person] = (this.counts[person] ?? 0) + 1;
  }

  has(person: number): boolean {
    return (this.counts[person] ?? 0) > 0;
  }

  /** The people counted, most first; the counts start again. */
  takeMost(): number[] {
    const taken = this.touched;
    taken.sort((a, b) => (this.counts[b] ?? 0) - (this.counts[a] ?? 0));
    for (const person of taken) this.counts[person] = 0;
    this.touched = [];
    return taken;
  }
}

/**
 * Callers that may trade regions: two callers of one number, neither yet made one with another's, who
 * make as many calls in each stretch. Filed by number, calls per stretch and region; a caller whose region
 * or sharing has changed since it was filed is dropped when met.
 */
class RegionTrades {
  /** Per caller, its number and calls per stretch as an index. */
  private readonly kind: Int32Array;
  private readonly filed = new Map<number, number[]>();

  constructor(
    plans: readonly CallerPlan[],
    offsets: readonly number[],
    stretchOfDay: Int32Array,
    private readonly regionOf: Int32Array,
    private readonly regions: number,
    private readonly alone: (person: number) => boolean,
  ) {
    const kinds = new Map<string, number>();
    this.kind = new Int32Array(regionOf.length);
    plans.forEach((plan, number) => {
      // Most callers call in one stretch: its index and their calls in it; the others' calls by stretch.
      const stretchOf = new Int32Array(plan.regionOf.length).fill(-1);
      const callsIn = new Int32Array(plan.regionOf.length);
      const more = new Map<number, Map<number, number>>();
      plan.days.forEach((day, dayIndex) => {
        const stretch = stretchOfDay[dayIndex] ?? 0;
        day.callers.forEach((caller, position) => {
          const calls = day.calls[position] ?? 0;
          if (stretchOf[caller] === -1) stretchOf[caller] = stretch;
          if (stretchOf[caller] === stretch && !more.has(caller)) callsIn[caller] = (callsIn[caller] ?? 0) + calls;
          else {
            const byStretch = more.get(caller) ?? new Map([[stretchOf[caller] ?? 0, callsIn[caller] ?? 0]]);
            byStretch.set(stretch, (byStretch.get(stretch) ?? 0) + calls);
            more.set(caller, byStretch);
          }
        });
      });
      plan.regionOf.forEach((_, caller) => {
        const byStretch = more.get(caller);
        const calls = byStretch === undefined ? `${stretchOf[caller] ?? 0}:${callsIn[caller] ?? 0}` : [...byStretch].map(([stretch, count]) => `${stretch}:${count}`).join(',');
        const kind = `${number}|${calls}`;
        if (!kinds.has(kind)) kinds.set(kind, kinds.size);
        const person = (offsets[number] ?? 0) + caller;
        this.kind[person] = kinds.get(kind) ?? 0;
        this.file(person);
      });
    });
  }

  /** Whether `person` could take `region` by a trade. */
  can(person: number, region: number): boolean {
    return this.alone(person) && this.partner(person, region) !== undefined;
  }

  /** `person` given `region`, and a partner its region; false when there is none. */
  trade(person: number, region: number): boolean {
    if (!this.alone(person)) return false;
    const partner = this.partner(person, region);
    if (partner === undefined) return false;
    this.list(person, region).pop();
    this.regionOf[partner] = this.regionOf[person] ?? 0;
    this.regionOf[person] = region;
    this.file(partner);
    return true;
  }

  private file(person: number): void {
    this.list(person, this.regionOf[person] ?? 0).push(person);
  }

  /** The next caller filed under `person`'s kind and `region` that can still trade, left on top of its list. */
  private partner(person: number, region: number): number | undefined {
    const list = this.list(person, region);
    for (let top = list[list.length - 1]; top !== undefined; top = list[list.length - 1]) {
      if (top !== person && this.alone(top) && this.regionOf[top] === region) return top;
      list.pop();
    }
    return undefined;
  }

  private list(person: number, region: number): number[] {
    const key = (this.kind[person] ?? 0) * this.regions + region;
    const list = this.filed.get(key);
    if (list !== undefined) return list;
    const made: number[] = [];
    this.filed.set(key, made);
    return made;
  }
}

/** ALL's count of every period counted again from who is one person, and those that differ from the source's. */
function unmetCounts(members: Rows, periods: Periods, rootOf: (person: number) => number): Unmet[] {
  const unmet: Unmet[] = [];
  const seen = new Set<number>();
  periods.target.forEach((source, period) => {
    seen.clear();
    for (const person of members.of(period)) seen.add(rootOf(person));
    const span = periods.spans[period] ?? { first: 0, last: 0 };
    if (seen.size !== source) unmet.push({ what: 'callers', first: span.first, last: span.last, source, planned: seen.size });
  });
  return unmet;
}
