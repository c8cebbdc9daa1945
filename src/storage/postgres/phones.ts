import type { Pool } from 'pg';
import type { PhoneRepository } from '../store';
import { moveIntoAccountDays, rebuildRollups } from './rollups';
import { inTransaction } from './transaction';
import { raiseDataVersions } from './data-versions';
import { readsOn, type RowReads } from './row-reads';

export function postgresPhones(pool: Pool): PhoneRepository {
  return {
    /**
     * The account is held first (FOR SHARE): a time-zone change waits, so the number is rolled up in the
     * zone the account keeps, and a deletion of the account waits for this to commit, or went first and
     * leaves no account to assign to.
     */
    assign: (phone, accountId) =>
      inTransaction(pool, async (client) => {
        const account = await client.query<{ time_zone: string }>('SELECT time_zone FROM accounts WHERE id = $1 FOR SHARE', [accountId]);
        const timeZone = account.rows[0]?.time_zone;
        if (timeZone === undefined) return 'no-account';
        const inserted = await client.query('INSERT INTO phones (phone, account_id) VALUES ($1, $2) ON CONFLICT (phone) DO NOTHING', [
          phone,
          accountId,
        ]);
        if (inserted.rowCount === 0) {
          const owner = await client.query<{ account_id: string }>('SELECT account_id FROM phones WHERE phone = $1', [phone]);
          return owner.rows[0]?.account_id === accountId ? 'already-owned' : 'owned-by-another';
        }
        await rebuildRollups(client, [phone], timeZone);
        await moveIntoAccountDays(client, phone, accountId, 1);
        await raiseDataVersions(client, [accountId]);
        return 'assigned';
      }),
    release: (phone, accountId) =>
      inTransaction(pool, async (client) => {
        // Held first, as an assignment holds it: a time-zone change of the account waits, so the days
        // taken away are those that its rows summed.
        await client.query('SELECT 1 FROM accounts WHERE id = $1 FOR SHARE', [accountId]);
        const deleted = await client.query('DELETE FROM phones WHERE phone = $1 AND account_id = $2', [phone, accountId]);
        if (deleted.rowCount !== 1) return false;
        await moveIntoAccountDays(client, phone, accountId, -1);
        await raiseDataVersions(client, [accountId]);
        return true;
      }),
    ownedBy: (accountId) => ownedPhones(readsOn(pool), accountId),
  };
}

export async function ownedPhones(read: RowReads, accountId: string): Promise<string[]> {
  // Named, so that each connection parses and plans it once: reports on one number or of callers run it.
  const rows = await read<{ phone: string }>({
    name: 'phones-owned-by',
    text: 'SELECT phone FROM phones WHERE account_id = $1 ORDER BY phone',
    values: [accountId],
  });
  return rows.map((row) => row.phone);
}
