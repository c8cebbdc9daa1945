import type { Store } from '../store';
import type { MemoryData } from './memory-data';

/** Temporary credentials by login, each read with its account. */
export function memoryCredentials({ accounts, credentials }: MemoryData): Store['credentials'] {
  return {
    save: (credential) => {
      const saved = accounts.has(credential.accountId);
      if (saved) credentials.set(credential.login, credential);
      return Promise.resolve(saved);
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
  };
}
