import { PATH_STEP_COUNTERS, type CallRecord } from '../../domain/call-record';
import { monthStart } from '../../time/months';
import { zeroSums } from '../day-totals';
import type { FormItemTable } from './form-item-table';
import { VarintColumn } from './varint-column';

/** Calls per block: 32-96 KiB of required columns. */
const BLOCK_SHIFT = 12;
const BLOCK_SIZE = 1 << BLOCK_SHIFT;
const BLOCK_MASK = BLOCK_SIZE - 1;

const MS_PER_SECOND = 1000;

export const NO_CALLER = -1;

/** The counters of version 2: a block holds a column for one only once one of its calls has it. */
const OPTIONAL_COUNTERS = ['durationMs', 'transfers', 'transferMs', 'jsErrors', 'fetchErrors', 'pageLoads', 'pageLoadMs'] as const;
type OptionalCounter = (typeof OPTIONAL_COUNTERS)[number];

/** Receives a path entry: its form item's id and its counters in the order of PATH_STEP_COUNTERS (an array reused for every entry). */
export type PathEntryVisitor = (formItem: number, counters: Uint32Array) => void;

/** One call as stored, everything a rollup needs of it; one object is reused for every call read. */
export interface StoredCall extends Record<OptionalCounter, number> {
  /** A call counts one in the sums of its day. */
  readonly calls: 1;
  phone: number;
  logEvents: number;
  loops: number;
  formItems: number;
  /** Milliseconds since the epoch, to the second. */
  startedAt: number;
  /** A caller id, or NO_CALLER. */
  caller: number;
  /** Where the call's path entries start in the history's path column, and how many it has. */
  pathStart: number;
  pathLength: number;
}

export function emptyStoredCall(): StoredCall {
  return { ...zeroSums(), calls: 1, phone: 0, startedAt: 0, caller: NO_CALLER, pathStart: 0, pathLength: 0 };
}

/** A column of a block, as narrow as its largest value allows: most counters fit in a byte. */
type NarrowColumn = Uint8Array | Uint16Array | Uint32Array;

/** Sets `value` at `offset`, in a wider copy of the column when it does not fit; returns the column to keep. */
function setNarrow(column: NarrowColumn, offset: number, value: number): NarrowColumn {
  let target = column;
  if (value > 0xffff && !(column instanceof Uint32Array)) target = Uint32Array.from(column);
  else if (value > 0xff && column instanceof Uint8Array) target = Uint16Array.from(column);
  target[offset] = value;
  return target;
}

const SECONDS_IN_32_BITS = 0xffffffff;

/**
 * A block's start times in whole seconds: a call's local day does not depend on its milliseconds, since
 * offset changes and local midnights fall on whole seconds. Unsigned 32 bits reach 2106; a block with a
 * later call keeps doubles.
 */
function setSeconds(column: Uint32Array | Float64Array, offset: number, seconds: number): Uint32Array | Float64Array {
  const target = seconds > SECONDS_IN_32_BITS && column instanceof Uint32Array ? Float64Array.from(column) : column;
  target[offset] = seconds;
  return target;
}

class CallBlock {
  startedAtSeconds: Uint32Array | Float64Array = new Uint32Array(BLOCK_SIZE);
  phone: NarrowColumn = new Uint8Array(BLOCK_SIZE);
  logEvents: NarrowColumn = new Uint8Array(BLOCK_SIZE);
  loops: NarrowColumn = new Uint8Array(BLOCK_SIZE);
  formItems: NarrowColumn = new Uint8Array(BLOCK_SIZE);
  readonly optional: Partial<Record<OptionalCounter, NarrowColumn>> = {};
  /** Caller id + 1; 0 for none. */
  callers: Uint32Array | undefined;
  pathStarts: Float64Array | undefined;
  pathLengths: Uint16Array | undefined;
}

/**
 * Every stored call, in order of arrival, as columns of typed arrays in blocks: numbers only (phones,
 * callers and form items by id), outside the JavaScript heap, about 8-10 bytes a version-1 call. The
 * rollups are built from here again when a number's time zone changes.
 */
export class CallHistory {
  private blocks: CallBlock[] = [];
  private count = 0;
  /** Every call's path entries in order of arrival: the form item's id, then its counters, as varints. */
  private paths = new VarintColumn();
  private readonly entryCounters = new Uint32Array(PATH_STEP_COUNTERS.length);

  /** Appends the call; `into` is then that call as stored. */
  append(record: CallRecord, phone: number, caller: number, formItems: FormItemTable, into: StoredCall): void {
    into.startedAt = Math.floor(record.startedAt / MS_PER_SECOND) * MS_PER_SECOND;
    into.phone = phone;
    into.logEvents = record.logEvents;
    into.loops = record.loops;
    into.formItems = record.formItems;
    for (const counter of OPTIONAL_COUNTERS) into[counter] = record[counter] ?? 0;
    into.caller = caller;
    const path = record.path ?? [];
    this.appendColumns(into, path.length);
    // The counters named one by one, in PATH_STEP_COUNTERS's order: a loop over the names, each read by a
    // key, made append several times slower (docs/performance-costs.md, "Import into memory").
    for (const step of path) {
      this.paths.push(formItems.intern(step));
      this.paths.push(step.visits);
      this.paths.push(step.filled);
      this.paths.push(step.nomatch);
      this.paths.push(step.noinput);
      this.paths.push(step.transfer);
      this.paths.push(step.disconnect);
    }
  }

  forEachPathEntry(call: StoredCall, visit: PathEntryVisitor): void {
    const reader = this.paths.readerAt(call.pathStart);
    for (let entry = 0; entry < call.pathLength; entry += 1) {
      const formItem = reader.next();
      for (let index = 0; index < this.entryCounters.length; index += 1) this.entryCounters[index] = reader.next();
      visit(formItem, this.entryCounters);
    }
  }

  /** Reads every call of the given phones, in order of arrival, into one reused object. */
  forEachCallOf(phones: ReadonlySet<number>, visit: (call: StoredCall) => void): void {
    const call = emptyStoredCall();
    for (let index = 0; index < this.count; index += 1) {
      const block = this.blocks[index >>> BLOCK_SHIFT] as CallBlock;
      if (!phones.has(block.phone[index & BLOCK_MASK] as number)) continue;
      this.read(index, call);
      visit(call);
    }
  }

  /**
   * Retention: keeps only the calls that started at or after `cutoffMs`, in their order; returns how many
   * calls went (or would go, `dryRun`), by the first instant of their UTC month. Counted first, so that an
   * hourly round with nothing to drop copies nothing.
   */
  dropBefore(cutoffMs: number, dryRun: boolean): Map<number, number> {
    const dropped = new Map<number, number>();
    const call = emptyStoredCall();
    for (let index = 0; index < this.count; index += 1) {
      this.read(index, call);
      if (call.startedAt >= cutoffMs) continue;
      const month = monthStart(call.startedAt);
      dropped.set(month, (dropped.get(month) ?? 0) + 1);
    }
    if (dryRun || dropped.size === 0) return dropped;
    this.keepOnly((kept) => kept.startedAt >= cutoffMs);
    return dropped;
  }

  /** Drops every call of the given phones (a deleted account's), the others kept in their order; copies nothing when none has a call. */
  dropPhones(phones: ReadonlySet<number>): void {
    for (let index = 0; index < this.count; index += 1) {
      if (phones.has(this.phoneAt(index))) {
        this.keepOnly((kept) => !phones.has(kept.phone));
        return;
      }
    }
  }

  /** Keeps only the calls `keep` accepts, in their order, in columns of their own: the old ones go to the garbage collector whole. */
  private keepOnly(keep: (call: StoredCall) => boolean): void {
    const call = emptyStoredCall();
    const kept = new CallHistory();
    for (let index = 0; index < this.count; index += 1) {
      this.read(index, call);
      if (!keep(call)) continue;
      const reader = this.paths.readerAt(call.pathStart);
      kept.appendColumns(call, call.pathLength);
      for (let value = 0; value < call.pathLength * (1 + PATH_STEP_COUNTERS.length); value += 1) kept.paths.push(reader.next());
    }
    this.blocks = kept.blocks;
    this.count = kept.count;
    this.paths = kept.paths;
  }

  private phoneAt(index: number): number {
    return (this.blocks[index >>> BLOCK_SHIFT] as CallBlock).phone[index & BLOCK_MASK] as number;
  }

  /** Writes a call's columns but its path entries, which the caller pushes next, `pathLength` of them; sets `call.pathStart`. */
  private appendColumns(call: StoredCall, pathLength: number): void {
    const offset = this.count & BLOCK_MASK;
    if (offset === 0) this.blocks.push(new CallBlock());
    const block = this.blocks[this.blocks.length - 1] as CallBlock;
    this.count += 1;
    block.startedAtSeconds = setSeconds(block.startedAtSeconds, offset, call.startedAt / MS_PER_SECOND);
    block.phone = setNarrow(block.phone, offset, call.phone);
    block.logEvents = setNarrow(block.logEvents, offset, call.logEvents);
    block.loops = setNarrow(block.loops, offset, call.loops);
    block.formItems = setNarrow(block.formItems, offset, call.formItems);
    for (const counter of OPTIONAL_COUNTERS) {
      const value = call[counter];
      if (value !== 0) block.optional[counter] = setNarrow(block.optional[counter] ?? new Uint8Array(BLOCK_SIZE), offset, value);
    }
    if (call.caller !== NO_CALLER) (block.callers ??= new Uint32Array(BLOCK_SIZE))[offset] = call.caller + 1;
    call.pathStart = this.paths.length;
    call.pathLength = pathLength;
    if (pathLength === 0) return;
    (block.pathStarts ??= new Float64Array(BLOCK_SIZE))[offset] = call.pathStart;
    (block.pathLengths ??= new Uint16Array(BLOCK_SIZE))[offset] = pathLength;
  }

  private read(index: number, call: StoredCall): void {
    const block = this.blocks[index >>> BLOCK_SHIFT] as CallBlock;
    const offset = index & BLOCK_MASK;
    call.phone = block.phone[offset] as number;
    call.startedAt = (block.startedAtSeconds[offset] as number) * MS_PER_SECOND;
    call.logEvents = block.logEvents[offset] as number;
    call.loops = block.loops[offset] as number;
    call.formItems = block.formItems[offset] as number;
    for (const counter of OPTIONAL_COUNTERS) call[counter] = block.optional[counter]?.[offset] ?? 0;
    call.caller = (block.callers?.[offset] ?? 0) - 1;
    call.pathStart = block.pathStarts?.[offset] ?? 0;
    call.pathLength = block.pathLengths?.[offset] ?? 0;
  }
}
