/**
 * Memory of the calls in a memory store (run by bench/memory.ts, with --expose-gc, one record version per
 * process): the demo generator's calls, read as the admin API reads them (JSON text parsed, then the wire
 * schema), added 10,000 at a time to a store whose account owns 20 numbers; the growth of the live heap
 * and of the resident set per call. Version 1 keeps only call_id, phone, started_at and the three counts.
 * With the argument `uuid` after the version, each call_id is a random UUID instead of the generator's
 * (ids without a common opening, which the store's front coding cannot shorten). Prints one JSON line (printResult).
 */
import type * as CallRecordModule from '../src/domain/call-record';
import type { CallRecord, CallRecordInput } from '../src/domain/call-record';
import type * as DemoCallsModule from '../src/startup-data/demo/calls';
import { randomUUID } from 'node:crypto';
import { benchAccountStore, HISTORY_END, TIME_ZONE, TWENTY_PHONES } from './bench-account';
import { compiled } from './compiled';
import { printResult } from './processes';
import { settings } from './settings';

export interface CallMemory {
  readonly version: 1 | 2;
  /** Whether the call ids were random UUIDs. */
  readonly uuidCallIds: boolean;
  readonly calls: number;
  /** Growth of V8's live heap plus memory outside it (external, which includes ArrayBuffers), after gc. */
  readonly bytesPerCall: number;
  readonly rssBytesPerCall: number;
  /** Average UTF-8 length of a call_id as received (the memory store front-codes them). */
  readonly callIdBytes: number;
}

const BATCH = 10_000;
/** Added before the first measurement, so that compiled code and first allocations are not counted as calls. */
const WARM_UP = 10_000;
const VERSION_1_FIELDS = ['call_id', 'phone', 'started_at', 'log_events', 'loops', 'form_items'] as const;

function liveBytes(): { live: number; rss: number } {
  global.gc?.();
  global.gc?.();
  const usage = process.memoryUsage();
  return { live: usage.heapUsed + usage.external, rss: usage.rss };
}

function asVersion1(wire: CallRecordInput): CallRecordInput {
  return Object.fromEntries(VERSION_1_FIELDS.map((field) => [field, wire[field]])) as unknown as CallRecordInput;
}

async function main(): Promise<void> {
  if (global.gc === undefined) throw new Error('run with --expose-gc');
  const { callRecordSchema } = await compiled<typeof CallRecordModule>('domain/call-record');
  const { generateDemoCalls } = await compiled<typeof DemoCallsModule>('startup-data/demo/calls');
  const version = process.argv[2] === '2' ? 2 : 1;
  const uuidCallIds = process.argv[3] === 'uuid';
  const calls = settings.memoryCalls;
  const store = await benchAccountStore(TWENTY_PHONES);
  // The generator gives a number at least 50 calls on a day at callsPerDay 200; a few days to spare.
  const days = Math.ceil((calls + WARM_UP) / (TWENTY_PHONES.length * 50)) + 7;
  const wireRecords = generateDemoCalls({ phones: TWENTY_PHONES, days, callsPerDay: 200, seed: 7, timeZone: TIME_ZONE, now: HISTORY_END })[Symbol.iterator]();
  let callIdBytes = 0;
  const nextBatch = (size: number): CallRecord[] => {
    const batch: CallRecord[] = [];
    for (let index = 0; index < size; index += 1) {
      const next = wireRecords.next();
      if (next.done === true) throw new Error(`the generator made fewer than ${calls + WARM_UP} calls`);
      const generated = uuidCallIds ? { ...next.value, call_id: randomUUID() } : next.value;
      const wire = version === 1 ? asVersion1(generated) : generated;
      callIdBytes += Buffer.byteLength(wire.call_id);
      // Through JSON text, as an import reads it: its strings are the store's own, not the generator's.
      batch.push(callRecordSchema.parse(JSON.parse(JSON.stringify(wire))));
    }
    return batch;
  };
  await store.calls.add(nextBatch(WARM_UP));
  callIdBytes = 0;
  const before = liveBytes();
  for (let added = 0; added < calls; added += BATCH) await store.calls.add(nextBatch(Math.min(BATCH, calls - added)));
  const after = liveBytes();
  // Read after measuring, so that the store is certainly alive when the heap is measured.
  const stored = (await store.calls.dailyTotals(TWENTY_PHONES, 0, 100_000)).column('calls').reduce((sum, dayCalls) => sum + dayCalls, 0);
  if (stored !== calls + WARM_UP) throw new Error(`the store holds ${stored} calls, not ${calls + WARM_UP}`);
  const result: CallMemory = {
    version,
    uuidCallIds,
    calls,
    bytesPerCall: (after.live - before.live) / calls,
    rssBytesPerCall: (after.rss - before.rss) / calls,
    callIdBytes: callIdBytes / calls,
  };
  printResult(result);
}

void main();
