/**
 * The accounts of bench:scaling, saved through the store (compiled, as the server runs it) on the primary:
 * `accounts` accounts of 20 numbers each. One password hash serves them all, since scrypt's ~100 ms an
 * account would take 10,000 accounts 17 minutes of a core and measure nothing this bench is about.
 */
import type * as AccountModule from '../src/accounts/account';
import type * as PasswordHash from '../src/accounts/password-hash';
import type * as LoggerModule from '../src/logger';
import type * as PostgresStoreModule from '../src/storage/postgres/postgres-store';
import { compiled } from './compiled';
import { ACCOUNT_PASSWORD, ACCOUNT_TIME_ZONE, ACCOUNT_TOOL, accountLogin, PHONES_PER_ACCOUNT, phoneOf } from './scaling-records';

/** Accounts saved at once, each on a connection of the store's pool. */
const CONCURRENT_ACCOUNTS = 8;

export async function createAccounts(databaseUrl: string, accounts: number): Promise<void> {
  const { openPostgresStore } = await compiled<typeof PostgresStoreModule>('storage/postgres/postgres-store');
  const { createLogger } = await compiled<typeof LoggerModule>('logger');
  const { hashPassword } = await compiled<typeof PasswordHash>('accounts/password-hash');
  const { accountId } = await compiled<typeof AccountModule>('accounts/account');
  const store = await openPostgresStore(databaseUrl, createLogger('silent'), 60);
  try {
    const passwordHash = await hashPassword(ACCOUNT_PASSWORD);
    let next = 0;
    const worker = async () => {
      for (let account = next++; account < accounts; account = next++) {
        const id = accountId(ACCOUNT_TOOL, accountLogin(account));
        await store.accounts.save({ id, tool: ACCOUNT_TOOL, login: accountLogin(account), passwordHash, active: true, timeZone: ACCOUNT_TIME_ZONE, credentialGeneration: 0 });
        for (let number = 0; number < PHONES_PER_ACCOUNT; number += 1) await store.phones.assign(phoneOf(account, number), id);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENT_ACCOUNTS }, worker));
  } finally {
    await store.close();
  }
}
