/**
 * The servers under measurement, in a process of their own so the load generator does not share their
 * event loop: a plain Express route returning the exact bytes of the event query (the baseline), the
 * real app over a small and a large call history (answering from kept reports after the first request),
 * and the app over the large history with REPORT_CACHE_BYTES=0, which builds every report anew. Prints
 * one JSON line with their URLs.
 */
import express from 'express';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { createLogger } from '../src/logger';
import { listen } from '../src/server';
import { systemClock } from '../src/time/clock';
import { credentialsFor, storeWithCalls } from './bench-account';

const config = loadConfig({ DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000' });
const uncachedConfig = loadConfig({ DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000', REPORT_CACHE_BYTES: '0' });
const logger = createLogger('silent');

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
