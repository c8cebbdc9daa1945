/**
 * The servers of bench/logins.ts, in a process of their own so that the load generator does not share
 * their event loop: the app over one year of demo calls, once with tool-password hashing bounded to one
 * at a time (the default) and once with it bounded only by libuv's thread pool. Prints one JSON line.
 */
import { createApp } from '../src/app';
import { hashPassword } from '../src/accounts/password-hash';
import { loadConfig } from '../src/config/config';
import { accountId } from '../src/domain/account';
import { createLogger } from '../src/logger';
import { listen } from '../src/server';
import { generateDemoCallRecords } from '../src/startup-data/demo/calls';
import { addCallsInBatches } from '../src/startup-data/seed-file';
import { createMemoryStore } from '../src/storage/memory/memory-store';
import { systemClock } from '../src/time/clock';

const PHONES = ['18005550100', '18005550101', '18005550102'];
const TIME_ZONE = 'America/New_York';
const LIMITS = { DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000000000', REPORT_CACHE_BYTES: '0' };

async function main(): Promise<void> {
  const store = createMemoryStore();
  const id = accountId('dev', 'bench');
  await store.accounts.save({ id, tool: 'dev', login: 'bench', passwordHash: await hashPassword('bench'), active: true, timeZone: TIME_ZONE, credentialGeneration: 0 });
  for (const phone of PHONES) await store.phones.assign(phone, id);
  await addCallsInBatches(store, generateDemoCallRecords({ phones: PHONES, days: 365, callsPerDay: 60, seed: 7, timeZone: TIME_ZONE, now: Date.UTC(2026, 0, 1) }));
  const logger = createLogger('silent');
  const server = async (concurrency: number) => {
    const config = loadConfig({ ...LIMITS, PASSWORD_HASH_CONCURRENCY: String(concurrency) });
    const { url } = await listen(createApp({ config, store, clock: systemClock, logger }), '127.0.0.1', 0);
    const response = await fetch(`${url}/api/auth`, { method: 'POST', body: new URLSearchParams({ tool: 'dev', login: 'bench', password: 'bench' }) });
    const { login, password } = (await response.json()) as { login: string; password: string };
    return { url, concurrency, authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };
  };
  process.stdout.write(`${JSON.stringify({ bounded: await server(1), unbounded: await server(64) })}\n`);
}

void main();
