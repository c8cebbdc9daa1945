import type { Pool } from 'pg';
import type { CredentialRepository } from '../store';
import { ACCOUNT_COLUMNS, toAccount, type AccountRow } from './accounts';

interface CredentialRow {
  login: string;
  password_digest: string;
  account_id: string;
  generation: number;
  last_used_at: string;
  /** The account's row as JSON, null when the account is gone. */
  account: AccountRow | null;
}

/** The credential and its account in one round trip, since every request of the reporting API needs both. */
const FIND_WITH_ACCOUNT = `
SELECT issued.login, issued.password_digest, issued.account_id, issued.generation, issued.last_used_at,
  (SELECT to_json(account) FROM (SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE accounts.id = issued.account_id) AS account) AS account
FROM temporary_credentials issued WHERE issued.login = $1`;

export function postgresCredentials(pool: Pool): CredentialRepository {
  return {
    save: async (credential) => {
      // The account's row held (KEY SHARE, as a foreign key's check holds it) while the credential goes in: a
      // deletion of the account waits for this insert and then deletes the credential with it, or went
      // first, and then there is no row to insert from.
      const { rowCount } = await pool.query(
        `INSERT INTO temporary_credentials (login, password_digest, account_id, generation, last_used_at)
         SELECT $1, $2, id, $4, $5 FROM accounts WHERE id = $3 FOR KEY SHARE
         ON CONFLICT (login) DO UPDATE SET password_digest = excluded.password_digest, account_id = excluded.account_id,
           generation = excluded.generation, last_used_at = excluded.last_used_at`,
        [credential.login, credential.passwordDigest, credential.accountId, credential.generation, credential.lastUsedAt],
      );
      return rowCount === 1;
    },
    findWithAccount: async (login) => {
      // Named, so that each connection parses and plans it once: every request of the reporting API runs it.
      const { rows } = await pool.query<CredentialRow>({ name: 'find-credential-with-account', text: FIND_WITH_ACCOUNT, values: [login] });
      const row = rows[0];
      if (row === undefined) return undefined;
      return {
        credential: {
          login: row.login,
          passwordDigest: row.password_digest,
          accountId: row.account_id,
          generation: row.generation,
          lastUsedAt: Number(row.last_used_at),
        },
        account: row.account === null ? undefined : toAccount(row.account),
      };
    },
    touch: async (login, usedAt) => {
      await pool.query('UPDATE temporary_credentials SET last_used_at = $2 WHERE login = $1', [login, usedAt]);
    },
    removeIdleSince: async (cutoff) => {
      const deleted = await pool.query('DELETE FROM temporary_credentials WHERE last_used_at < $1', [cutoff]);
      return deleted.rowCount ?? 0;
    },
  };
}
