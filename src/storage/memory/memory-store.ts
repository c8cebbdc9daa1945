import type { Account } from '../../domain/account';
import type { AddCallsResult, AssignPhoneResult, Store, TemporaryCredential } from '../store';
import type { CallRecord } from '../../domain/call-record';
import { CallRollups } from './call-rollups';
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
  const callIds = new Set<string>();
  const callsByPhone = new Map<string, CallRecord[]>();
  const rollups = new CallRollups();
  const dataVersions = new Map<string, number>();
  const windows = new Map<string, WindowCount>();
  let latestWindowStart = Number.NEGATIVE_INFINITY;

  function rebuildRollups(phone: string, timeZone: string): void {
    rollups.forget(phone);
    for (const record of callsByPhone.get(phone) ?? []) rollups.add(record, timeZone);
  }

  function dataChanged(accountId: string): void {
    dataVersions.set(accountId, (dataVersions.get(accountId) ?? 0) + 1);
  }

  function forgetEndedWindows(now: number): void {
    for (const [key, window] of windows) {
      if (window.windowEnd <= now) windows.delete(key);
    }
  }

  function saveAccount(account: Account): void {
    const previous = accounts.get(account.id);
    const generation = Math.max(account.credentialGeneration, previous?.credentialGeneration ?? 0);
    accounts.set(account.id, generation === account.credentialGeneration ? account : { ...account, credentialGeneration: generation });
    if (previous !== undefined && previous.timeZone !== account.timeZone) {
      for (const phone of phonesByAccount.get(account.id) ?? []) rebuildRollups(phone, account.timeZone);
      dataChanged(account.id);
    }
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
        saveAccount(updated);
        return Promise.resolve(updated);
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
          if (timeZone !== undefined) rebuildRollups(phone, timeZone);
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
      find: (login) => Promise.resolve(credentials.get(login)),
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
          } else if (callIds.has(record.callId)) {
            duplicates += 1;
          } else {
            callIds.add(record.callId);
            const phoneCalls = callsByPhone.get(record.phone);
            if (phoneCalls === undefined) callsByPhone.set(record.phone, [record]);
            else phoneCalls.push(record);
            rollups.add(record, account.timeZone);
            changed.add(account.id);
            inserted += 1;
          }
        });
        for (const accountId of changed) dataChanged(accountId);
        const result: AddCallsResult = { inserted, duplicates, unknownPhone };
        return Promise.resolve(result);
      },
      dailyTotals: (phones, from, to) => Promise.resolve(rollups.dailyTotals(phones, from, to)),
      distinctCallers: (phones, spans) => Promise.resolve(rollups.distinctCallers(phones, spans)),
      regionTotals: (phones, from, to) => Promise.resolve(rollups.regionTotals(phones, from, to)),
      formItemTotals: (phones, from, to, limit) => Promise.resolve(rollups.formItemTotals(phones, from, to, limit)),
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

    close: () => Promise.resolve(),
  };
}
