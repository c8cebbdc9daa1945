import type { Pool, QueryResultRow } from 'pg';
import type { Logger } from 'pino';
import { isOutage, refusesStartupParameter } from '../dependency-error';
import type { ReplicaReadCount, ReplicaReadOutcome, ReplicaReads, SeenData, StoreDependency } from '../store';
import { postgresCallReads } from './calls';
import { checkSchema } from './migrate';
import { createPool } from './pool';
import type { DatabasePooler } from './pooler';
import type { NamedRead, RowReads } from './row-reads';

/**
 * How long a replica that failed is left aside before one read tries it again: long enough that a
 * replica gone for good costs a dependency timeout to one read a minute at most, short enough that one
 * back from a restart serves again soon.
 */
export const REPLICA_RETRY_MS = 60_000;

/** The columns a checked read adds to the statement's own; names no statement of a report uses. */
const SEEN_VERSION = 'replica_seen_version';
const ANSWERED = 'replica_answered';
const POSITION = 'replica_position';

type CheckedRow = QueryResultRow & { [SEEN_VERSION]: string; [ANSWERED]: boolean | null };

/**
 * A report's statement as a replica runs it: with the account's data version as the replica holds it,
 * in the same statement and so the same snapshot as the rows, which come only when that version is at
 * least the one the report has seen. The account and the version are the last two parameters. The
 * statement's rows keep their order (row_number over the subquery's output, before the join), and a
 * replica that is behind answers one row with no answer: then the primary reads it.
 */
export function versionCheckedRead(read: NamedRead, seen: SeenData): NamedRead {
  const account = read.values.length + 1;
  return {
    name: `${read.name}@replica`,
    text: `
SELECT seen.version AS ${SEEN_VERSION}, answer.*
FROM (SELECT coalesce((SELECT version FROM account_data_versions WHERE account_id = $${account}::text), 0) AS version) AS seen
LEFT JOIN LATERAL (
  SELECT true AS ${ANSWERED}, row_number() OVER () AS ${POSITION}, rows.* FROM (${read.text}) AS rows
) AS answer ON seen.version >= $${account + 1}::bigint
ORDER BY answer.${POSITION}`,
    values: [...read.values, seen.accountId, seen.dataVersion],
  };
}

interface Replica {
  /** `replica-N`: what the readiness checks, the metrics and the log call it, never its address. */
  readonly name: string;
  readonly pool: Pool;
  /** While the clock is before it, the replica is left aside (0: it serves). */
  asideUntil: number;
  /** A read is trying it again after it was left aside: the others leave it alone until that read ends. */
  trying: boolean;
}

export interface ReplicaSetOptions {
  readonly logger: Logger;
  readonly timeoutMs: number;
  /** What the replicas' URLs lead to (DATABASE_READ_POOLER); default PostgreSQL itself. */
  readonly pooler?: DatabasePooler;
  /** Milliseconds on a monotonic clock; a test moves it to see a replica tried again. */
  readonly now?: () => number;
}

export interface ReplicaSet {
  readonly reads: ReplicaReads;
  /** A readiness check per replica, optional: the primary takes over a replica that is down. */
  readonly dependencies: readonly StoreDependency[];
  close(): Promise<void>;
}

/**
 * The read replicas of DATABASE_READ_URL: each read of a report goes to the next replica in turn that is
 * not left aside, checked against the data version its report has seen; `primary` reads it when the
 * replica is behind, fails or does not answer within the dependency timeout (the pool's bounds, pool.ts).
 * A replica that failed is left aside for REPLICA_RETRY_MS, then one read tries it again.
 */
export function openReplicaSet(urls: readonly string[], primary: RowReads, { logger, timeoutMs, pooler = 'none', now = () => performance.now() }: ReplicaSetOptions): ReplicaSet {
  const replicas: Replica[] = urls.map((url, index) => ({
    name: `replica-${index + 1}`,
    pool: createPool(url, logger, timeoutMs, pooler),
    asideUntil: 0,
    trying: false,
  }));
  // By replica, then outcome: a read counts with two lookups of strings it already holds.
  const counts = new Map<string, Map<ReplicaReadOutcome, { count: number }>>();
  const count = (replica: string, outcome: ReplicaReadOutcome): void => {
    let outcomes = counts.get(replica);
    if (outcomes === undefined) counts.set(replica, (outcomes = new Map<ReplicaReadOutcome, { count: number }>()));
    const counted = outcomes.get(outcome);
    if (counted === undefined) outcomes.set(outcome, { count: 1 });
    else counted.count += 1;
  };
  let next = 0;

  /** The next replica in turn that serves, or one whose time aside is over (which this read then tries). */
  function pick(): Replica | undefined {
    for (let tried = 0; tried < replicas.length; tried += 1) {
      const replica = replicas[(next + tried) % replicas.length] as Replica;
      if (replica.asideUntil === 0 || (!replica.trying && now() >= replica.asideUntil)) {
        next = (next + tried + 1) % replicas.length;
        if (replica.asideUntil !== 0) replica.trying = true;
        return replica;
      }
    }
    return undefined;
  }

  function failed(replica: Replica, error: unknown): void {
    if (replica.asideUntil === 0) {
      const hint = refusesStartupParameter(error) ? { hint: 'behind PgBouncer in transaction mode, set DATABASE_READ_POOLER=transaction: docs/deployment.md' } : {};
      logger.warn({ replica: replica.name, err: error, ...hint }, 'a read replica failed: the primary answers its reads until it answers again');
    }
    replica.asideUntil = now() + REPLICA_RETRY_MS;
    replica.trying = false;
  }

  function answered(replica: Replica): void {
    if (replica.asideUntil !== 0) logger.info({ replica: replica.name }, 'a read replica answers again');
    replica.asideUntil = 0;
    replica.trying = false;
  }

  const readingAfter = (seen: SeenData): RowReads =>
    async <Row extends QueryResultRow>(read: NamedRead): Promise<Row[]> => {
      const replica = pick();
      if (replica === undefined) {
        count('none', 'set-aside');
        return primary<Row>(read);
      }
      let rows: CheckedRow[];
      try {
        const checked = versionCheckedRead(read, seen);
        rows = (await replica.pool.query<CheckedRow>({ name: checked.name, text: checked.text, values: [...checked.values] })).rows;
      } catch (error) {
        // A statement a standby cancels for a conflict with its replay is no outage: the replica stays in turn.
        if (isOutage(error)) failed(replica, error);
        else answered(replica);
        count(replica.name, 'failed');
        return primary<Row>(read);
      }
      answered(replica);
      if (Number(rows[0]?.[SEEN_VERSION] ?? 0) < seen.dataVersion) {
        count(replica.name, 'behind');
        logger.debug({ replica: replica.name, account: seen.accountId, version: seen.dataVersion }, 'a read replica is behind the data a report has seen');
        return primary<Row>(read);
      }
      count(replica.name, 'answered');
      return rows.filter((row) => row[ANSWERED] === true) as unknown as Row[];
    };

  return {
    reads: {
      readingAfter: (seen) => postgresCallReads(readingAfter(seen)),
      counts: () => [...counts].flatMap(([replica, outcomes]): ReplicaReadCount[] => [...outcomes].map(([outcome, { count: total }]) => ({ replica, outcome, count: total }))),
    },
    dependencies: replicas.map(({ name, pool }) => ({ name, optional: true, check: () => checkSchema(pool) })),
    close: async () => {
      await Promise.all(replicas.map(({ pool }) => pool.end()));
    },
  };
}
