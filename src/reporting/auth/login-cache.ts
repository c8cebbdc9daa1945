import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Account } from '../../accounts/account';
import type { Clock } from '../../time/clock';

/**
 * Successful password checks, remembered so that a client logging in again and again with the right
 * password costs a keyed digest, not a scrypt hash (Elasticsearch's realm cache: `cache.ttl`,
 * `cache.max_users`, `cache.hash_algo`). Only a success is remembered, and a lookup that fails neither
 * removes nor renews an entry, so a guess always costs its scrypt hash and cannot displace the right
 * password's entry. The time to live counts from the scrypt check, not from the last use.
 */
export interface LoginCache {
  /** Whether this password succeeded, within the time to live, against the account as it is stored now. */
  holds(account: Account, password: string): boolean;
  /** Called after scrypt accepted the password of an active account. */
  remember(account: Account, password: string): void;
}

export interface LoginCacheOptions {
  /** AUTH_CACHE_SECONDS: 0 remembers nothing. */
  readonly ttlSeconds: number;
  /** AUTH_CACHE_MAX_ENTRIES: one entry per account, the least recently used dropped first. */
  readonly maxEntries: number;
  /** The clock every expiry reads (the sandbox's, when it is movable). */
  readonly clock: Clock;
}

/**
 * One entry per account: an HMAC-SHA-256, under a key drawn at start and never stored, of the password
 * with the stored hash and credential generation it succeeded against. The password is never kept, and
 * the digest is worthless elsewhere or after a restart. A new password, an account deleted and created
 * again or a revocation changes the stored hash or the generation, so the digest no longer matches: each
 * instance reads the account from the store on every login, so it sees a change made through another.
 * Undefined when `ttlSeconds` is 0.
 */
export function loginCache({ ttlSeconds, maxEntries, clock }: LoginCacheOptions): LoginCache | undefined {
  if (ttlSeconds === 0) return undefined;
  const key = randomBytes(32);
  const digest = (account: Account, password: string) =>
    createHmac('sha256', key).update(JSON.stringify([account.passwordHash, account.credentialGeneration, password])).digest();
  const entries = new LRUCache<string, Buffer>({
    max: maxEntries,
    ttl: ttlSeconds * 1000,
    perf: clock,
    // lru-cache otherwise reuses a reading of the clock for a millisecond of real time, which a moved clock would not see.
    ttlResolution: 0,
  });
  return {
    holds: (account, password) => {
      const kept = entries.get(account.id);
      return kept !== undefined && timingSafeEqual(kept, digest(account, password));
    },
    remember: (account, password) => {
      entries.set(account.id, digest(account, password));
    },
  };
}
