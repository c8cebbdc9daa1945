/**
 * The servers under measurement, in a process of their own so the load generator does not share their
 * event loop: a plain Express route returning the exact bytes of the event query (the baseline), the
 * real app over a small and a large call history (answering from kept reports after the first request),
 * and the app over the large history with REPORT_CACHE_BYTES=0, which builds every report anew. Prints
 * one JSON line with their URLs.
 */
import express from 'express';
import { createApp } from '../src/app';
import { hashPassword } from '../src/accounts/password-hash';
import { loadConfig } from '../src/config/config';
import { createLogger } from '../src/logger';
import { listen } from '../src/server';
import { generateDemoCallRecords } from '../src/startup-data/demo/calls';
import { createMemoryStore } from '../src/storage/memory/memory-store';
import { addCallsInBatches } from '../src/startup-data/seed-file';
import { accountId } from '../src/domain/account';
import type { Store } from '../src/storage/store';
import { systemClock } from '../src/time/clock';

const PHONES = ['18005550100', '18005550101', '18005550102'];
const TIME_ZONE = 'America/New_York';
const config = loadConfig({ DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000' });
const uncachedConfig = loadConfig({ DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000', REPORT_CACHE_BYTES: '0' });
const logger = createLogger('silent');

async function storeWithCalls(days: number, callsPerDay: number): Promise<{ store: Store; calls: number }> {
  const store = createMemoryStore();
  const id = accountId('dev', 'bench');
  await store.accounts.save({ id, tool: 'dev', login: 'bench', passwordHash: await hashPassword('bench'), active: true, timeZone: TIME_ZONE, credentialGeneration: 0 });
  for (const phone of PHONES) await store.phones.assign(phone, id);
  const records = generateDemoCallRecords({ phones: PHONES, days, callsPerDay, seed: 7, timeZone: TIME_ZONE, now: Date.UTC(2026, 0, 1) });
  const { inserted } = await addCallsInBatches(store, records);
  return { store, calls: inserted };
}

async function credentialsFor(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth`, { method: 'POST', body: new URLSearchParams({ tool: 'dev', login: 'bench', password: 'bench' }) });
  const { login, password } = (await response.json()) as { login: string; password: string };
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

async function main(): Promise<void> {
  const path = '/api/events/20250101/20251231/day/ALL';
  const small = await storeWithCalls(30, 100);
  const large = await storeWithCalls(3650, 100);
  global.gc?.();
  const heapMiB = Math.round(process.memoryUsage().heapUsed / 1048576);
  const smallServer = await listen(createApp({ config, store: small.store, clock: systemClock, logger }), '127.0.0.1', 0);
  const largeServer = await listen(createApp({ config, store: large.store, clock: systemClock, logger }), '127.0.0.1', 0);
  const uncachedServer = await listen(createApp({ config: uncachedConfig, store: large.store, clock: systemClock, logger }), '127.0.0.1', 0);
  const largeAuth = await credentialsFor(largeServer.url);
  const body = await (await fetch(largeServer.url + path, { headers: { authorization: largeAuth } })).text();
  const baseline = express();
  baseline.get('/baseline', (_req, res) => {
    res.type('application/json; charset=utf-8').send(body);
  });
  const baselineServer = await listen(baseline, '127.0.0.1', 0);
  process.stdout.write(
    `${JSON.stringify({
      path,
      bodyBytes: Buffer.byteLength(body),
      heapMiB,
      baseline: { url: `${baselineServer.url}/baseline` },
      small: { url: smallServer.url + path, calls: small.calls, authorization: await credentialsFor(smallServer.url) },
      large: { url: largeServer.url + path, calls: large.calls, authorization: largeAuth },
      uncached: { url: uncachedServer.url + path, calls: large.calls, authorization: await credentialsFor(uncachedServer.url) },
    })}\n`,
  );
}

void main();
