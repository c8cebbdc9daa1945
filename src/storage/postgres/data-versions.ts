import type { Pool, PoolClient } from 'pg';
import type { ReportBasis } from '../store';

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

export async function readReportBasis(pool: Pool, accountId: string, phone: string | undefined): Promise<ReportBasis> {
  // Named, so that each connection parses and plans it once: every request of the reporting API runs it.
  const { rows } = await pool.query<{ version: string | null; owns: boolean }>({
    name: 'read-report-basis',
    text:
      'SELECT (SELECT version FROM account_data_versions WHERE account_id = $1) AS version, ' +
      '($2::text IS NULL OR EXISTS (SELECT 1 FROM phones WHERE phone = $2 AND account_id = $1)) AS owns',
    values: [accountId, phone ?? null],
  });
  const row = rows[0] as { version: string | null; owns: boolean };
  return { dataVersion: row.version === null ? 0 : Number(row.version), ownsPhone: row.owns };
}
