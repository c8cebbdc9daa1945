import type { Store } from '../store';
import { memoryAccounts } from './accounts';
import { memoryCalls } from './calls';
import { memoryCredentials } from './credentials';
import { MemoryData, type MemoryStoreParts } from './memory-data';
import { memoryPhones } from './phones';
import { memoryRateLimits } from './rate-limits';
import { memoryScenarios } from './scenarios';
import { createMemorySurveySessions } from './survey-sessions';

/**
 * The embedded store: everything in process memory, lost on restart, a repository per file as in the
 * PostgreSQL store. Every method resolves on the same tick, so each one is atomic with respect to the others.
 * `parts`: for a benchmark only, stand-ins of some of its parts.
 */
export function createMemoryStore(parts: MemoryStoreParts = {}): Store {
  const data = new MemoryData(parts);
  return {
    accounts: memoryAccounts(data),
    phones: memoryPhones(data),
    credentials: memoryCredentials(data),
    calls: memoryCalls(data),
    rateLimits: memoryRateLimits(),
    surveySessions: createMemorySurveySessions(),
    scenarios: memoryScenarios(),
    // In this process: ready whenever the process serves.
    dependencies: [{ name: 'store', check: () => Promise.resolve() }],
    close: () => Promise.resolve(),
  };
}
