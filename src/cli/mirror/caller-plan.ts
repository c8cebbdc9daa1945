import type { Region } from '../../domain/caller-region';
import { assignRegions, listIn, NO_CALLERS, regionBook, type DayCallers, type RegionBook } from './caller-regions';
import type { CallerFigures, DistinctPeriod } from './figures';
import { UnionFind } from './union-find';

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
 *
 * Which callers take the runs decides how many days each calls on, and so which region can have it
 * (caller-regions.ts): the shapes are tried in turn, and the plan that misses fewest figures is kept.
 */
export function planCallers(figures: CallerFigures): CallerPlan {
  const book = regionBook(figures);
  let best: CallerPlan | undefined;
  for (const shape of CALLER_SHAPES) {
    const plan = planShaped(figures, book, shape);
    if (best === undefined || plan.unmet.length < best.unmet.length) best = plan;
    if (best.unmet.length === 0) break;
  }
  return best ?? planShaped(figures, book, 1);
}

/**
 * How many days each caller calls on, tried in turn: shaped after the regions' calls (meantCallers, each
 * caller up to its region's calls, then in proportion to them), then as evenly as the counts allow, then
 * ever fewer regulars (tieredRuns' spread).
 */
export const CALLER_SHAPES = ['room', 'share', 1, 0.5, 0.2, 0] as const;
type Shape = (typeof CALLER_SHAPES)[number];

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

/**
 * The plan of one shape; `book` is only read here (assignRegions spends a copy of it). Exported for the
 * bench, which times every shape: what a source whose regions no shape meets costs.
 */
export function planShaped(figures: CallerFigures, book: RegionBook, shape: Shape): CallerPlan {
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
  // Callers of a month and of the next made one person.
  const people = new UnionFind(monthCallers);
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
  const regionOf = assignRegions(figures, book, days, persons, Int32Array.from(meant));
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
export function unmetFigures(figures: CallerFigures, days: readonly DayCallers[], regionOf: readonly Region[]): Unmet[] {
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
