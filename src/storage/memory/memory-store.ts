import type { Account } from '../../accounts/account';
import { isAccountPhones, type AddCallsResult, type AssignPhoneResult, type PhoneScope, type Store, type TemporaryCredential } from '../store';
import { CallIdSet } from './call-id-set';
import { CallerTable } from './caller-table';
import { CallHistory, emptyStoredCall, NO_CALLER } from './call-history';
import { CallRollups } from './call-rollups';
import { FormItemTable } from './form-item-table';
import { createMemorySurveySessions } from './survey-sessions';

interface WindowCount {
  windowStart: number;
  windowEnd: number;
  count: number;
}

/**
 * The embedded store: everything in process memory, lost on restart. Every method resolves on the
 * same tick, so each one is atomic with respect to the others.
 */
export function createMemoryStore(): Store {
  const accounts = new Map<string, Account>();
  const phoneOwner = new Map<string, string>();
  const phonesByAccount = new Map<string, Set<string>>();
  const credentials = new Map<string, TemporaryCredential>();
  const phoneIndexes = new Map<string, number>();
  const callIds = new CallIdSet();
  const callers = new CallerTable();
  const formItems = new FormItemTable();
  const history = new CallHistory();
  const rollups = new CallRollups(callers, formItems, history);
  const storedCall = emptyStoredCall();
  const dataVersions = new Map<string, number>();
  const windows = new Map<string, WindowCount>();
  let latestWindowStart = Number.NEGATIVE_INFINITY;

  function phoneIndexOf(phone: string): number {
    let index = phoneIndexes.get(phone);
    if (index === undefined) {
      index = phoneIndexes.size;
      phoneIndexes.set(phone, index);
    }
    return index;
  }

  /** The indexes of those phones that have calls. */
  function knownPhoneIndexes(phones: Iterable<string>): number[] {
    const indexes: number[] = [];
    for (const phone of phones) {
      const index = phoneIndexes.get(phone);
      if (index !== undefined) indexes.push(index);
    }
    return indexes;
  }

  /** The indexes of the numbers in scope that have calls. */
  function scopeIndexes(scope: PhoneScope): number[] {
    return knownPhoneIndexes(isAccountPhones(scope) ? (phonesByAccount.get(scope.ownedBy) ?? []) : scope);
  }

  /** One pass over the call history, however many of the phones it rebuilds. */
  function rebuildRollups(phones: Iterable<string>, timeZone: string): void {
    const indexes = new Set(knownPhoneIndexes([...phones]));
    if (indexes.size === 0) return;
    for (const index of indexes) rollups.forget(index);
    history.forEachCallOf(indexes, (call) => rollups.add(call, timeZone));
  }

  function dataChanged(accountId: string): void {
    dataVersions.set(accountId, (dataVersions.get(accountId) ?? 0) + 1);
  }

  function forgetEndedWindows(now: number): void {
    for (const [key, window] of windows) {
      if (window.windowEnd <= now) windows.delete(key);
    }
  }

  function saveAccount(account: Account): Account {
    const previous = accounts.get(account.id);
    const deactivated = previous?.active === true && !account.active;
    const generation = Math.max(account.credentialGeneration, previous?.credentialGeneration ?? 0) + (deactivated ? 1 : 0);
    const saved = generation === account.credentialGeneration ? account : { ...account, credentialGeneration: generation };
    accounts.set(account.id, saved);
    if (previous !== undefined && previous.timeZone !== account.timeZone) {
      rebuildRollups(phonesByAccount.get(account.id) ?? [], account.timeZone);
      dataChanged(account.id);
    }
    return saved;
  }

  return {
    accounts: {
      find: (id) => Promise.resolve(accounts.get(id)),
      save: (account) => {
        saveAccount(account);
        return Promise.resolve();
      },
      create: (account) => {
        const created = !accounts.has(account.id);
        if (created) accounts.set(account.id, account);
        return Promise.resolve(created);
      },
      update: (id, change) => {
        const previous = accounts.get(id);
        if (previous === undefined) return Promise.resolve(undefined);
        const updated: Account = {
          ...previous,
          passwordHash: change.passwordHash ?? previous.passwordHash,
          active: change.active ?? previous.active,
          timeZone: change.timeZone ?? previous.timeZone,
          credentialGeneration: previous.credentialGeneration + (change.revokeCredentials === true ? 1 : 0),
        };
        return Promise.resolve(saveAccount(updated));
      },
      list: () => Promise.resolve([...accounts.values()]),
      dataVersion: (id) => Promise.resolve(dataVersions.get(id) ?? 0),
    },

    phones: {
      assign: (phone, accountId) => {
        const owner = phoneOwner.get(phone);
        let result: AssignPhoneResult = 'assigned';
        if (owner === accountId) result = 'already-owned';
        else if (owner !== undefined) result = 'owned-by-another';
        else {
          phoneOwner.set(phone, accountId);
          const owned = phonesByAccount.get(accountId) ?? new Set();
          phonesByAccount.set(accountId, owned.add(phone));
          const timeZone = accounts.get(accountId)?.timeZone;
          if (timeZone !== undefined) rebuildRollups([phone], timeZone);
          dataChanged(accountId);
        }
        return Promise.resolve(result);
      },
      release: (phone, accountId) => {
        const owned = phoneOwner.get(phone) === accountId;
        if (owned) {
          phoneOwner.delete(phone);
          phonesByAccount.get(accountId)?.delete(phone);
          dataChanged(accountId);
        }
        return Promise.resolve(owned);
      },
      ownedBy: (accountId) => Promise.resolve([...(phonesByAccount.get(accountId) ?? [])].sort()),
    },

    credentials: {
      save: (credential) => {
        credentials.set(credential.login, credential);
        return Promise.resolve();
      },
      findWithAccount: (login) => {
        const credential = credentials.get(login);
        return Promise.resolve(credential === undefined ? undefined : { credential, account: accounts.get(credential.accountId) });
      },
      touch: (login, usedAt) => {
        const credential = credentials.get(login);
        if (credential !== undefined) credentials.set(login, { ...credential, lastUsedAt: usedAt });
        return Promise.resolve();
      },
      removeIdleSince: (cutoff) => {
        let removed = 0;
        for (const [login, credential] of credentials) {
          if (credential.lastUsedAt < cutoff) {
            credentials.delete(login);
            removed += 1;
          }
        }
        return Promise.resolve(removed);
      },
    },

    calls: {
      add: (records) => {
        let inserted = 0;
        let duplicates = 0;
        const unknownPhone: number[] = [];
        const changed = new Set<string>();
        records.forEach((record, position) => {
          const owner = phoneOwner.get(record.phone);
          const account = owner === undefined ? undefined : accounts.get(owner);
          if (account === undefined) {
            unknownPhone.push(position);
          } else if (!callIds.add(record.callId)) {
            duplicates += 1;
          } else {
            const caller = record.caller === undefined ? NO_CALLER : callers.intern(record.caller);
            history.append(record, phoneIndexOf(record.phone), caller, formItems, storedCall);
            rollups.add(storedCall, account.timeZone);
            changed.add(account.id);
            inserted += 1;
          }
        });
        for (const accountId of changed) dataChanged(accountId);
        const result: AddCallsResult = { inserted, duplicates, unknownPhone };
        return Promise.resolve(result);
      },
      dailyTotals: (scope, from, to) => Promise.resolve(rollups.dailyTotals(scopeIndexes(scope), from, to)),
      distinctCallers: (scope, spans) => Promise.resolve(rollups.distinctCallers(scopeIndexes(scope), spans)),
      regionTotals: (scope, from, to) => Promise.resolve(rollups.regionTotals(scopeIndexes(scope), from, to)),
      formItemTotals: (scope, from, to, limit) => Promise.resolve(rollups.formItemTotals(scopeIndexes(scope), from, to, limit)),
    },

    rateLimits: {
      hit: (key, windowStart, windowMs) => {
        if (windowStart > latestWindowStart) {
          latestWindowStart = windowStart;
          forgetEndedWindows(windowStart);
        }
        const current = windows.get(key);
        if (current === undefined || current.windowStart !== windowStart) {
          windows.set(key, { windowStart, windowEnd: windowStart + windowMs, count: 1 });
          return Promise.resolve(1);
        }
        current.count += 1;
        return Promise.resolve(current.count);
      },
      decrement: (key, windowStart) => {
        const current = windows.get(key);
        if (current !== undefined && current.windowStart === windowStart && current.count > 0) {
          current.count -= 1;
        }
        return Promise.resolve();
      },
      reset: (key) => {
        windows.delete(key);
        return Promise.resolve();
      },
    },

    surveySessions: createMemorySurveySessions(),

    // In this process: ready whenever the process serves.
    dependencies: [{ name: 'store', check: () => Promise.resolve() }],

    close: () => Promise.resolve(),
  };
}
