import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';

/** One query on its own connection to `url`. */
export async function queryOnce<Row extends Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Resolves with the first row of `waiting` (a query of pg_locks or pg_stat_activity) once it finds one: a
 * lock of the database at `url` waited for. No event tells it, so it is read until it does, within a
 * generous bound.
 */
export async function waitForLockWait<Row extends Record<string, unknown>>(url: string, waiting: string, values: unknown[] = []): Promise<Row> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const [row] = await queryOnce<Row>(url, waiting, values);
    if (row !== undefined) return row;
    await sleep(50);
  }
  throw new Error(`no lock wait within 30 s: ${waiting}`);
}
