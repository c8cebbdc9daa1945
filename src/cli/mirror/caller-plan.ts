import type { Region } from '../../domain/caller-region';
import { FlowNetwork } from './max-flow';
import type { RegionCalls } from './figures';

/** Distinct callers over consecutive days of the range, `first` and `last` (indexes of days) both included. */
export interface DistinctPeriod {
  readonly first: number;
  readonly last: number;
  readonly callers: number;
}

/** Calls per caller's region over consecutive days of the range, by index. */
export interface RegionStretch {
  readonly first: number;
  readonly last: number;
  readonly value: readonly RegionCalls[];
}

/**
 * One number's figures that decide who called when. Months and weeks each cover the range once, cut at its
 * ends; pieces are their intersections (a week's days within one month), so that each month and each week
 * is a run of whole pieces. A week holds one piece, or two when a month begins within it.
 */
export interface CallerFigures {
  readonly days: readonly { readonly calls: number; readonly callers: number }[];
  readonly pieces: readonly DistinctPeriod[];
  readonly weeks: readonly DistinctPeriod[];
  readonly months: readonly DistinctPeriod[];
  /** Over stretches that cover the range once. */
  readonly regions: readonly RegionStretch[];
}

/** One day's distinct callers, as indexes into the plan's callers, and the calls each made that day (at least one). */
export interface DayCallers {
  readonly callers: Int32Array;
  readonly calls: Int32Array;
}

/** A figure the plan does not meet, and the value it has instead. */
export type Unmet =
  | { readonly what: 'callers'; readonly first: number; readonly last: number; readonly source: number; readonly planned: number }
  | { readonly what: 'region'; readonly first: number; readonly last: number; readonly region: Region; readonly source: number; readonly planned: number };

export interface CallerPlan {
  /** Each caller's region, a caller being an index into it. */
  readonly regionOf: readonly Region[];
  /** Per day of the range, in order. */
  readonly days: readonly DayCallers[];
  /** Empty when every figure is met. */
  readonly unmet: readonly Unmet[];
}

const NO_CALLERS: DayCallers = { callers: new Int32Array(0), calls: new Int32Array(0) };

/**
 * Runs of the ids `0..size-1`, one per count (each cut to `size`), that together hold every id, none twice
 * in a run: the first `regulars` ids are taken in a circle, so that they come again and again, and the
 * others once each, as each run needs. The fewest regulars make a few ids come in nearly every run and the
 * others once, as a business's callers do; `spread` 1 makes every id a regular, each in about as many
 * runs as any other. Which suits a source depends on its regions: a region of few calls needs callers of
 * few days, one of many calls can take a caller of many.
 */
function tieredRuns(size: number, counts: readonly number[], spread: number): Int32Array[] {
  const wanted = counts.map((count) => Math.min(count, size));
  // With `regulars` r, each run takes at least its count beyond r once-only ids: they must fit in size - r.
  let fewest = size;
  for (let regulars = 0; regulars < size; regulars += 1) {
    if (wanted.reduce((sum, count) => sum + Math.max(0, count - regulars), 0) <= size - regulars) {
      fewest = regulars;
      break;
    }
  }
  const regulars = fewest + Math.round(spread * (size - fewest));
  const once = wanted.map((count) => Math.max(0, count - regulars));
  let more = size - regulars - once.reduce((sum, count) => sum + count, 0);
  const room = wanted.reduce((sum, count, index) => sum + count - (once[index] ?? 0), 0);
  // Once-only ids spread over the runs by their room, then the rest from the first run on.
  const share = room === 0 ? 0 : more / room;
  wanted.forEach((count, index) => {
    const added = Math.min(more, Math.floor((count - (once[index] ?? 0)) * share));
    once[index] = (once[index] ?? 0) + added;
    more -= added;
  });
  wanted.forEach((count, index) => {
    const added = Math.min(more, count - (once[index] ?? 0));
    once[index] = (once[index] ?? 0) + added;
    more -= added;
  });
  let [nextOnce, nextRegular] = [regulars, 0];
  return wanted.map((count, index) => {
    const run = new Int32Array(count);
    const onceHere = once[index] ?? 0;
    // Regulars first: a run of pieces is the list its days take runs of, and its first ids are their regulars.
    for (let at = 0; at < count - onceHere; at += 1) run[at] = nextRegular++ % regulars;
    for (let at = count - onceHere; at < count; at += 1) run[at] = nextOnce++;
    return run;
  });
}

function within(outer: DistinctPeriod, inner: DistinctPeriod): boolean {
  return inner.first >= outer.first && inner.last <= outer.last;
}

/** Union-find over the months' callers: a caller of a month and one of the next made one person. */
class People {
  private readonly parent: Int32Array;

  constructor(size: number) {
    this.parent = Int32Array.from({ length: size }, (_, index) => index);
  }

  find(id: number): number {
    let root = id;
    while (this.parent[root] !== root) root = this.parent[root] ?? root;
    for (let next = id; next !== root; ) {
      const up = this.parent[next] ?? root;
      this.parent[next] = root;
      next = up;
    }
    return root;
  }

  join(a: number, b: number): void {
    this.parent[this.find(b)] = this.find(a);
  }
}

/**
 * Who calls on which day, so that every published distinct count holds at once: each day's, each piece's,
 * each week's and each month's.
 *
 * The construction, month by month: the month has `m` callers, numbered in a circle. Its pieces take runs of
 * the circle one after the other, each as long as its own count `p` (at most `m`); since the runs add up
 * to at least `m`, every caller is in one, and since each is at most `m`, none twice in a piece. A piece's
 * days take runs of its callers the same way. A week across two months (pieces `p` and `q`) counts
 * `p + q - w` callers in both: as many callers of the first month's piece are made one with as many of the
 * next month's, which no month's, piece's or day's count sees. So any figures with, for each period,
 * `largest part <= count <= sum of parts` are met: the source's own calls satisfy exactly these.
 */
export function planCallers(figures: CallerFigures): CallerPlan {
  let best: CallerPlan | undefined;
  for (const shape of SHAPES) {
    const plan = planShaped(figures, shape);
    if (best === undefined || plan.unmet.length < best.unmet.length) best = plan;
    if (best.unmet.length === 0) break;
  }
  return best ?? planShaped(figures, 1);
}

/**
 * How many days each caller calls on, tried in turn: shaped after the regions' calls (shapedRuns), then
 * as evenly as the counts allow, then ever fewer regulars (tieredRuns' spread).
 */
const SHAPES = ['room', 'share', 1, 0.5, 0.2, 0] as const;
type Shape = (typeof SHAPES)[number];

/** Runs of a month's callers: per piece, its callers; per day of each piece, indexes into the piece's. */
interface MonthRuns {
  readonly pieces: readonly Int32Array[];
  readonly days: readonly (readonly Int32Array[])[];
  /** Per caller of the month, the region (an index of the region book) it is meant for; -1 for none. */
  readonly regions: Int32Array | undefined;
}

function monthRuns(month: DistinctPeriod, pieces: readonly DistinctPeriod[], figures: CallerFigures, book: RegionBook, shape: Shape): MonthRuns {
  const dayCounts = (piece: DistinctPeriod) => figures.days.slice(piece.first, piece.last + 1).map((day) => day.callers);
  if (typeof shape === 'number') {
    const pieceRuns = tieredRuns(month.callers, pieces.map((piece) => piece.callers), shape);
    return { pieces: pieceRuns, days: pieces.map((piece, index) => tieredRuns(pieceRuns[index]?.length ?? 0, dayCounts(piece), shape)), regions: undefined };
  }
  const stretch = figures.regions.findIndex((candidate) => candidate.first <= month.first && candidate.last >= month.first);
  const appearances = pieces.reduce((sum, piece) => sum + dayCounts(piece).reduce((total, count) => total + count, 0), 0);
  const meant = meantCallers(book.left[stretch] ?? new Int32Array(0), month.callers, shape === 'room' ? undefined : appearances);
  const remaining = Int32Array.from(meant.days);
  const unseen = new Uint8Array(month.callers).fill(1);
  let later = pieces.reduce((sum, piece) => sum + piece.callers, 0);
  const pieceRuns: Int32Array[] = [];
  const dayRuns: Int32Array[][] = [];
  for (const piece of pieces) {
    later -= piece.callers;
    const counts = dayCounts(piece);
    const ids = pickDistinct(month.callers, piece.callers, later, remaining, unseen);
    // The piece's calls of its callers: one each, and the rest shared by what each has left to make.
    const active = counts.filter((count) => count > 0).length;
    const inPiece = Int32Array.from(ids, () => 1);
    let extra = counts.reduce((sum, count) => sum + count, 0) - ids.length;
    for (let round = 0; round < active && extra > 0; round += 1) {
      ids.forEach((id, position) => {
        if (extra > 0 && (inPiece[position] ?? 0) < active && (remaining[id] ?? 0) > (inPiece[position] ?? 0)) {
          inPiece[position] = (inPiece[position] ?? 0) + 1;
          extra -= 1;
        }
      });
    }
    ids.forEach((id, position) => {
      remaining[id] = (remaining[id] ?? 0) - (inPiece[position] ?? 0);
    });
    const pieceUnseen = new Uint8Array(ids.length).fill(1);
    let laterDays = counts.reduce((sum, count) => sum + count, 0);
    dayRuns.push(
      counts.map((count) => {
        laterDays -= count;
        return pickDistinct(ids.length, count, laterDays, inPiece, pieceUnseen);
      }),
    );
    pieceRuns.push(ids);
  }
  return { pieces: pieceRuns, days: dayRuns, regions: meant.regions };
}

/**
 * `count` of the ids `0..size-1`, none twice: first those never picked yet that the later picks (`later`
 * places in all) could not all take, then the ids with the most `left` to make (those never picked first
 * among equals). Each picked id's `left` goes down by one and it is marked seen.
 */
function pickDistinct(size: number, count: number, later: number, left: Int32Array, unseen: Uint8Array): Int32Array {
  const order = Array.from({ length: size }, (_, id) => id).sort((a, b) => (left[b] ?? 0) - (left[a] ?? 0) || (unseen[b] ?? 0) - (unseen[a] ?? 0));
  const waiting = order.filter((id) => unseen[id] === 1);
  const forced = Math.max(0, Math.min(count, waiting.length - later));
  const picked = new Set(waiting.slice(0, forced));
  for (const id of order) {
    if (picked.size >= Math.min(count, size)) break;
    picked.add(id);
  }
  const run = Int32Array.from(picked);
  for (const id of run) {
    left[id] = (left[id] ?? 0) - 1;
    unseen[id] = 0;
  }
  return run;
}

/**
 * The month's callers shaped after its regions' calls: each region with calls is meant at least one
 * caller (the largest first, while there are callers), the rest shared in proportion to its calls; and
 * the month's calls of its callers (one per caller and day) shared out the same way, each caller of a
 * region about as many as the others, so that no caller makes more calls than its region has.
 */
function meantCallers(regionCalls: Int32Array, callers: number, appearances: number | undefined): { readonly days: Int32Array; readonly regions: Int32Array } {
  const regions = [...regionCalls.keys()].filter((region) => (regionCalls[region] ?? 0) > 0).sort((a, b) => (regionCalls[b] ?? 0) - (regionCalls[a] ?? 0));
  const calls = regions.reduce((sum, region) => sum + (regionCalls[region] ?? 0), 0);
  const perRegion = new Int32Array(regions.length);
  let given = 0;
  regions.forEach((_, index) => {
    if (given < callers) [perRegion[index], given] = [1, given + 1];
  });
  for (let round = 0; given < callers && round < callers; round += 1) {
    regions.forEach((region, index) => {
      const fair = Math.ceil(((regionCalls[region] ?? 0) * callers) / Math.max(1, calls));
      if (given < callers && (perRegion[index] ?? 0) < Math.min(fair, regionCalls[region] ?? 0)) [perRegion[index], given] = [(perRegion[index] ?? 0) + 1, given + 1];
    });
  }
  const days = new Int32Array(callers).fill(1);
  const regionOf = new Int32Array(callers).fill(-1);
  let next = 0;
  regions.forEach((region, index) => {
    const count = perRegion[index] ?? 0;
    const share = appearances === undefined ? (regionCalls[region] ?? 0) : Math.round(((regionCalls[region] ?? 0) * appearances) / Math.max(1, calls));
    for (let caller = 0; caller < count && next < callers; caller += 1, next += 1) {
      days[next] = Math.max(1, Math.floor(share / count) + (caller < share % count ? 1 : 0));
      regionOf[next] = region;
    }
  });
  return { days, regions: regionOf };
}

function planShaped(figures: CallerFigures, shape: Shape): CallerPlan {
  const book = regionBook(figures);
  const monthCallers = figures.months.reduce((sum, month) => sum + month.callers, 0);
  const dayIds: Int32Array[] = figures.days.map(() => new Int32Array(0));
  const pieceIds: Int32Array[] = figures.pieces.map(() => new Int32Array(0));
  const meantRegion = new Int32Array(monthCallers).fill(-1);
  let base = 0;
  for (const month of figures.months) {
    const first = base;
    const pieces = [...figures.pieces.keys()].filter((pieceIndex) => within(month, figures.pieces[pieceIndex] ?? month));
    const runs = monthRuns(month, pieces.map((pieceIndex) => figures.pieces[pieceIndex] ?? month), figures, book, shape);
    runs.regions?.forEach((region, index) => {
      meantRegion[first + index] = region;
    });
    pieces.forEach((pieceIndex, position) => {
      const piece = figures.pieces[pieceIndex];
      const run = runs.pieces[position];
      if (piece === undefined || run === undefined) return;
      const ids = run.map((index) => first + index);
      pieceIds[pieceIndex] = ids;
      runs.days[position]?.forEach((dayRun, offset) => {
        dayIds[piece.first + offset] = dayRun.map((index) => ids[index] ?? 0);
      });
    });
    base += month.callers;
  }
  const people = new People(monthCallers);
  for (const week of figures.weeks) {
    const parts = pieceIds.filter((_, pieceIndex) => within(week, figures.pieces[pieceIndex] ?? week));
    const [before, after] = parts;
    if (parts.length !== 2 || before === undefined || after === undefined) continue;
    const shared = Math.max(0, Math.min(before.length + after.length - week.callers, before.length, after.length));
    for (const [a, b] of pairsByRegion(before, after, shared, meantRegion)) people.join(a, b);
  }
  // Callers numbered as they first call, so that numbers are handed out in the order of the days.
  const personOf = new Int32Array(monthCallers).fill(-1);
  const meant: number[] = [];
  let persons = 0;
  const days: DayCallers[] = dayIds.map((ids) => {
    if (ids.length === 0) return NO_CALLERS;
    const callers = ids.map((id) => {
      const root = people.find(id);
      if (personOf[root] === -1) {
        personOf[root] = persons++;
        meant.push(meantRegion[id] ?? -1);
      }
      return personOf[root] ?? 0;
    });
    return { callers, calls: new Int32Array(callers.length).fill(1) };
  });
  const regionOf = assignRegions(figures, days, persons, Int32Array.from(meant));
  return { regionOf, days, unmet: unmetFigures(figures, days, regionOf) };
}

/**
 * `shared` pairs of a callers of a week's first piece and one of its second, each caller in one pair at
 * most: callers meant for the same region first, so that the caller they make one keeps its region.
 */
function pairsByRegion(before: Int32Array, after: Int32Array, shared: number, meantRegion: Int32Array): [number, number][] {
  const waiting = new Map<number, number[]>();
  for (const id of before) {
    const region = meantRegion[id] ?? -1;
    listIn(waiting, region).push(id);
  }
  const pairs: [number, number][] = [];
  const paired = new Set<number>();
  for (const id of after) {
    const match = (meantRegion[id] ?? -1) >= 0 ? waiting.get(meantRegion[id] ?? -1)?.pop() : undefined;
    if (match === undefined || pairs.length >= shared) continue;
    pairs.push([match, id]);
    paired.add(match).add(id);
  }
  const [restBefore, restAfter] = [[...before].filter((id) => !paired.has(id)).reverse(), [...after].filter((id) => !paired.has(id))];
  for (let index = 0; pairs.length < shared && index < Math.min(restBefore.length, restAfter.length); index += 1) pairs.push([restBefore[index] ?? 0, restAfter[index] ?? 0]);
  return pairs;
}

/** The list a map holds under `key`, made empty the first time. */
function listIn(lists: Map<number, number[]>, key: number): number[] {
  const list = lists.get(key);
  if (list !== undefined) return list;
  const made: number[] = [];
  lists.set(key, made);
  return made;
}

/** A caller's days within each stretch of the geographic report. */
interface Presence {
  /** Calls (one a day) within the stretch it is first seen in; all of them for a caller of one stretch. */
  total: number;
  stretch: number;
  /** Per stretch, for the few callers present in more than one (a week across two months). */
  byStretch: Map<number, number> | undefined;
}

function presenceOf(days: readonly DayCallers[], persons: number, stretchOfDay: Int32Array): Presence[] {
  const presence: Presence[] = Array.from({ length: persons }, () => ({ total: 0, stretch: -1, byStretch: undefined }));
  days.forEach((day, dayIndex) => {
    const stretch = stretchOfDay[dayIndex] ?? 0;
    for (const caller of day.callers) {
      const seen = presence[caller];
      if (seen === undefined) continue;
      seen.total += 1;
      if (seen.stretch === -1) seen.stretch = stretch;
      else if (seen.stretch !== stretch || seen.byStretch !== undefined) {
        seen.byStretch ??= new Map([[seen.stretch, seen.total - 1]]);
        seen.byStretch.set(stretch, (seen.byStretch.get(stretch) ?? 0) + 1);
      }
    }
  });
  return presence;
}

/** Regions by index, and what each stretch has left of each region's calls. */
interface RegionBook {
  readonly names: Region[];
  readonly left: Int32Array[];
}

function regionBook(figures: CallerFigures): RegionBook {
  const index = new Map<Region, number>();
  for (const stretch of figures.regions) for (const entry of stretch.value) if (!index.has(entry.region)) index.set(entry.region, index.size);
  const left = figures.regions.map((stretch) => {
    const calls = new Int32Array(index.size);
    for (const entry of stretch.value) {
      const region = index.get(entry.region) ?? 0;
      calls[region] = (calls[region] ?? 0) + entry.calls;
    }
    return calls;
  });
  return { names: [...index.keys()], left };
}

/** A max-heap of regions by a priority that changes only for the region taken from it. */
class RegionHeap {
  private readonly heap: number[] = [];

  constructor(
    regions: Iterable<number>,
    private readonly priority: (region: number) => number,
  ) {
    for (const region of regions) this.push(region);
  }

  pop(): number | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (top === undefined || last === undefined) return undefined;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return top;
  }

  push(region: number): void {
    this.heap.push(region);
    for (let at = this.heap.length - 1; at > 0; ) {
      const parent = (at - 1) >> 1;
      if (this.at(parent) >= this.at(at)) return;
      this.swap(parent, at);
      at = parent;
    }
  }

  private down(from: number): void {
    for (let at = from; ; ) {
      const [left, right] = [2 * at + 1, 2 * at + 2];
      let largest = at;
      if (left < this.heap.length && this.at(left) > this.at(largest)) largest = left;
      if (right < this.heap.length && this.at(right) > this.at(largest)) largest = right;
      if (largest === at) return;
      this.swap(largest, at);
      at = largest;
    }
  }

  private at(index: number): number {
    return this.priority(this.heap[index] ?? 0);
  }

  private swap(a: number, b: number): void {
    [this.heap[a], this.heap[b]] = [this.heap[b] ?? 0, this.heap[a] ?? 0];
  }
}

/**
 * Each caller's region, and the calls beyond one a day that make each region's calls over each stretch.
 * Callers present in two stretches go first, each to a region that still needs a caller in them, with
 * room for its calls in both. Then, in each stretch, the callers of more than one day, most days first,
 * are shared out in proportion to the regions' calls (the largest average: a region's calls left per
 * caller it would then have). The callers of one day, most of a stretch's, take their regions with the
 * calls left (placeCallsLeft).
 */
function assignRegions(figures: CallerFigures, days: readonly DayCallers[], persons: number, meant: Int32Array): Region[] {
  const stretchOfDay = new Int32Array(figures.days.length);
  figures.regions.forEach((stretch, index) => stretchOfDay.fill(index, stretch.first, stretch.last + 1));
  const presence = presenceOf(days, persons, stretchOfDay);
  const book = regionBook(figures);
  const regionOfPerson = new Int32Array(persons).fill(-1);
  const given = figures.regions.map(() => new Int32Array(book.names.length));
  const assign = (person: number, region: number, byStretch: Iterable<[number, number]>) => {
    regionOfPerson[person] = region;
    for (const [stretch, calls] of byStretch) {
      const [left, callers] = [book.left[stretch], given[stretch]];
      if (left === undefined || callers === undefined) continue;
      left[region] = (left[region] ?? 0) - calls;
      callers[region] = (callers[region] ?? 0) + 1;
    }
  };
  const spanning = presence.flatMap((seen, person) => (seen.byStretch === undefined ? [] : [person]));
  spanning.sort((a, b) => (presence[b]?.total ?? 0) - (presence[a]?.total ?? 0));
  const fitsMeant = (person: number, byStretch: readonly [number, number][]) => {
    const region = meant[person] ?? -1;
    return region >= 0 && byStretch.every(([stretch, calls]) => (book.left[stretch]?.[region] ?? 0) >= calls);
  };
  for (const person of spanning) {
    const byStretch = [...(presence[person]?.byStretch ?? [])];
    if (fitsMeant(person, byStretch)) {
      assign(person, meant[person] ?? 0, byStretch);
      continue;
    }
    let [best, bestNeeds, bestMargin] = [-1, -1, Number.NEGATIVE_INFINITY];
    for (let region = 0; region < book.names.length; region += 1) {
      const margin = Math.min(...byStretch.map(([stretch, calls]) => (book.left[stretch]?.[region] ?? 0) - calls));
      const needs = margin < 0 ? 0 : byStretch.filter(([stretch]) => (given[stretch]?.[region] ?? 0) === 0).length;
      if (needs > bestNeeds || (needs === bestNeeds && margin > bestMargin)) [best, bestNeeds, bestMargin] = [region, needs, margin];
    }
    if (best >= 0) assign(person, best, byStretch);
  }
  const alone: number[][] = figures.regions.map(() => []);
  presence.forEach((seen, person) => {
    if (seen.byStretch === undefined && seen.total > 1) alone[seen.stretch]?.push(person);
  });
  const oneDay = oneDayCallers(figures, days, presence);
  alone.forEach((persons, stretch) => {
    const [left, callers] = [book.left[stretch], given[stretch]];
    if (left === undefined || callers === undefined) return;
    const callsOf = (person: number) => presence[person]?.total ?? 0;
    persons.sort((a, b) => callsOf(b) - callsOf(a));
    const unmeant = persons.filter((person) => {
      if (!fitsMeant(person, [[stretch, callsOf(person)]])) return true;
      assign(person, meant[person] ?? 0, [[stretch, callsOf(person)]]);
      return false;
    });
    persons.splice(0, persons.length, ...unmeant);
    // Every region with calls is given a caller: one of one day, on the day with the most room for more
    // calls, while there are such callers; else one of the fewest days.
    const uncovered = [...left.keys()].filter((region) => (left[region] ?? 0) > 0 && callers[region] === 0).sort((a, b) => (left[a] ?? 0) - (left[b] ?? 0));
    const oneDayCallers = oneDay[stretch] ?? [];
    for (const region of uncovered) {
      const roomiest = oneDayCallers.pop();
      if (roomiest !== undefined) {
        assign(roomiest.person, region, [[stretch, 1]]);
        continue;
      }
      const fewest = persons[persons.length - 1];
      // Given even when its days are more than the region's calls: shedExcess hands the days beyond them on.
      if (fewest === undefined) continue;
      persons.pop();
      assign(fewest, region, [[stretch, callsOf(fewest)]]);
    }
    const heap = new RegionHeap(
      [...left.keys()].filter((region) => (left[region] ?? 0) > 0),
      (region) => (left[region] ?? 0) / ((callers[region] ?? 0) + 1),
    );
    for (const person of persons) {
      const passed: number[] = [];
      let region = heap.pop();
      while (region !== undefined && (left[region] ?? 0) < callsOf(person)) {
        passed.push(region);
        region = heap.pop();
      }
      const chosen = region ?? passed[0] ?? 0;
      assign(person, chosen, [[stretch, callsOf(person)]]);
      for (const back of region === undefined ? passed.slice(1) : [...passed, region]) if ((left[back] ?? 0) > 0) heap.push(back);
    }
  });
  figures.regions.forEach((stretch, index) => {
    const left = book.left[index] ?? new Int32Array(0);
    if (left.some((calls) => calls < 0)) shedExcess(figures, stretch, days, regionOfPerson, left);
    placeCallsLeft(stretch, left, days, figures, regionOfPerson);
  });
  return Array.from(regionOfPerson, (region) => book.names[region] ?? book.names[0] ?? 'ZZ');
}

/** How many times a stretch's flow is found again without the region-days it stranded (placeCallsLeft). */
const MOST_FLOW_ROUNDS = 20;

/**
 * Days of callers whose regions have more of them than calls (`left` below 0) handed to callers of regions
 * with calls to spare: on a day of a piece where the one calls again, another caller of the piece who does
 * not call that day calls in its place. Every day keeps its count of callers, and every piece, week and
 * month the same callers, so no distinct count moves: only how many days each caller calls on.
 */
function shedExcess(figures: CallerFigures, stretch: RegionStretch, days: readonly DayCallers[], regionOfPerson: Int32Array, left: Int32Array): void {
  const pieces = figures.pieces.filter((piece) => piece.first >= stretch.first && piece.last <= stretch.last);
  const membersOf = (piece: DistinctPeriod) => {
    const daysIn = new Map<number, number>();
    for (let day = piece.first; day <= piece.last; day += 1) for (const person of days[day]?.callers ?? []) daysIn.set(person, (daysIn.get(person) ?? 0) + 1);
    return daysIn;
  };
  const members = pieces.map(membersOf);
  const piecesOf = new Map<number, number>();
  for (const daysIn of members) for (const person of daysIn.keys()) piecesOf.set(person, (piecesOf.get(person) ?? 0) + 1);
  // A piece that is not a whole week: swapping who is in it would move its week's count.
  const wholeWeek = pieces.map((piece) => figures.weeks.some((week) => week.first === piece.first && week.last === piece.last));
  const over = (person: number) => (left[regionOfPerson[person] ?? -1] ?? 0) < 0;
  const spare = (person: number) => (regionOfPerson[person] ?? -1) >= 0 && (left[regionOfPerson[person] ?? -1] ?? 0) > 0;
  const hand = (person: number, other: number) => {
    left[regionOfPerson[person] ?? 0] = (left[regionOfPerson[person] ?? 0] ?? 0) + 1;
    left[regionOfPerson[other] ?? 0] = (left[regionOfPerson[other] ?? 0] ?? 0) - 1;
  };
  pieces.forEach((piece, pieceIndex) => {
    const daysIn = members[pieceIndex] ?? new Map<number, number>();
    for (let day = piece.first; day <= piece.last; day += 1) {
      const callers = days[day]?.callers ?? new Int32Array(0);
      const present = new Set(callers);
      callers.forEach((person, position) => {
        if (!over(person)) return;
        const again = (daysIn.get(person) ?? 0) >= 2;
        // Another caller of the piece calls that day instead; or, for a piece that is a whole week and a
        // caller of other pieces too, a caller of the month who is not in the piece takes its place in it.
        const candidates = again ? daysIn.keys() : wholeWeek[pieceIndex] === true && (piecesOf.get(person) ?? 0) >= 2 ? piecesOf.keys() : [];
        for (const other of candidates) {
          if (present.has(other) || !spare(other) || (!again && daysIn.has(other))) continue;
          callers[position] = other;
          present.delete(person);
          present.add(other);
          daysIn.set(person, (daysIn.get(person) ?? 0) - 1);
          daysIn.set(other, (daysIn.get(other) ?? 0) + 1);
          if (!again) {
            daysIn.delete(person);
            piecesOf.set(person, (piecesOf.get(person) ?? 0) - 1);
            piecesOf.set(other, (piecesOf.get(other) ?? 0) + 1);
          }
          hand(person, other);
          return;
        }
      });
    }
  });
}

/** Per stretch, its callers of one day, the one on the day with the most room for more calls last. */
function oneDayCallers(figures: CallerFigures, days: readonly DayCallers[], presence: readonly Presence[]): { readonly person: number; readonly room: number }[][] {
  return figures.regions.map((stretch) => {
    const found: { readonly person: number; readonly room: number }[] = [];
    for (let day = stretch.first; day <= stretch.last; day += 1) {
      const callers = days[day]?.callers ?? new Int32Array(0);
      const room = (figures.days[day]?.calls ?? 0) - callers.length;
      for (const person of callers) if (presence[person]?.total === 1) found.push({ person, room });
    }
    return found.sort((a, b) => a.room - b.room);
  });
}

/**
 * What each region has left over a stretch, placed on its days: on the days of its callers of several days
 * (calls beyond one a day), and on the callers of one day still without a region, who each make at least
 * one. A maximum flow from the regions to the days decides how many of each region's calls fall on each
 * day: a day takes at least one call per such caller, and at most its calls beyond its other callers'
 * one each (a flow with lower bounds: a first flow meets them, a second adds the rest). A day can give a
 * caller to as many regions as it has callers of one day: when the flow sends it calls of more regions
 * without a caller there, the smallest of them are kept off that day and the flow is found again.
 */
function placeCallsLeft(stretch: RegionStretch, left: Int32Array, days: readonly DayCallers[], figures: CallerFigures, regionOfPerson: Int32Array): void {
  const dayCount = stretch.last - stretch.first + 1;
  const withCaller: Set<number>[] = [];
  const unassigned: number[] = [];
  for (let day = stretch.first; day <= stretch.last; day += 1) {
    const callers = days[day]?.callers ?? new Int32Array(0);
    withCaller.push(new Set([...callers].map((person) => regionOfPerson[person] ?? -1).filter((region) => region >= 0)));
    unassigned.push(callers.filter((person) => regionOfPerson[person] === -1).length);
  }
  const kept = new Set<number>();
  let sent = flowOfDays(stretch, left, days, figures, withCaller, unassigned, kept);
  for (let round = 1; round < MOST_FLOW_ROUNDS; round += 1) {
    let stranded = 0;
    sent.forEach((regions, offset) => {
      const newcomers = [...regions].filter(([region]) => !(withCaller[offset]?.has(region) ?? false)).sort((a, b) => b[1] - a[1]);
      for (const [region] of newcomers.slice(unassigned[offset] ?? 0)) {
        kept.add(region * dayCount + offset);
        stranded += 1;
      }
    });
    if (stranded === 0) break;
    sent = flowOfDays(stretch, left, days, figures, withCaller, unassigned, kept);
  }
  sent.forEach((regions, offset) => {
    const { callers, calls } = days[stretch.first + offset] ?? NO_CALLERS;
    shareDay(callers, calls, regions, regionOfPerson);
  });
}

/** Per day of the stretch, the calls each region sends it, from the maximum flow of placeCallsLeft without the region-days `kept` off. */
function flowOfDays(
  stretch: RegionStretch,
  left: Int32Array,
  days: readonly DayCallers[],
  figures: CallerFigures,
  withCaller: readonly Set<number>[],
  unassigned: readonly number[],
  kept: ReadonlySet<number>,
): Map<number, number>[] {
  const [regions, dayCount] = [left.length, stretch.last - stretch.first + 1];
  const [source, sink, lowSource, lowSink] = [regions + dayCount, regions + dayCount + 1, regions + dayCount + 2, regions + dayCount + 3];
  const network = new FlowNetwork(regions + dayCount + 4);
  left.forEach((calls, region) => {
    if (calls > 0) network.add(source, region, calls);
  });
  const edges: Map<number, number>[] = [];
  for (let offset = 0; offset < dayCount; offset += 1) {
    const dayNode = regions + offset;
    const dayEdges = new Map<number, number>();
    left.forEach((calls, region) => {
      const reaches = (withCaller[offset]?.has(region) ?? false) || (unassigned[offset] ?? 0) > 0;
      if (calls > 0 && reaches && !kept.has(region * dayCount + offset)) dayEdges.set(region, network.add(region, dayNode, calls));
    });
    edges.push(dayEdges);
    const callers = days[stretch.first + offset]?.callers.length ?? 0;
    network.add(dayNode, sink, (figures.days[stretch.first + offset]?.calls ?? 0) - callers);
    const needing = unassigned[offset] ?? 0;
    if (needing > 0) {
      network.add(lowSource, sink, needing);
      network.add(dayNode, lowSink, needing);
    }
  }
  const circulation = network.add(sink, source, Number.MAX_SAFE_INTEGER);
  network.maximise(lowSource, lowSink);
  network.close(circulation);
  network.maximise(source, sink);
  return edges.map((dayEdges) => new Map([...dayEdges].map(([region, edge]): [number, number] => [region, network.flowOf(edge)]).filter(([, flow]) => flow > 0)));
}

/**
 * A day's callers without a region given to the regions that send it calls (`sent`): first one to each
 * region without another caller that day, then to those with the most calls to spare, one call each at
 * least; each region's calls of the day are then spread over its callers of the day.
 */
function shareDay(callers: Int32Array, calls: Int32Array, sent: Map<number, number>, regionOfPerson: Int32Array): void {
  const positions = new Map<number, number[]>();
  const unassigned: number[] = [];
  callers.forEach((person, position) => {
    const region = regionOfPerson[person] ?? -1;
    if (region === -1) unassigned.push(position);
    else listIn(positions, region).push(position);
  });
  const spare = new Map([...sent].map(([region, flow]) => [region, flow]));
  const give = (position: number, region: number) => {
    regionOfPerson[callers[position] ?? 0] = region;
    calls[position] = 0;
    listIn(positions, region).push(position);
    spare.set(region, (spare.get(region) ?? 0) - 1);
  };
  for (const region of sent.keys()) {
    const next = unassigned[unassigned.length - 1];
    if (!positions.has(region) && next !== undefined) give(unassigned.pop() ?? next, region);
  }
  for (let position = unassigned.pop(); position !== undefined; position = unassigned.pop()) {
    let most = -1;
    for (const [region, calls] of spare) if (most === -1 || calls > (spare.get(most) ?? 0)) most = region;
    give(position, most === -1 ? 0 : most);
  }
  for (const [region, flow] of sent) {
    const list = positions.get(region) ?? [];
    // A caller of several days has its one call already; one of this day only is given its first here.
    const first = list.filter((position) => calls[position] === 0).length;
    const rest = flow - first;
    list.forEach((position, index) => {
      calls[position] = Math.max(1, calls[position] ?? 0) + (rest > 0 ? Math.floor(rest / list.length) + (index < rest % list.length ? 1 : 0) : 0);
    });
  }
}

/** The plan's distinct callers over `period`, counted with `seen` (the last period each caller was counted in). */
function distinctOver(days: readonly DayCallers[], period: DistinctPeriod, mark: number, seen: Int32Array): number {
  let distinct = 0;
  for (let day = period.first; day <= period.last; day += 1) {
    for (const caller of days[day]?.callers ?? []) {
      if (seen[caller] === mark) continue;
      seen[caller] = mark;
      distinct += 1;
    }
  }
  return distinct;
}

/** Every figure of `figures` counted again on the plan, and those it does not meet. */
function unmetFigures(figures: CallerFigures, days: readonly DayCallers[], regionOf: readonly Region[]): Unmet[] {
  const unmet: Unmet[] = [];
  const seen = new Int32Array(regionOf.length).fill(-1);
  let mark = 0;
  const dayPeriods = figures.days.map((day, index) => ({ first: index, last: index, callers: day.callers }));
  for (const period of [...dayPeriods, ...figures.pieces, ...figures.weeks, ...figures.months]) {
    const planned = distinctOver(days, period, mark, seen);
    mark += 1;
    if (planned !== period.callers) unmet.push({ what: 'callers', first: period.first, last: period.last, source: period.callers, planned });
  }
  for (const stretch of figures.regions) {
    const planned = new Map<Region, number>();
    for (let day = stretch.first; day <= stretch.last; day += 1) {
      const { callers, calls } = days[day] ?? NO_CALLERS;
      callers.forEach((caller, position) => {
        const region = regionOf[caller] ?? '';
        planned.set(region, (planned.get(region) ?? 0) + (calls[position] ?? 0));
      });
    }
    const source = new Map(stretch.value.filter((entry) => entry.calls > 0).map((entry) => [entry.region, entry.calls]));
    for (const region of new Set([...source.keys(), ...planned.keys()])) {
      const [want, have] = [source.get(region) ?? 0, planned.get(region) ?? 0];
      if (want !== have) unmet.push({ what: 'region', first: stretch.first, last: stretch.last, region, source: want, planned: have });
    }
  }
  return unmet;
}
