import type { Account } from '../../accounts/account';
import type { Store, TemporaryCredential } from '../store';

/** Temporary credentials by login, each read with its account. */
export function memoryCredentials(accounts: ReadonlyMap<string, Account>): Store['credentials'] {
  const credentials = new Map<string, TemporaryCredential>();
  return {
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
  };
}
