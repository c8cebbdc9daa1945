import type { Account } from '../../accounts/account';
import type { Store } from '../store';
import type { MemoryData } from './memory-data';

/** Accounts, each with its data version; a time-zone change rebuilds the rollups of the account's numbers. */
export function memoryAccounts(data: MemoryData): Store['accounts'] {
  const { accounts } = data;

  function saveAccount(account: Account): Account {
    const previous = accounts.get(account.id);
    const deactivated = previous?.active === true && !account.active;
    const generation = Math.max(account.credentialGeneration, previous?.credentialGeneration ?? 0) + (deactivated ? 1 : 0);
    const saved = generation === account.credentialGeneration ? account : { ...account, credentialGeneration: generation };
    accounts.set(account.id, saved);
    if (previous !== undefined && previous.timeZone !== account.timeZone) {
      data.rebuildRollups(data.phonesByAccount.get(account.id) ?? [], account.timeZone);
      data.dataChanged(account.id);
    }
    return saved;
  }

  return {
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
    revokeCredentials: (id, usedAfter) => {
      const previous = accounts.get(id);
      if (previous === undefined) return Promise.resolve(undefined);
      const revoked = [...data.credentials.values()]
        .filter(({ accountId, generation, lastUsedAt }) => accountId === id && generation === previous.credentialGeneration && lastUsedAt > usedAfter)
        .map(({ login, lastUsedAt }) => ({ login, lastUsedAt }));
      const account = { ...previous, credentialGeneration: previous.credentialGeneration + 1 };
      accounts.set(id, account);
      return Promise.resolve({ account, revoked });
    },
    list: () => Promise.resolve([...accounts.values()]),
    remove: (id) => Promise.resolve(data.removeAccount(id)),
    reportBasis: (id, phone) =>
      Promise.resolve({ dataVersion: data.dataVersion(id), ownsPhone: phone === undefined || data.phonesByAccount.get(id)?.has(phone) === true }),
  };
}
