import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` on one connection inside BEGIN ... COMMIT. When it throws, the connection is closed
 * instead of being rolled back and reused: that ends the transaction just as well, and a connection
 * whose query timed out may still have it running, or may belong to a server that stopped answering.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    client.release(true);
    throw error;
  }
}
