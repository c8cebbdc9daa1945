/**
 * The accounts of bench:scaling on the primary: `accounts` accounts of 20 numbers each. The accounts are
 * saved through the store (compiled, as the server runs it), all with one password hash, since scrypt's
 * ~100 ms an account would take 10,000 accounts 17 minutes of a core and measure nothing this bench is
 * about. The numbers go in as rows of phones, all in one statement: for a number without calls that is
 * what phones.assign writes (it also rebuilds the number's rollups, empty here), and assigning 200,000
 * numbers one transaction each took 11 accounts a second on the shared machine, 15 minutes for 10,000.
 */
import type * as AccountModule from '../src/accounts/account';
import type * as PasswordHash from '../src/accounts/password-hash';
import type * as LoggerModule from '../src/logger';
import type * as PostgresStoreModule from '../src/storage/postgres/postgres-store';
import { compiled } from './compiled';
import type { ScalingCluster } from './scaling-cluster';
import { ACCOUNT_PASSWORD, ACCOUNT_TIME_ZONE, ACCOUNT_TOOL, accountLogin, PHONES_PER_ACCOUNT, phoneOf } from './scaling-records';

/** Accounts saved at once, each on a connection of the store's pool (10). */
const CONCURRENT_ACCOUNTS = 10;
/** Numbers a statement inserts. */
const PHONES_A_STATEMENT = 20_000;

export async function createAccounts(cluster: ScalingCluster, accounts: number): Promise<void> {
  const { openPostgresStore } = await compiled<typeof PostgresStoreModule>('storage/postgres/postgres-store');
  const { createLogger } = await compiled<typeof LoggerModule>('logger');
  const { hashPassword } = await compiled<typeof PasswordHash>('accounts/password-hash');
  const { accountId } = await compiled<typeof AccountModule>('accounts/account');
  const store = await openPostgresStore(cluster.primaryUrl, createLogger('silent'), 60);
  try {
    const passwordHash = await hashPassword(ACCOUNT_PASSWORD);
    let next = 0;
    const worker = async () => {
      for (let account = next++; account < accounts; account = next++) {
        const id = accountId(ACCOUNT_TOOL, accountLogin(account));
        await store.accounts.save({ id, tool: ACCOUNT_TOOL, login: accountLogin(account), passwordHash, active: true, timeZone: ACCOUNT_TIME_ZONE, credentialGeneration: 0 });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENT_ACCOUNTS }, worker));
  } finally {
    await store.close();
  }
  const owners = Array.from({ length: accounts * PHONES_PER_ACCOUNT }, (_, index) => Math.floor(index / PHONES_PER_ACCOUNT));
  await cluster.query('primary', async (client) => {
    for (let first = 0; first < owners.length; first += PHONES_A_STATEMENT) {
      const slice = owners.slice(first, first + PHONES_A_STATEMENT);
      await client.query('INSERT INTO phones (phone, account_id) SELECT * FROM unnest($1::text[], $2::text[])', [
        slice.map((account, offset) => phoneOf(account, (first + offset) % PHONES_PER_ACCOUNT)),
        slice.map((account) => accountId(ACCOUNT_TOOL, accountLogin(account))),
      ]);
    }
  });
}
