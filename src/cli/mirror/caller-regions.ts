import type { Region } from '../../domain/caller-region';
import type { CallerFigures, DistinctPeriod, RegionStretch } from './figures';
import { FlowNetwork } from './max-flow';

/*
 * Each planned caller's region, and how many calls it makes on each of its days, so that every region has
 * its calls over each stretch of the geographic report (caller-plan.ts decides who calls on which day).
 */

/** One day's distinct callers, as indexes into the plan's callers, and the calls each made that day (at least one). */
export interface DayCallers {
  readonly callers: Int32Array;
  readonly calls: Int32Array;
}

export const NO_CALLERS: DayCallers = { callers: new Int32Array(0), calls: new Int32Array(0) };

/** The list a map holds under `key`, made empty the first time. */
export function listIn(lists: Map<number, number[]>, key: number): number[] {
  const list = lists.get(key);
  if (list !== undefined) return list;
  const made: number[] = [];
  lists.set(key, made);
  return made;
}

/** A caller's days within each stretch of the geographic report. */
interface Presence {
  /** Its days, over every stretch: a call each at least. */
  total: number;
  /** The stretch it is first seen in. */
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
export interface RegionBook {
  readonly names: Region[];
  readonly left: Int32Array[];
}

export function regionBook(figures: CallerFigures): RegionBook {
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
export function assignRegions(figures: CallerFigures, regions: RegionBook, days: readonly DayCallers[], persons: number, meant: Int32Array): Region[] {
  const stretchOfDay = new Int32Array(figures.days.length);
  figures.regions.forEach((stretch, index) => stretchOfDay.fill(index, stretch.first, stretch.last + 1));
  const presence = presenceOf(days, persons, stretchOfDay);
  const book: RegionBook = { names: regions.names, left: regions.left.map((calls) => calls.slice()) };
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
 *
 * Linear in the stretch's caller-days whatever the figures: a region with calls to spare only loses them
 * here, and one over its calls only comes back to none, so a caller once without spare never has it again,
 * and each list of candidates is walked once per day (a piece's members) or per piece (the stretch's).
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
  const stretchSpare = [...piecesOf.keys()].filter(spare);
  pieces.forEach((piece, pieceIndex) => {
    const daysIn = members[pieceIndex] ?? new Map<number, number>();
    const pieceSpare = [...daysIn.keys()].filter(spare);
    // A candidate passed over stays passed for the rest of its walk: it calls that day (or is in the
    // piece), or has no calls to spare, for good.
    let joining = 0;
    for (let day = piece.first; day <= piece.last; day += 1) {
      const callers = days[day]?.callers ?? new Int32Array(0);
      const present = new Set(callers);
      let calling = 0;
      callers.forEach((person, position) => {
        if (!over(person)) return;
        const again = (daysIn.get(person) ?? 0) >= 2;
        let other: number | undefined;
        if (again) {
          while (calling < pieceSpare.length && (present.has(pieceSpare[calling] ?? -1) || !spare(pieceSpare[calling] ?? -1))) calling += 1;
          other = pieceSpare[calling];
        } else if (wholeWeek[pieceIndex] === true && (piecesOf.get(person) ?? 0) >= 2) {
          // A caller of the month who is not in the piece takes the place in it of one of other pieces too.
          while (joining < stretchSpare.length && (daysIn.has(stretchSpare[joining] ?? -1) || !spare(stretchSpare[joining] ?? -1))) joining += 1;
          other = stretchSpare[joining];
        }
        if (other === undefined) return;
        callers[position] = other;
        present.delete(person);
        present.add(other);
        daysIn.set(person, (daysIn.get(person) ?? 0) - 1);
        if (!daysIn.has(other)) pieceSpare.push(other);
        daysIn.set(other, (daysIn.get(other) ?? 0) + 1);
        if (!again) {
          daysIn.delete(person);
          piecesOf.set(person, (piecesOf.get(person) ?? 0) - 1);
          piecesOf.set(other, (piecesOf.get(other) ?? 0) + 1);
        }
        hand(person, other);
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

