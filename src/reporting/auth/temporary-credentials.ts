import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Account } from '../../accounts/account';
import { compareText } from '../../domain/text-order';
import type { Store } from '../../storage/store';
import type { Clock } from '../../time/clock';

export interface IssuedCredentials {
  readonly login: string;
  readonly password: string;
}

/** A credential that worked until a revocation ended it. */
export interface EndedCredential {
  readonly login: string;
  /** Milliseconds since the epoch at which it would have expired unused. */
  readonly expiresAt: number;
}

export interface Revoked {
  /** The account after the revocation. */
  readonly account: Account;
  /** Soonest to expire first, then by login. */
  readonly ended: readonly EndedCredential[];
}

export interface TemporaryCredentials {
  /** Undefined when the account was deleted since it was read: nothing is issued. */
  issue(account: Account): Promise<IssuedCredentials | undefined>;
  /**
   * The active account the pair belongs to, or undefined when unknown, expired, wrong, revoked (issued
   * before the account's last password change or revocation) or inactive.
   */
  verify(login: string, password: string): Promise<Account | undefined>;
  /**
   * Ends every credential of the account issued so far, in one store step (AccountRepository.revokeCredentials),
   * and returns those that worked until then; undefined when there is no such account.
   */
  revokeAll(accountId: string): Promise<Revoked | undefined>;
}

interface Options {
  readonly store: Store;
  readonly clock: Clock;
  readonly ttlSeconds: number;
}

const SWEEP_INTERVAL_MS = 600_000;

/**
 * A use is recorded at most once a minute, or once a sixtieth of the time to live when that is shorter: a
 * client polling reports would otherwise write to the store on every read. The sliding expiry then
 * counts from a use at most that old, so it ends at most a sixtieth of the time to live early, whatever
 * the time to live (a fixed minute would make one under a minute never slide).
 */
const MOST_TOUCH_INTERVAL_MS = 60_000;
const TOUCHES_PER_TTL = 60;

/** One-shot hashing: no Hash object per request, which `createHash` would make for 32 bytes. */
function digest(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/**
 * Digests of the passwords that verified lately, by password: a client polling reports presents the same
 * pair on every request, and hashing it again each time was a visible part of a kept report's CPU; this,
 * with basic-auth's parse kept beside it (require-credentials.ts), is the first cut of a request's fixed
 * cost (docs/performance-costs.md, "The fixed cost of a request on Node 24"). Only a digest that matched a
 * stored one is kept, so guesses cannot fill it; every other check (expiry, revocation, the account) is
 * still made against the store on every request.
 */
const VERIFIED_DIGESTS_KEPT = 4096;

/** 128 random bits as 32 lowercase hex digits. */
function randomHex(): string {
  return randomBytes(16).toString('hex');
}

/** The only shape an issued login or password has: anything else is refused before the store sees it. */
export const ISSUED_SHAPE = /^[0-9a-f]{32}$/;

/**
 * Temporary credentials expire after `ttlSeconds` without use (sliding expiry, to the minute at most). Only a digest of the
 * password is stored: it is a random 128-bit secret, so a fast hash is enough to make a leaked store
 * useless, and the digests are compared in constant time.
 */
export function temporaryCredentials({ store, clock, ttlSeconds }: Options): TemporaryCredentials {
  const ttlMs = ttlSeconds * 1000;
  const touchIntervalMs = Math.min(MOST_TOUCH_INTERVAL_MS, Math.floor(ttlMs / TOUCHES_PER_TTL));
  let lastSweep = clock.now();
  const verifiedDigests = new LRUCache<string, Buffer>({ max: VERIFIED_DIGESTS_KEPT });

  async function sweepIdle(now: number): Promise<void> {
    if (now - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = now;
    await store.credentials.removeIdleSince(now - ttlMs);
  }

  return {
    async issue(account) {
      const now = clock.now();
      await sweepIdle(now);
      const issued = { login: randomHex(), password: randomHex() };
      const saved = await store.credentials.save({
        login: issued.login,
        passwordDigest: digest(issued.password).toString('hex'),
        accountId: account.id,
        generation: account.credentialGeneration,
        lastUsedAt: now,
      });
      return saved ? issued : undefined;
    },

    async verify(login, password) {
      if (!ISSUED_SHAPE.test(login) || !ISSUED_SHAPE.test(password)) return undefined;
      const found = await store.credentials.findWithAccount(login);
      if (found === undefined) return undefined;
      const { credential, account } = found;
      const now = clock.now();
      if (now - credential.lastUsedAt >= ttlMs) return undefined;
      const presentedDigest = verifiedDigests.get(password) ?? digest(password);
      if (!timingSafeEqual(presentedDigest, Buffer.from(credential.passwordDigest, 'hex'))) return undefined;
      verifiedDigests.set(password, presentedDigest);
      if (account === undefined || !account.active || account.credentialGeneration !== credential.generation) return undefined;
      if (now - credential.lastUsedAt >= touchIntervalMs) await store.credentials.touch(login, now);
      return account;
    },

    async revokeAll(accountId) {
      // Those last used at now - ttlMs or before are expired already, as verify reads them.
      const revocation = await store.accounts.revokeCredentials(accountId, clock.now() - ttlMs);
      if (revocation === undefined) return undefined;
      const ended = revocation.revoked
        .map(({ login, lastUsedAt }) => ({ login, expiresAt: lastUsedAt + ttlMs }))
        .sort((a, b) => a.expiresAt - b.expiresAt || compareText(a.login, b.login));
      return { account: revocation.account, ended };
    },
  };
}
