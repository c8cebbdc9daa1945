import { PATH_STEP_COUNTERS, pathStepCounters, type CallRecord, type PathStep } from '../../domain/call-record';
import { regionOfCaller, type Region } from '../../domain/caller-region';
import { localEpochDay, type EpochDay } from '../../time/calendar';
import { addSums, emptyDayTotals, type Sums } from '../day-totals';
import type { DaySpan, DayTotals, RegionCalls } from '../store';

type MutableTotals = Sums & { readonly day: EpochDay };

/** The counters of one form item, in the order of PATH_STEP_COUNTERS. */
type FormItemCounters = number[];

interface FormItem {
  readonly application: string;
  readonly page: string;
  readonly form: string;
  readonly item: string;
}

/** Everything the reports need of one phone's calls on one local day. */
interface DayRollup {
  readonly totals: MutableTotals;
  /** Interned caller ids: a report counts distinct callers over any span by a union of these sets. */
  readonly callers: Set<number>;
  readonly regions: Map<Region, number>;
  /** By interned form item id. */
  readonly formItems: Map<number, FormItemCounters>;
}

/** Control characters are not storable text, so this separator cannot occur inside a form item's texts. */
const KEY_SEPARATOR = '\u0000';

/**
 * The in-memory rollups of every phone, per local day: sums, distinct callers, callers' regions and
 * form items, kept current as calls arrive so that a report costs the days it covers, never the calls.
 * Callers and form items are interned once, so a day holds small integers rather than repeated text.
 */
export class CallRollups {
  private readonly byPhone = new Map<string, Map<EpochDay, DayRollup>>();
  private readonly callerIds = new Map<string, number>();
  private readonly formItemIds = new Map<string, number>();
  private readonly formItems: FormItem[] = [];

  add(record: CallRecord, timeZone: string): void {
    let days = this.byPhone.get(record.phone);
    if (days === undefined) {
      days = new Map();
      this.byPhone.set(record.phone, days);
    }
    const day = localEpochDay(record.startedAt, timeZone);
    let rollup = days.get(day);
    if (rollup === undefined) {
      rollup = { totals: emptyDayTotals(day), callers: new Set(), regions: new Map(), formItems: new Map() };
      days.set(day, rollup);
    }
    const totals = rollup.totals;
    totals.calls += 1;
    totals.logEvents += record.logEvents;
    totals.loops += record.loops;
    totals.formItems += record.formItems;
    totals.durationMs += record.durationMs ?? 0;
    totals.transfers += record.transfers ?? 0;
    totals.transferMs += record.transferMs ?? 0;
    totals.jsErrors += record.jsErrors ?? 0;
    totals.fetchErrors += record.fetchErrors ?? 0;
    totals.pageLoads += record.pageLoads ?? 0;
    totals.pageLoadMs += record.pageLoadMs ?? 0;
    if (record.caller !== undefined) {
      rollup.callers.add(this.callerId(record.caller));
      const region = regionOfCaller(record.caller);
      rollup.regions.set(region, (rollup.regions.get(region) ?? 0) + 1);
    }
    for (const step of record.path ?? []) {
      const id = this.formItemId(step);
      const counters = rollup.formItems.get(id);
      if (counters === undefined) rollup.formItems.set(id, PATH_STEP_COUNTERS.map((counter) => step[counter]));
      else PATH_STEP_COUNTERS.forEach((counter, index) => (counters[index] = (counters[index] as number) + step[counter]));
    }
  }

  /** Drops a phone's rollups, before they are built again from its calls. */
  forget(phone: string): void {
    this.byPhone.delete(phone);
  }

  dailyTotals(phones: readonly string[], from: EpochDay, to: EpochDay): DayTotals[] {
    const phoneDays = this.daysOf(phones);
    const totals: DayTotals[] = [];
    for (let day = from; day <= to; day += 1) {
      let sum: MutableTotals | undefined;
      for (const days of phoneDays) {
        const rollup = days.get(day);
        if (rollup === undefined) continue;
        sum ??= emptyDayTotals(day);
        addSums(sum, rollup.totals);
      }
      if (sum !== undefined) totals.push(sum);
    }
    return totals;
  }

  distinctCallers(phones: readonly string[], spans: readonly DaySpan[]): number[] {
    return spans.map(({ first, last }) => {
      const callers = new Set<number>();
      for (const rollup of this.rollupsIn(phones, first, last)) {
        for (const caller of rollup.callers) callers.add(caller);
      }
      return callers.size;
    });
  }

  regionTotals(phones: readonly string[], from: EpochDay, to: EpochDay): RegionCalls[] {
    const calls = new Map<Region, number>();
    for (const rollup of this.rollupsIn(phones, from, to)) {
      for (const [region, count] of rollup.regions) calls.set(region, (calls.get(region) ?? 0) + count);
    }
    return [...calls].map(([region, count]) => ({ region, calls: count }));
  }

  formItemTotals(phones: readonly string[], from: EpochDay, to: EpochDay, limit: number): PathStep[] {
    const sums = new Map<number, FormItemCounters>();
    for (const rollup of this.rollupsIn(phones, from, to)) {
      for (const [id, counters] of rollup.formItems) {
        const sum = sums.get(id);
        if (sum === undefined) sums.set(id, [...counters]);
        else counters.forEach((value, index) => (sum[index] = (sum[index] as number) + value));
      }
    }
    return [...sums].slice(0, limit).map(([id, counters]) => ({
      ...(this.formItems[id] as FormItem),
      ...pathStepCounters((_counter, index) => counters[index] as number),
    }));
  }

  private daysOf(phones: readonly string[]): Array<Map<EpochDay, DayRollup>> {
    const phoneDays: Array<Map<EpochDay, DayRollup>> = [];
    for (const phone of phones) {
      const days = this.byPhone.get(phone);
      if (days !== undefined) phoneDays.push(days);
    }
    return phoneDays;
  }

  /** Every rollup of the given phones from `from` to `to`, in no order. */
  private rollupsIn(phones: readonly string[], from: EpochDay, to: EpochDay): DayRollup[] {
    const rollups: DayRollup[] = [];
    for (const days of this.daysOf(phones)) {
      for (let day = from; day <= to; day += 1) {
        const rollup = days.get(day);
        if (rollup !== undefined) rollups.push(rollup);
      }
    }
    return rollups;
  }

  private callerId(caller: string): number {
    let id = this.callerIds.get(caller);
    if (id === undefined) {
      id = this.callerIds.size;
      this.callerIds.set(caller, id);
    }
    return id;
  }

  private formItemId({ application, page, form, item }: PathStep): number {
    const key = [application, page, form, item].join(KEY_SEPARATOR);
    let id = this.formItemIds.get(key);
    if (id === undefined) {
      id = this.formItems.length;
      this.formItemIds.set(key, id);
      this.formItems.push({ application, page, form, item });
    }
    return id;
  }
}
