import request from 'supertest';
import { composeApp } from '../../composition-root';
import { loadConfig } from '../../configuration';
import { createLogger } from '../../logger';
import { finishedReport, reportCache, type ReportCache } from './report-cache';
import type { RunningServer } from '../../listen';
import type { CallReads, CallRepository, Store } from '../../storage/store';
import { FakeClock } from '../../../test/support/fake-clock';
import { serve } from '../../../test/support/http';
import { addAccount } from '../../../test/support/test-app';
import { createTestStore } from '../../../test/support/test-store';
import { addCalls, authenticate, call, type Credentials } from '../../../test/support/reporting';

const PHONE = '18005550100';
const EVENTS = '/api/events/20180201/20180208/day/ALL';

/**
 * The store, with a count of the reads that building a series report makes (every method passed on by
 * name), wherever they are answered: its calls, or its replicas under the PostgreSQL project.
 */
function countingReads(store: Store): { store: Store; builds: () => number } {
  let reads = 0;
  const counted = (source: CallReads): CallReads => ({
    dailyTotals: (phones, from, to) => {
      reads += 1;
      return source.dailyTotals(phones, from, to);
    },
    distinctCallers: (phones, spans) => source.distinctCallers(phones, spans),
    regionTotals: (phones, from, to) => source.regionTotals(phones, from, to),
    formItemTotals: (phones, from, to, limit) => source.formItemTotals(phones, from, to, limit),
  });
  const calls: CallRepository = {
    add: (records) => store.calls.add(records),
    prepareMonths: (fromMs, toMs) => store.calls.prepareMonths(fromMs, toMs),
    dropRawCallsBefore: (cutoffMs, dryRun) => store.calls.dropRawCallsBefore(cutoffMs, dryRun),
    capRetentionHorizon: (latestMs) => store.calls.capRetentionHorizon(latestMs),
    ...counted(store.calls),
  };
  const { replicas } = store;
  return {
    store: {
      ...store,
      calls,
      ...(replicas === undefined ? {} : { replicas: { ...replicas, readingAfter: (seen) => counted(replicas.readingAfter(seen)) } }),
      close: () => store.close(),
    },
    builds: () => reads,
  };
}

let server: RunningServer;
let store: Store;
let builds: () => number;
let credentials: Credentials;

async function setUp(env: NodeJS.ProcessEnv = {}): Promise<void> {
  const counted = countingReads(createTestStore());
  ({ store, builds } = counted);
  server = await serve(composeApp(loadConfig(env), { store, clock: new FakeClock(), logger: createLogger('silent') }));
  await addAccount(store, { timeZone: 'America/New_York', phones: [PHONE, '18005550101'] });
  await addCalls(store, [call(PHONE, '2018-02-07T10:15:00-05:00', { log_events: 7 })]);
  credentials = await authenticate(server.url);
}

const get = (path: string) => request(server.url).get(path).auth(credentials.login, credentials.password);

describe('finished reports kept across requests', () => {
  beforeEach(() => setUp());
  afterEach(() => server.close());

  test('builds a report once and sends the kept bytes and entity tag to the same request again', async () => {
    const first = await get(EVENTS);
    const second = await get(EVENTS);
    expect(builds()).toBe(1);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers.vary).toBe('Accept');
  });

  test('answers 304 without a body when If-None-Match names the report, and 200 when it names another', async () => {
    const { etag } = (await get(EVENTS)).headers;
    const unchanged = await get(EVENTS).set('If-None-Match', etag as string);
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect(unchanged.headers.etag).toBe(etag);
    const other = await get(EVENTS).set('If-None-Match', '"another"');
    expect(other.status).toBe(200);
  });

  test('answers 304 to If-None-Match with Cache-Control: no-cache, as fetch sends it, to a list, a weak tag and *', async () => {
    const { etag } = (await get(EVENTS)).headers as { etag: string };
    for (const ifNoneMatch of [etag, `"another", ${etag}`, `W/${etag}`, '*']) {
      const unchanged = await get(EVENTS).set({ 'If-None-Match': ifNoneMatch, 'Cache-Control': 'no-cache' });
      expect([ifNoneMatch, unchanged.status, unchanged.text, unchanged.headers.etag]).toEqual([ifNoneMatch, 304, '', etag]);
      expect(unchanged.headers['content-type']).toBeUndefined();
      expect(unchanged.headers.vary).toBe('Accept');
      expect(unchanged.headers['x-ratelimit-limit']).toBe('150');
    }
    const fetched = await fetch(`${server.url}${EVENTS}`, { headers: { Authorization: `Basic ${Buffer.from(`${credentials.login}:${credentials.password}`).toString('base64')}`, 'If-None-Match': etag } });
    expect(fetched.status).toBe(304);
  });

  test('builds the report again once calls are added to the account, with another entity tag', async () => {
    const before = await get(EVENTS);
    await addCalls(store, [call('18005550101', '2018-02-06T10:15:00-05:00')]);
    const after = await get(EVENTS);
    expect(builds()).toBe(2);
    expect((after.body as { calls: Record<string, number> }).calls['1517893200']).toBe(1);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await get(EVENTS).set('If-None-Match', before.headers.etag as string)).status).toBe(200);
  });

  test('builds the report again after a time-zone change and after a number leaves the account', async () => {
    await get(EVENTS);
    await store.accounts.update('dev:alice', { timeZone: 'Asia/Tokyo' });
    await get(EVENTS);
    await store.phones.release('18005550101', 'dev:alice');
    await get(EVENTS);
    expect(builds()).toBe(3);
  });

  test('keeps the JSON and the XML of a report apart', async () => {
    const json = await get(EVENTS);
    const xml = await get(EVENTS).set('Accept', 'application/xml');
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.text).toMatch(/^<\?xml /);
    expect(xml.headers.etag).not.toBe(json.headers.etag);
    expect((await get(EVENTS)).text).toBe(json.text);
    expect(builds()).toBe(2);
  });

  test('still refuses a number the account no longer owns, and still counts each answer in the limit group', async () => {
    const path = `/api/events/20180201/20180208/day/${PHONE}`;
    const first = await get(path);
    const second = await get(path);
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
    await store.phones.release(PHONE, 'dev:alice');
    const refused = await get(path);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: `phone ${PHONE} is not on this account` });
  });
});

describe('with REPORT_CACHE_BYTES=0', () => {
  beforeEach(() => setUp({ REPORT_CACHE_BYTES: '0' }));
  afterEach(() => server.close());

  test('builds every report anew, and still tags it and answers 304 to a matching If-None-Match', async () => {
    const { etag } = (await get(EVENTS)).headers;
    const again = await get(EVENTS).set('If-None-Match', etag as string);
    expect(again.status).toBe(304);
    expect(builds()).toBe(2);
  });
});

/** The cache of `maxBytes`, which exists for any size above 0. */
function cacheOf(maxBytes: number): ReportCache {
  const cache = reportCache(maxBytes);
  if (cache === undefined) throw new Error(`no cache of ${maxBytes} bytes`);
  return cache;
}

describe('reportCache', () => {
  test('is no cache at all for 0 bytes', () => {
    expect(reportCache(0)).toBeUndefined();
  });

  test('drops the least recently used reports once they take more than the memory given', () => {
    const report = (size: number) => finishedReport('x'.repeat(size), 'application/json; charset=utf-8');
    const cache = cacheOf(3 * (1_000 + 1 + 256));
    cache.set('a', report(1_000));
    cache.set('b', report(1_000));
    cache.set('c', report(1_000));
    expect(cache.get('a')).toBeDefined();
    cache.set('d', report(1_000));
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key) !== undefined)).toEqual([true, true, true]);
  });

  test('keeps nothing larger than the whole memory given', () => {
    const cache = cacheOf(1_000);
    cache.set('big', finishedReport('x'.repeat(2_000), 'application/json; charset=utf-8'));
    expect(cache.get('big')).toBeUndefined();
  });
});
