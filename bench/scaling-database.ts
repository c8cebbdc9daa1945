/**
 * What bench:scaling reads of its PostgreSQL: WAL positions, the size of every table (a partitioned table
 * as the sum of its partitions), the replica's replay and its transaction count (to show that reads went
 * there).
 */
import type { Client } from 'pg';
import type { ScalingCluster } from './scaling-cluster';

export interface TableSize {
  /** The table, or the partitioned table its partitions belong to. */
  readonly table: string;
  readonly partitions: number;
  /** Estimated rows (pg_class.reltuples after ANALYZE). */
  readonly rows: number;
  /** pg_relation_size: the heap's main fork. */
  readonly heapBytes: number;
  /** pg_indexes_size. */
  readonly indexBytes: number;
  /** pg_total_relation_size: heap, TOAST, free-space and visibility maps, indexes. */
  readonly totalBytes: number;
}

/** Every table of the schema with anything in it, largest first; a partition counts under its root. */
export async function tableSizes(client: Client): Promise<TableSize[]> {
  const { rows } = await client.query<{ table: string; partitions: string; rows: string; heap: string; indexes: string; total: string }>(`
    SELECT coalesce(pg_partition_root(c.oid), c.oid)::regclass::text AS table,
           count(*) AS partitions,
           sum(greatest(c.reltuples, 0))::bigint AS rows,
           sum(pg_relation_size(c.oid)) AS heap,
           sum(pg_indexes_size(c.oid)) AS indexes,
           sum(pg_total_relation_size(c.oid)) AS total
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r'
     GROUP BY 1
    HAVING sum(pg_total_relation_size(c.oid)) > 65536
     ORDER BY sum(pg_total_relation_size(c.oid)) DESC`);
  return rows.map((row) => ({
    table: row.table,
    partitions: Number(row.partitions),
    rows: Number(row.rows),
    heapBytes: Number(row.heap),
    indexBytes: Number(row.indexes),
    totalBytes: Number(row.total),
  }));
}

export async function walPosition(client: Client): Promise<string> {
  return (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]?.lsn as string;
}

export async function walBytesSince(client: Client, from: string): Promise<number> {
  return Number((await client.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS bytes', [from])).rows[0]?.bytes);
}

export async function databaseBytes(client: Client): Promise<number> {
  return Number((await client.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes')).rows[0]?.bytes);
}

/**
 * Resolves once the replica has replayed everything the primary had written when this was called. There is
 * no event for a replay position: it is asked again every second, for up to `seconds`.
 */
export async function replicaCaughtUp(cluster: ScalingCluster, seconds: number): Promise<number> {
  const target = await cluster.query('primary', walPosition);
  const began = performance.now();
  for (;;) {
    const behind = await cluster.query('replica', async (client) =>
      Number((await client.query<{ bytes: string }>('SELECT pg_wal_lsn_diff($1, pg_last_wal_replay_lsn()) AS bytes', [target])).rows[0]?.bytes),
    );
    if (behind <= 0) return (performance.now() - began) / 1000;
    if (performance.now() - began > seconds * 1000) throw new Error(`the replica is still ${behind} bytes behind after ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Transactions the replica's database has committed so far (read-only ones included). */
/** Transactions `node` has committed in the bench's database since its statistics began. */
export async function committedTransactions(cluster: ScalingCluster, node: 'primary' | 'replica'): Promise<number> {
  return cluster.query(node, async (client) =>
    Number((await client.query<{ count: string }>('SELECT xact_commit AS count FROM pg_stat_database WHERE datname = current_database()')).rows[0]?.count),
  );
}
