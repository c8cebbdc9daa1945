/**
 * What the benchmark servers share: a memory store with one account, dev/bench, and its Basic credentials.
 * The store is under measurement too, so it and the code filling it are the compiled modules.
 */
import type * as PasswordHash from '../src/accounts/password-hash';
import type * as AccountModule from '../src/accounts/account';
import type * as DemoCallsModule from '../src/startup-data/demo/calls';
import type * as SeedFileModule from '../src/startup-data/seed-file';
import type { MemoryStoreParts } from '../src/storage/memory/memory-data';
import type * as MemoryStoreModule from '../src/storage/memory/memory-store';
import type { Store } from '../src/storage/store';
import { compiled } from './compiled';

export const PHONES = ['18005550100', '18005550101', '18005550102'];
/** The numbers of an account the size of a real customer's, for the figures about many calls. */
export const TWENTY_PHONES = Array.from({ length: 20 }, (_, index) => String(18_005_550_200 + index));
export const TIME_ZONE = 'America/New_York';
/** Where the generated histories end: fixed, so that every run builds the same calls. */
export const HISTORY_END = Date.UTC(2026, 0, 1);

/** The account dev/bench (password `bench`), owner of `phones`, saved in `store` (memory or PostgreSQL). */
export async function saveBenchAccount(store: Store, phones: readonly string[]): Promise<void> {
  const { hashPassword } = await compiled<typeof PasswordHash>('accounts/password-hash');
  const { accountId } = await compiled<typeof AccountModule>('accounts/account');
  const id = accountId('dev', 'bench');
  await store.accounts.save({ id, tool: 'dev', login: 'bench', passwordHash: await hashPassword('bench'), active: true, timeZone: TIME_ZONE, credentialGeneration: 0 });
  for (const phone of phones) await store.phones.assign(phone, id);
}

/** A fresh memory store (made of `parts`) holding only the account dev/bench (password `bench`), owner of `phones`. */
export async function benchAccountStore(phones: readonly string[], parts: MemoryStoreParts = {}): Promise<Store> {
  const { createMemoryStore } = await compiled<typeof MemoryStoreModule>('storage/memory/memory-store');
  const store = createMemoryStore(parts);
  await saveBenchAccount(store, phones);
  return store;
}

/** The demo generator's calls of PHONES over `days` added to `store`; returns how many went in. */
export async function addBenchHistory(store: Store, days: number, callsPerDay: number): Promise<number> {
  const { generateDemoCallRecords } = await compiled<typeof DemoCallsModule>('startup-data/demo/calls');
  const { addCallsInBatches } = await compiled<typeof SeedFileModule>('startup-data/seed-file');
  const records = generateDemoCallRecords({ phones: PHONES, days, callsPerDay, seed: 7, timeZone: TIME_ZONE, now: HISTORY_END });
  return (await addCallsInBatches(store, records)).inserted;
}

/** The account dev/bench owning PHONES, with the demo generator's calls over `days`. */
export async function storeWithCalls(days: number, callsPerDay: number): Promise<{ store: Store; calls: number }> {
  const store = await benchAccountStore(PHONES);
  return { store, calls: await addBenchHistory(store, days, callsPerDay) };
}

/** Temporary credentials of dev/bench from the server at `url`, as an Authorization header. */
export async function credentialsFor(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth`, { method: 'POST', body: new URLSearchParams({ tool: 'dev', login: 'bench', password: 'bench' }) });
  const { login, password } = (await response.json()) as { login: string; password: string };
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}
