import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** A finished report: the bytes sent, their content type and their entity tag. */
export interface FinishedReport {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
}

export interface ReportCache {
  get(key: string): FinishedReport | undefined;
  set(key: string, report: FinishedReport): void;
}

/** Per entry besides its body: the key, the headers' strings and the cache's own bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 256;

export function finishedReport(content: string | Buffer, contentType: string): FinishedReport {
  const body = typeof content === 'string' ? Buffer.from(content) : content;
  return { body, contentType, etag: `"${hash('sha1', body, 'base64url')}"` };
}

/**
 * Finished reports, least recently used dropped first once they take `maxBytes`. Keys carry the account's
 * data version, so a report is never answered after the account's data changed: a new version misses, and
 * the stale entries age out. With `maxBytes` 0 there is no cache, so nothing asks for data versions.
 */
export function reportCache(maxBytes: number): ReportCache | undefined {
  if (maxBytes === 0) return undefined;
  const cache = new LRUCache<string, FinishedReport>({
    maxSize: maxBytes,
    sizeCalculation: (report, key) => report.body.length + key.length + ENTRY_OVERHEAD_BYTES,
  });
  return {
    get: (key) => cache.get(key),
    set: (key, report) => {
      cache.set(key, report);
    },
  };
}
