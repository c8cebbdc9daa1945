/**
 * The servers of bench/scale.ts, in a process of their own so the load generator does not share their
 * event loop: the app with REPORT_CACHE_BYTES=0 (every request builds its report) over a store of
 * 10,000 calls and over one of BENCH_LARGE_CALLS, both on an account owning 20 numbers, the calls spread
 * evenly over 2025. Announces their URLs.
 */
import type { CallRecord } from '../src/domain/call-record';
import type { Store } from '../src/storage/store';
import { benchAccountStore, credentialsFor, TWENTY_PHONES } from './bench-account';
import { serverModules } from './compiled';
import { announce } from './processes';
import { settings } from './settings';

export interface ScaleServer {
  readonly url: string;
  readonly authorization: string;
  readonly calls: number;
}

export interface ScaleServers {
  readonly path: string;
  readonly small: ScaleServer;
  readonly large: ScaleServer;
  readonly largeLoadSeconds: number;
}

const YEAR_QUERY = '/api/events/20250101/20251231/day/ALL';

const BATCH = 10_000;
/** Local midnights (America/New_York, UTC-5 in winter) around 2025. */
const YEAR_START = Date.UTC(2025, 0, 1, 5);
const YEAR_MS = Date.UTC(2026, 0, 1, 5) - YEAR_START;

/**
 * Version-1 calls `first`..`first + count - 1` of `total`, evenly spread over the year and the 20 numbers.
 * The ids go through JSON text so that they are flat strings, as an import's are.
 */
function callBatch(first: number, count: number, total: number): CallRecord[] {
  const ids = JSON.parse(JSON.stringify(Array.from({ length: count }, (_, offset) => `bench-${String(first + offset).padStart(10, '0')}`))) as string[];
  return ids.map((callId, offset) => {
    const index = first + offset;
    return {
      callId,
      phone: TWENTY_PHONES[index % TWENTY_PHONES.length] as string,
      startedAt: YEAR_START + Math.floor(((index + 0.5) * YEAR_MS) / total),
      logEvents: 1 + (index % 7),
      loops: index % 3,
      formItems: 1 + (index % 5),
    };
  });
}

/** A store of `total` calls, added BATCH at a time so that no more than one batch is ever held outside it. */
async function storeOf(total: number): Promise<Store> {
  const store = await benchAccountStore(TWENTY_PHONES);
  for (let first = 0; first < total; first += BATCH) {
    const { inserted } = await store.calls.add(callBatch(first, Math.min(BATCH, total - first), total));
    if (inserted !== Math.min(BATCH, total - first)) throw new Error(`only ${inserted} calls of a batch were stored`);
  }
  return store;
}

async function main(): Promise<void> {
  const { composeApp, loadConfig, createLogger, listen, listenOptions } = await serverModules();
  const config = loadConfig({ DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000', REPORT_CACHE_BYTES: '0' });
  const logger = createLogger('silent');
  const serve = async (calls: number): Promise<ScaleServer> => {
    const store = await storeOf(calls);
    const { url } = await listen(composeApp(config, { store, logger }), '127.0.0.1', 0, listenOptions(config.server));
    return { url, authorization: await credentialsFor(url), calls };
  };
  const small = await serve(settings.smallCalls);
  const started = performance.now();
  const large = await serve(settings.largeCalls);
  announce({ path: YEAR_QUERY, small, large, largeLoadSeconds: (performance.now() - started) / 1000 } satisfies ScaleServers);
}

void main();
