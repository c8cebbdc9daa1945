/**
 * npm run bench:memory: live memory per call stored in the memory store, for version-1 and version-2
 * records, and for version-1 records whose call ids are random UUIDs, each measured in a fresh process
 * (bench/call-memory.ts) over BENCH_MEMORY_CALLS calls.
 */
import type { CallMemory } from './call-memory';
import { LARGE_HEAP, runJsonProcess } from './processes';
import { runStandalone, type Log } from './standalone';

export interface CallMemoryFigures {
  readonly v1: CallMemory;
  readonly v2: CallMemory;
  readonly v1Uuid: CallMemory;
}

export async function measureCallMemory(log: Log): Promise<CallMemoryFigures> {
  const measure = async (version: 1 | 2, uuid = false) => {
    const args = uuid ? [String(version), 'uuid'] : [String(version)];
    const memory = await runJsonProcess<CallMemory>('bench/call-memory.ts', { nodeArgs: ['--expose-gc', LARGE_HEAP], args });
    log(`version ${version}${uuid ? ', random UUID call ids' : ''}: ${describe(memory)}`);
    return memory;
  };
  return { v1: await measure(1), v2: await measure(2), v1Uuid: await measure(1, true) };
}

function describe(memory: CallMemory): string {
  return (
    `${memory.bytesPerCall.toFixed(0)} B of live memory per call over ${memory.calls} calls ` +
    `(call ids of ${memory.callIdBytes.toFixed(0)} B of UTF-8 as received), resident set grew ${memory.rssBytesPerCall.toFixed(0)} B per call`
  );
}

if (require.main === module) {
  runStandalone('bench:memory', async (log) => {
    const { v1, v2, v1Uuid } = await measureCallMemory(log);
    return [
      `memory store, one account owning 20 numbers, calls added 10,000 at a time, heapUsed + external after gc:`,
      `  version-1 records: ${describe(v1)} (goal <= 40 B)`,
      `  version-2 records: ${describe(v2)}`,
      `  version-1 records with random UUID call ids: ${describe(v1Uuid)}`,
    ];
  });
}
