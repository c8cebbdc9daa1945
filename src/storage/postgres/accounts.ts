import type { Pool, PoolClient } from 'pg';
import type { Account } from '../../accounts/account';
import type { Tool } from '../../domain/tool';
import type { AccountRepository, Revocation } from '../store';
import { deleteCallsOf, rebuildRollups, recomputeAccountDays } from './rollups';
import { inTransaction } from './transaction';
import { raiseDataVersions, readReportBasis } from './data-versions';

export interface AccountRow {
  id: string;
  tool: Tool;
  login: string;
  password_hash: string;
  active: boolean;
  time_zone: string;
  credential_generation: number;
}

export const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  tool: row.tool,
  login: row.login,
  passwordHash: row.password_hash,
  active: row.active,
  timeZone: row.time_zone,
  credentialGeneration: row.credential_generation,
});

/** The columns of an AccountRow. */
export const ACCOUNT_COLUMNS = 'id, tool, login, password_hash, active, time_zone, credential_generation';
const VALUES = '$1, $2, $3, $4, $5, $6, $7';
const values = (account: Account) => [
  account.id,
  account.tool,
  account.login,
  account.passwordHash,
  account.active,
  account.timeZone,
  account.credentialGeneration,
];

/** The account's time zone, its row locked: a concurrent call import waits, so no call is rolled up in the old zone. */
async function lockedTimeZone(client: PoolClient, id: string): Promise<string | undefined> {
  const { rows } = await client.query<{ time_zone: string }>('SELECT time_zone FROM accounts WHERE id = $1 FOR UPDATE', [id]);
  return rows[0]?.time_zone;
}

/** Rollups are keyed by local day: a new zone rebuilds those of every phone of the account, and the account's days. */
async function followTimeZone(client: PoolClient, id: string, previousZone: string, timeZone: string): Promise<void> {
  if (previousZone === timeZone) return;
  const owned = await client.query<{ phone: string }>('SELECT phone FROM phones WHERE account_id = $1', [id]);
  await rebuildRollups(
    client,
    owned.rows.map((row) => row.phone),
    timeZone,
  );
  await recomputeAccountDays(client, id);
  await raiseDataVersions(client, [id]);
}

/**
 * AccountRepository.revokeCredentials, in one transaction. The account's row is held FOR UPDATE, which a
 * login storing its credential (FOR KEY SHARE) waits for, and the credentials are read after: one stored
 * before is read, one stored after has the generation ended. An UPDATE alone would hold the row only FOR NO
 * KEY UPDATE, which lets such a login store a credential that works until this commits and is not read.
 */
async function revokeCredentials(client: PoolClient, id: string, usedAfter: number): Promise<Revocation | undefined> {
  const locked = await client.query<{ credential_generation: number }>('SELECT credential_generation FROM accounts WHERE id = $1 FOR UPDATE', [id]);
  const ended = locked.rows[0]?.credential_generation;
  if (ended === undefined) return undefined;
  // No index leads with account_id: the one on last use narrows the read, at best, to every account's credentials still working.
  const credentials = await client.query<{ login: string; last_used_at: string }>(
    'SELECT login, last_used_at FROM temporary_credentials WHERE account_id = $1 AND generation = $2 AND last_used_at > $3',
    [id, ended, usedAfter],
  );
  const { rows } = await client.query<AccountRow>(
    `UPDATE accounts SET credential_generation = credential_generation + 1 WHERE id = $1 RETURNING ${ACCOUNT_COLUMNS}`,
    [id],
  );
  return {
    account: toAccount(rows[0] as AccountRow),
    revoked: credentials.rows.map((row) => ({ login: row.login, lastUsedAt: Number(row.last_used_at) })),
  };
}

/**
 * AccountRepository.remove, in one transaction. The account's row is held first (FOR UPDATE), as every
 * writer of its data holds it before anything else of it (an import, an assignment or release of a
 * number, a login storing its credential, a time-zone change): this waits for those in progress, holding
 * nothing they wait for, and those that come later wait for it, then find no account.
 */
async function removeAccount(client: PoolClient, id: string): Promise<boolean> {
  const locked = await client.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [id]);
  if (locked.rowCount !== 1) return false;
  const released = await client.query<{ phone: string }>('DELETE FROM phones WHERE account_id = $1 RETURNING phone', [id]);
  await deleteCallsOf(
    client,
    released.rows.map((row) => row.phone),
  );
  await client.query('DELETE FROM account_daily_rollups WHERE account_id = $1', [id]);
  // No index leads with account_id: the credentials of the last CREDENTIAL_TTL_SECONDS are read through.
  await client.query('DELETE FROM temporary_credentials WHERE account_id = $1', [id]);
  await raiseDataVersions(client, [id]);
  await client.query('DELETE FROM accounts WHERE id = $1', [id]);
  return true;
}

export function postgresAccounts(pool: Pool): AccountRepository {
  return {
    find: async (id) => {
      // Named, so that each connection parses and plans it once: every login runs it.
      const { rows } = await pool.query<AccountRow>({ name: 'find-account', text: `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`, values: [id] });
      return rows[0] === undefined ? undefined : toAccount(rows[0]);
    },
    save: (account) =>
      inTransaction(pool, async (client) => {
        const previousZone = await lockedTimeZone(client, account.id);
        await client.query(
          `INSERT INTO accounts (${ACCOUNT_COLUMNS}) VALUES (${VALUES})
           ON CONFLICT (id) DO UPDATE SET tool = excluded.tool, login = excluded.login,
             password_hash = excluded.password_hash, active = excluded.active, time_zone = excluded.time_zone,
             credential_generation = GREATEST(accounts.credential_generation, excluded.credential_generation)
               + CASE WHEN accounts.active AND NOT excluded.active THEN 1 ELSE 0 END`,
          values(account),
        );
        if (previousZone !== undefined) await followTimeZone(client, account.id, previousZone, account.timeZone);
      }),
    create: async (account) => {
      const { rowCount } = await pool.query(
        `INSERT INTO accounts (${ACCOUNT_COLUMNS}) VALUES (${VALUES}) ON CONFLICT (id) DO NOTHING`,
        values(account),
      );
      return rowCount === 1;
    },
    update: (id, change) =>
      inTransaction(pool, async (client) => {
        const previousZone = await lockedTimeZone(client, id);
        if (previousZone === undefined) return undefined;
        const { rows } = await client.query<AccountRow>(
          `UPDATE accounts SET password_hash = coalesce($2, password_hash), active = coalesce($3, active),
             time_zone = coalesce($4, time_zone),
             credential_generation = credential_generation + $5 + CASE WHEN active AND $3 IS FALSE THEN 1 ELSE 0 END
           WHERE id = $1 RETURNING ${ACCOUNT_COLUMNS}`,
          [id, change.passwordHash ?? null, change.active ?? null, change.timeZone ?? null, change.revokeCredentials === true ? 1 : 0],
        );
        const updated = toAccount(rows[0] as AccountRow);
        await followTimeZone(client, id, previousZone, updated.timeZone);
        return updated;
      }),
    revokeCredentials: (id, usedAfter) => inTransaction(pool, (client) => revokeCredentials(client, id, usedAfter)),
    remove: (id) => inTransaction(pool, (client) => removeAccount(client, id)),
    reportBasis: (id, phone) => readReportBasis(pool, id, phone),
    list: async () => {
      const { rows } = await pool.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY position`);
      return rows.map(toAccount);
    },
  };
}
