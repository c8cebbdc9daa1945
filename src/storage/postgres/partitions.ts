import { escapeIdentifier, type Pool, type PoolClient } from 'pg';
import { monthName, monthStart } from '../../time/months';
import type { RawCallMonths } from '../store';
import { allowLongStatements, longQuery } from './pool';
import { inTransaction } from './transaction';

/**
 * Taken by whoever adds or drops partitions of calls, so that instances making the same month at once
 * make it once, and retention never drops a month while another instance makes it. Any fixed number that
 * nothing else in the database takes.
 */
const PARTITION_LOCK = 5_170_002;

/** PostgreSQL's code for a row that no partition takes (and for a failed CHECK). */
export const NO_PARTITION = '23514';

/** A partition of calls: the started_at from `fromMs` (undefined: from the beginning) until `toMs`, excluded. */
interface Partition {
  readonly name: string;
  readonly fromMs: number | undefined;
  readonly toMs: number;
}

/** A range bound as pg_get_expr writes it: FOR VALUES FROM ('1517443200000') TO ('1519862400000'), or FROM (MINVALUE). */
const RANGE_BOUND = /FROM \((?:MINVALUE|'(-?\d+)')\) TO \('(-?\d+)'\)/;

async function listPartitions(client: PoolClient): Promise<Partition[]> {
  const { rows } = await client.query<{ name: string; bound: string }>(
    `SELECT child.relname AS name, pg_get_expr(child.relpartbound, child.oid) AS bound
     FROM pg_inherits JOIN pg_class child ON child.oid = pg_inherits.inhrelid
     WHERE pg_inherits.inhparent = 'calls'::regclass`,
  );
  return rows.flatMap(({ name, bound }) => {
    const match = RANGE_BOUND.exec(bound);
    if (match === null) return [];
    return [{ name, fromMs: match[1] === undefined ? undefined : Number(match[1]), toMs: Number(match[2]) }];
  });
}

const covers = (partition: Partition, month: number): boolean => (partition.fromMs === undefined || partition.fromMs <= month) && month < partition.toMs;

/** calls_2018_02: the month of its calls, UTC. */
const partitionName = (month: number): string => `calls_${monthName(month).replace('-', '_')}`;

/**
 * The partitions of calls, one per UTC month. Made when a batch needs one and ahead of time by the
 * server's maintenance (retention/maintenance.ts): the table first, then attached, which locks calls
 * only against other changes of its partitions (SHARE UPDATE EXCLUSIVE) where CREATE TABLE ... PARTITION
 * OF would wait for every import in flight and hold back every import behind it. The months known to have
 * one are remembered, so a batch of known months costs nothing here.
 */
export class CallPartitions {
  private readonly ready = new Set<number>();

  constructor(private readonly pool: Pool) {}

  /** Makes the partitions of these months (their first instants) that do not exist yet. */
  async prepare(months: Iterable<number>): Promise<void> {
    const missing = [...new Set(months)].filter((month) => !this.ready.has(month));
    if (missing.length === 0) return;
    await inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
      const partitions = await listPartitions(client);
      for (const month of missing.sort((a, b) => a - b)) {
        if (partitions.some((partition) => covers(partition, month))) continue;
        const name = escapeIdentifier(partitionName(month));
        await client.query(`CREATE TABLE ${name} (LIKE calls INCLUDING DEFAULTS)`);
        await client.query(`ALTER TABLE calls ATTACH PARTITION ${name} FOR VALUES FROM (${month}) TO (${monthStart(month, 1)})`);
      }
    });
    for (const month of missing) this.ready.add(month);
  }

  /** After an import found a month gone (dropped by retention, perhaps on another instance). */
  forget(): void {
    this.ready.clear();
  }

  /**
   * The partitions that end at or before `cutoffMs`, oldest first, each with its number of calls; dropped
   * unless `dryRun`, in one transaction that also records the cut-off for the rollup rebuilds.
   */
  async dropBefore(cutoffMs: number, dryRun: boolean): Promise<RawCallMonths[]> {
    const dropped = await inTransaction(this.pool, async (client) => {
      await allowLongStatements(client);
      await longQuery(client, 'SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
      const old = (await listPartitions(client)).filter((partition) => partition.toMs <= cutoffMs).sort((a, b) => a.toMs - b.toMs);
      const parts: RawCallMonths[] = [];
      // Every month counted before the first is dropped: a drop holds calls exclusively until the
      // commit, and imports should not wait for the counting.
      for (const partition of old) {
        const { rows } = await longQuery<{ calls: string }>(client, `SELECT count(*) AS calls FROM ${escapeIdentifier(partition.name)}`);
        parts.push({
          firstMonth: partition.fromMs === undefined ? undefined : monthName(partition.fromMs),
          lastMonth: monthName(partition.toMs - 1),
          calls: Number((rows[0] as { calls: string }).calls),
        });
      }
      if (dryRun) return parts;
      for (const partition of old) await longQuery(client, `DROP TABLE ${escapeIdentifier(partition.name)}`);
      if (old.length > 0) {
        await longQuery(
          client,
          `INSERT INTO retention_horizon (dropped_before) VALUES ($1)
           ON CONFLICT (single) DO UPDATE SET dropped_before = GREATEST(retention_horizon.dropped_before, excluded.dropped_before)`,
          [cutoffMs],
        );
      }
      return parts;
    });
    if (!dryRun) this.forget();
    return dropped;
  }
}

/** CallRepository.capRetentionHorizon: one statement, which returns the value it replaced. */
export async function capRetentionHorizon(pool: Pool, latestMs: number): Promise<number | undefined> {
  const { rows } = await pool.query<{ dropped_before: string }>(
    `WITH replaced AS (SELECT dropped_before FROM retention_horizon WHERE dropped_before > $1 FOR UPDATE)
     UPDATE retention_horizon SET dropped_before = $1 FROM replaced RETURNING replaced.dropped_before`,
    [latestMs],
  );
  return rows[0] === undefined ? undefined : Number(rows[0].dropped_before);
}

/** The instant before which raw calls were dropped; undefined while none was. */
export async function retentionHorizon(client: PoolClient): Promise<number | undefined> {
  const { rows } = await client.query<{ dropped_before: string }>('SELECT dropped_before FROM retention_horizon');
  return rows[0] === undefined ? undefined : Number(rows[0].dropped_before);
}
