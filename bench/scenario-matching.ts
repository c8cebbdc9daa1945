/**
 * The memory store's scenario matching alone, without HTTP (run by bench/scenarios.ts in a process of its
 * own, so that it runs on the Node.js of the pass that measures it): microseconds per store.scenarios.fire
 * of the data request, over as many scenarios as the argument says, none of which it matches, and over
 * none, the two taking turns round by round. Prints one JSON line (printResult): the comparison.
 */
import type * as MemoryStoreModule from '../src/storage/memory/memory-store';
import type { StoredScenario } from '../src/storage/store';
import { compiled } from './compiled';
import { printResult } from './processes';
import { compare } from './rounds';
import { settings } from './settings';

export const MATCHES_PER_ROUND = 100_000;

/** What bench/scenario-servers.ts adds through the admin API, as the store keeps it. */
const storedUnmatched = (index: number): StoredScenario => ({
  id: `bench-${index}`,
  target: 'data',
  account: index % 2 === 0 ? { tool: 'dev', login: `other-${index}` } : undefined,
  clientAddress: index % 2 === 0 ? undefined : `2001:db8::${index.toString(16)}`,
  status: 500,
  faultString: undefined,
  delayMs: undefined,
  retryAfterSeconds: undefined,
  times: undefined,
  probability: undefined,
  seed: undefined,
  draws: 0,
  fired: 0,
  createdAt: 0,
  connection: undefined,
  bytesPerSecond: undefined,
});

async function main(mostActive: number): Promise<void> {
  const { createMemoryStore } = await compiled<typeof MemoryStoreModule>('storage/memory/memory-store');
  const [none, full] = [createMemoryStore(), createMemoryStore()];
  for (let index = 0; index < mostActive; index += 1) await full.scenarios.add(storedUnmatched(index), mostActive);
  const request = { targets: ['data', 'events'], account: { tool: 'dev' as const, login: 'bench' }, clientAddress: '127.0.0.1' };
  const timed = async (store: typeof none) => {
    for (let count = 0; count < MATCHES_PER_ROUND / 10; count += 1) await store.scenarios.fire(request);
    const started = performance.now();
    for (let count = 0; count < MATCHES_PER_ROUND; count += 1) {
      if ((await store.scenarios.fire(request)).fired !== undefined) throw new Error('a scenario matched');
    }
    return ((performance.now() - started) * 1000) / MATCHES_PER_ROUND;
  };
  const withCap: number[] = [];
  const without: number[] = [];
  for (let round = 0; round < settings.runs; round += 1) {
    without.push(await timed(none));
    withCap.push(await timed(full));
  }
  printResult(compare(withCap, without));
}

if (require.main === module) void main(Number(process.argv[2]));
