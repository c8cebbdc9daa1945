import type { Pool, PoolClient } from 'pg';

/** Ids sorted, so that transactions raising several accounts' versions lock their rows in one order. */
const RAISE = `
INSERT INTO account_data_versions (account_id, version)
SELECT account_id, 1 FROM unnest($1::text[]) AS changed(account_id) ORDER BY account_id
ON CONFLICT (account_id) DO UPDATE SET version = account_data_versions.version + 1`;

/** Moves the data version of these accounts on, inside the transaction that changes their data. */
export async function raiseDataVersions(client: PoolClient, accountIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(accountIds)];
  if (ids.length > 0) await client.query(RAISE, [ids]);
}

export async function readDataVersion(pool: Pool, accountId: string): Promise<number> {
  // Named, so that each connection parses and plans it once: every request of the reporting API runs it.
  const { rows } = await pool.query<{ version: string }>({
    name: 'read-data-version',
    text: 'SELECT version FROM account_data_versions WHERE account_id = $1',
    values: [accountId],
  });
  return rows[0] === undefined ? 0 : Number(rows[0].version);
}
