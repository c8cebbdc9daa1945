import { escapeIdentifier, type Pool, type PoolClient } from 'pg';
import { monthName, monthStart } from '../../time/months';
import type { RawCallMonths } from '../store';
import { allowLongStatements, longQuery } from './pool';
import { inTransaction } from './transaction';

/**
 * Taken by whoever adds or drops partitions of calls or of the rollups, so that instances making the same
 * month at once make it once, and retention never drops a month while another instance makes it. Any
 * fixed number that nothing else in the database takes.
 */
const PARTITION_LOCK = 5_170_002;

/** PostgreSQL's code for a row that no partition takes (and for a failed CHECK). */
export const NO_PARTITION = '23514';

/** A partition: the keys from `from` (undefined: from the beginning) until `to`, excluded. */
interface Partition {
  readonly name: string;
  readonly from: number | undefined;
  readonly to: number;
}

/**
 * A table partitioned by UTC month: calls by started_at (milliseconds since the epoch), each rollup by its
 * day (days since 1970-01-01). Rollups are partitioned so that an import, whose calls come in time order,
 * inserts into the indexes of a month or two rather than into ones as large as all history: after each
 * checkpoint PostgreSQL writes the whole of every page it changes into the WAL once, and the fewer distinct
 * pages a load touches, the less WAL and the fewer reads it costs (docs/scaling.md).
 */
interface MonthPartitioned {
  readonly table: string;
  /** The partition key's value at a month's first instant. */
  readonly keyAt: (monthStartMs: number) => number;
}

const MS_PER_DAY = 86_400_000;
const CALLS: MonthPartitioned = { table: 'calls', keyAt: (monthStartMs) => monthStartMs };
/** The rollups of numbers (migration 012); a call's local day may fall in the UTC month before or after its own, so each call month makes those three. */
const ROLLUPS: readonly MonthPartitioned[] = ['daily_rollups', 'caller_days', 'form_item_days'].map((table) => ({
  table,
  keyAt: (monthStartMs) => monthStartMs / MS_PER_DAY,
}));

/** A range bound as pg_get_expr writes it: FOR VALUES FROM ('1517443200000') TO ('1519862400000'), FROM (17563) TO (17591), or FROM (MINVALUE). */
const RANGE_BOUND = /FROM \((?:MINVALUE|'?(-?\d+)'?)\) TO \('?(-?\d+)'?\)/;

async function listPartitions(client: PoolClient, table: string): Promise<Partition[]> {
  const { rows } = await client.query<{ name: string; bound: string }>(
    `SELECT child.relname AS name, pg_get_expr(child.relpartbound, child.oid) AS bound
     FROM pg_inherits JOIN pg_class child ON child.oid = pg_inherits.inhrelid
     WHERE pg_inherits.inhparent = $1::regclass`,
    [table],
  );
  return rows.flatMap(({ name, bound }) => {
    const match = RANGE_BOUND.exec(bound);
    if (match === null) return [];
    return [{ name, from: match[1] === undefined ? undefined : Number(match[1]), to: Number(match[2]) }];
  });
}

const covers = (partition: Partition, key: number): boolean => (partition.from === undefined || partition.from <= key) && key < partition.to;

/** calls_2018_02, daily_rollups_2018_02: the table's rows of that UTC month. */
const partitionName = (table: string, month: number): string => `${table}_${monthName(month).replace('-', '_')}`;

/**
 * Makes the partitions of `table` for these months that it lacks: the table first, then attached, which
 * locks the parent only against other changes of its partitions (SHARE UPDATE EXCLUSIVE) where CREATE
 * TABLE ... PARTITION OF would wait for every import in flight and hold back every import behind it.
 */
async function makePartitions(client: PoolClient, { table, keyAt }: MonthPartitioned, months: readonly number[]): Promise<void> {
  const partitions = await listPartitions(client, table);
  for (const month of months) {
    if (partitions.some((partition) => covers(partition, keyAt(month)))) continue;
    const name = escapeIdentifier(partitionName(table, month));
    await client.query(`CREATE TABLE ${name} (LIKE ${table} INCLUDING DEFAULTS INCLUDING GENERATED)`);
    await client.query(`ALTER TABLE ${table} ATTACH PARTITION ${name} FOR VALUES FROM (${keyAt(month)}) TO (${keyAt(monthStart(month, 1))})`);
  }
}

/**
 * The partitions of calls, one per UTC month, and of the rollups, one per UTC month of their days. Made
 * when a batch needs one and ahead of time by the server's maintenance (retention/maintenance.ts). The
 * months known to have them are remembered, so a batch of known months costs nothing here.
 */
export class CallPartitions {
  private readonly ready = new Set<number>();

  constructor(private readonly pool: Pool) {}

  /** Makes the partitions of calls of these months (their first instants), and of the rollups of their days, that do not exist yet. */
  async prepare(months: Iterable<number>): Promise<void> {
    const missing = [...new Set(months)].filter((month) => !this.ready.has(month)).sort((a, b) => a - b);
    if (missing.length === 0) return;
    const withNeighbours = [...new Set(missing.flatMap((month) => [monthStart(month, -1), month, monthStart(month, 1)]))].sort((a, b) => a - b);
    await inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
      await makePartitions(client, CALLS, missing);
      for (const rollup of ROLLUPS) await makePartitions(client, rollup, withNeighbours);
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
      const old = (await listPartitions(client, CALLS.table)).filter((partition) => partition.to <= cutoffMs).sort((a, b) => a.to - b.to);
      const parts: RawCallMonths[] = [];
      // Every month counted before the first is dropped: a drop holds calls exclusively until the
      // commit, and imports should not wait for the counting.
      for (const partition of old) {
        const { rows } = await longQuery<{ calls: string }>(client, `SELECT count(*) AS calls FROM ${escapeIdentifier(partition.name)}`);
        parts.push({
          firstMonth: partition.from === undefined ? undefined : monthName(partition.from),
          lastMonth: monthName(partition.to - 1),
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
