import { PATH_STEP_COUNTERS, pathStepCounters, type PathStep } from '../../domain/call-record';
import { localEpochDay, type EpochDay } from '../../time/calendar';
import { DayTotalsTable } from '../day-totals';
import type { DaySpan, RegionCalls } from '../store';
import { NO_CALLER, type CallHistory, type StoredCall } from './call-history';
import type { CallerTable } from './caller-table';
import type { FormItemTable } from './form-item-table';
import { DayIndex } from './day-index';
import { DayTotalsChunks } from './day-totals-chunks';
import { IntSet } from './int-set';

/** What the reports need of one phone's calls on one local day besides its sums; what no call of the day had is absent. */
interface DayRollup {
  /** Caller ids: a report counts distinct callers over any span by a union of these sets. */
  callers?: IntSet;
  /** Calls by region index. */
  regions?: Map<number, number>;
  /** Counters in the order of PATH_STEP_COUNTERS, by form item id. */
  formItems?: Map<number, Float64Array>;
}

/**
 * The in-memory rollups of every phone (by its index), per local day: sums, distinct callers, callers'
 * regions and form items, kept current as calls arrive so that a report costs the days it covers, never
 * the calls. Callers, regions and form items are ids, so a day holds small integers rather than text.
 */
export class CallRollups {
  private readonly byPhone: Array<DayIndex<DayRollup> | undefined> = [];
  private readonly totalsByPhone: Array<DayTotalsChunks | undefined> = [];
  /** Per caller id, the span count at which it was last counted: a union without a set per report. */
  private seenInSpan = new Uint32Array(0);
  private spanCount = 0;

  constructor(
    private readonly callers: CallerTable,
    private readonly formItems: FormItemTable,
    private readonly history: CallHistory,
  ) {}

  add(call: StoredCall, timeZone: string): void {
    const day = localEpochDay(call.startedAt, timeZone);
    let totals = this.totalsByPhone[call.phone];
    if (totals === undefined) {
      totals = new DayTotalsChunks();
      this.totalsByPhone[call.phone] = totals;
    }
    totals.add(day, call);
    if (call.caller === NO_CALLER && call.pathLength === 0) return;
    let days = this.byPhone[call.phone];
    if (days === undefined) {
      days = new DayIndex();
      this.byPhone[call.phone] = days;
    }
    const rollup = days.getOrAdd(day, () => ({}));
    if (call.caller !== NO_CALLER) {
      (rollup.callers ??= new IntSet()).add(call.caller);
      const regions = (rollup.regions ??= new Map<number, number>());
      const region = this.callers.regionIndexOfCaller(call.caller);
      regions.set(region, (regions.get(region) ?? 0) + 1);
    }
    if (call.pathLength > 0) this.addPath(rollup, call);
  }

  /** Drops a phone's rollups from local day `first` on (all of them without it), before they are built again from its calls. */
  forget(phone: number, first?: EpochDay): void {
    if (first === undefined) {
      this.byPhone[phone] = undefined;
      this.totalsByPhone[phone] = undefined;
      return;
    }
    this.byPhone[phone]?.deleteFrom(first);
    this.totalsByPhone[phone]?.clearFrom(first);
  }

  dailyTotals(phones: readonly number[], from: EpochDay, to: EpochDay): DayTotalsTable {
    const table = new DayTotalsTable(from, to);
    for (const phone of phones) this.totalsByPhone[phone]?.addInto(table);
    return table;
  }

  distinctCallers(phones: readonly number[], spans: readonly DaySpan[]): number[] {
    if (this.seenInSpan.length < this.callers.size) this.seenInSpan = new Uint32Array(this.callers.size * 2);
    return spans.map(({ first, last }) => {
      const span = this.nextSpan();
      let distinct = 0;
      for (const rollup of this.rollupsIn(phones, first, last)) {
        rollup.callers?.forEach((caller) => {
          if (this.seenInSpan[caller] === span) return;
          this.seenInSpan[caller] = span;
          distinct += 1;
        });
      }
      return distinct;
    });
  }

  regionTotals(phones: readonly number[], from: EpochDay, to: EpochDay): RegionCalls[] {
    const calls = new Map<number, number>();
    for (const rollup of this.rollupsIn(phones, from, to)) {
      for (const [region, count] of rollup.regions ?? []) calls.set(region, (calls.get(region) ?? 0) + count);
    }
    return [...calls].map(([region, count]) => ({ region: this.callers.regionName(region), calls: count }));
  }

  formItemTotals(phones: readonly number[], from: EpochDay, to: EpochDay, limit: number): PathStep[] {
    const sums = new Map<number, Float64Array>();
    for (const rollup of this.rollupsIn(phones, from, to)) {
      for (const [id, counters] of rollup.formItems ?? []) {
        const sum = sums.get(id);
        if (sum === undefined) sums.set(id, counters.slice());
        else counters.forEach((value, index) => (sum[index] = (sum[index] as number) + value));
      }
    }
    return [...sums].slice(0, limit).map(([id, counters]) => ({
      ...this.formItems.formItem(id),
      ...pathStepCounters((_counter, index) => counters[index] as number),
    }));
  }

  private addPath(rollup: DayRollup, call: StoredCall): void {
    const formItems = (rollup.formItems ??= new Map<number, Float64Array>());
    this.history.forEachPathEntry(call, (formItem, entryCounters) => {
      let counters = formItems.get(formItem);
      if (counters === undefined) {
        counters = new Float64Array(PATH_STEP_COUNTERS.length);
        formItems.set(formItem, counters);
      }
      for (let index = 0; index < PATH_STEP_COUNTERS.length; index += 1) {
        counters[index] = (counters[index] as number) + (entryCounters[index] as number);
      }
    });
  }

  /** A number no caller is marked with yet; all marks are cleared on the rare wrap-around. */
  private nextSpan(): number {
    if (this.spanCount === 0xffffffff) {
      this.seenInSpan.fill(0);
      this.spanCount = 0;
    }
    this.spanCount += 1;
    return this.spanCount;
  }

  private daysOf(phones: readonly number[]): Array<DayIndex<DayRollup>> {
    const phoneDays: Array<DayIndex<DayRollup>> = [];
    for (const phone of phones) {
      const days = this.byPhone[phone];
      if (days !== undefined) phoneDays.push(days);
    }
    return phoneDays;
  }

  /** Every rollup of the given phones from `from` to `to`, in no order. */
  private rollupsIn(phones: readonly number[], from: EpochDay, to: EpochDay): DayRollup[] {
    const rollups: DayRollup[] = [];
    for (const days of this.daysOf(phones)) {
      for (let day = from; day <= to; day += 1) {
        const rollup = days.get(day);
        if (rollup !== undefined) rollups.push(rollup);
      }
    }
    return rollups;
  }
}
