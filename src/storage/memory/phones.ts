import type { AssignPhoneResult, Store } from '../store';
import type { MemoryData } from './memory-data';

/** Numbers and their owners; an assignment rebuilds the number's rollups in its new owner's zone. */
export function memoryPhones(data: MemoryData): Store['phones'] {
  const { phoneOwner, phonesByAccount } = data;
  return {
    assign: (phone, accountId) => {
      const owner = phoneOwner.get(phone);
      const account = data.accounts.get(accountId);
      let result: AssignPhoneResult = 'assigned';
      if (account === undefined) result = 'no-account';
      else if (owner === accountId) result = 'already-owned';
      else if (owner !== undefined) result = 'owned-by-another';
      else {
        phoneOwner.set(phone, accountId);
        const owned = phonesByAccount.get(accountId) ?? new Set();
        phonesByAccount.set(accountId, owned.add(phone));
        data.rebuildRollups([phone], account.timeZone);
        data.dataChanged(accountId);
      }
      return Promise.resolve(result);
    },
    release: (phone, accountId) => {
      const owned = phoneOwner.get(phone) === accountId;
      if (owned) {
        phoneOwner.delete(phone);
        phonesByAccount.get(accountId)?.delete(phone);
        data.dataChanged(accountId);
      }
      return Promise.resolve(owned);
    },
    ownedBy: (accountId) => Promise.resolve([...(phonesByAccount.get(accountId) ?? [])].sort()),
  };
}
