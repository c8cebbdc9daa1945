import type { Pool } from 'pg';
import type { CredentialRepository } from '../store';

interface CredentialRow {
  login: string;
  password_digest: string;
  account_id: string;
  generation: number;
  last_used_at: string;
}

export function postgresCredentials(pool: Pool): CredentialRepository {
  return {
    save: async (credential) => {
      await pool.query(
        `INSERT INTO temporary_credentials (login, password_digest, account_id, generation, last_used_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (login) DO UPDATE SET password_digest = excluded.password_digest, account_id = excluded.account_id,
           generation = excluded.generation, last_used_at = excluded.last_used_at`,
        [credential.login, credential.passwordDigest, credential.accountId, credential.generation, credential.lastUsedAt],
      );
    },
    find: async (login) => {
      // Named, so that each connection parses and plans it once: every request of the reporting API runs it.
      const { rows } = await pool.query<CredentialRow>({
        name: 'find-credential',
        text: 'SELECT login, password_digest, account_id, generation, last_used_at FROM temporary_credentials WHERE login = $1',
        values: [login],
      });
      const row = rows[0];
      if (row === undefined) return undefined;
      return {
        login: row.login,
        passwordDigest: row.password_digest,
        accountId: row.account_id,
        generation: row.generation,
        lastUsedAt: Number(row.last_used_at),
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
