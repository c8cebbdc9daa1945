import type { Pool } from 'pg';
import type { Account, AccountRepository, Tool } from '../store';
import { rebuildRollups } from './rollups';
import { inTransaction } from './transaction';

interface AccountRow {
  id: string;
  tool: Tool;
  login: string;
  password_hash: string;
  active: boolean;
  time_zone: string;
}

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  tool: row.tool,
  login: row.login,
  passwordHash: row.password_hash,
  active: row.active,
  timeZone: row.time_zone,
});

const COLUMNS = 'id, tool, login, password_hash, active, time_zone';

export function postgresAccounts(pool: Pool): AccountRepository {
  return {
    find: async (id) => {
      const { rows } = await pool.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1`, [id]);
      return rows[0] === undefined ? undefined : toAccount(rows[0]);
    },
    save: (account) =>
      inTransaction(pool, async (client) => {
        // The row lock makes a concurrent call import wait, so no call is rolled up in the old zone.
        const previous = await client.query<{ time_zone: string }>('SELECT time_zone FROM accounts WHERE id = $1 FOR UPDATE', [
          account.id,
        ]);
        await client.query(
          `INSERT INTO accounts (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (id) DO UPDATE SET tool = excluded.tool, login = excluded.login,
             password_hash = excluded.password_hash, active = excluded.active, time_zone = excluded.time_zone`,
          [account.id, account.tool, account.login, account.passwordHash, account.active, account.timeZone],
        );
        const previousZone = previous.rows[0]?.time_zone;
        if (previousZone !== undefined && previousZone !== account.timeZone) {
          const owned = await client.query<{ phone: string }>('SELECT phone FROM phones WHERE account_id = $1', [account.id]);
          await rebuildRollups(
            client,
            owned.rows.map((row) => row.phone),
            account.timeZone,
          );
        }
      }),
    list: async () => {
      const { rows } = await pool.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts ORDER BY position`);
      return rows.map(toAccount);
    },
  };
}
