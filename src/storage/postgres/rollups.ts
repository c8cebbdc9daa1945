import type { PoolClient } from 'pg';
import { PATH_STEP_COUNTERS } from '../../domain/call-record';
import { offsetSpans } from '../../time/zone-offsets';
import type { DayTotals } from '../store';
import { rebuildFrom } from '../rebuild-from';
import { retentionHorizon } from './partitions';
import { allowLongStatements, longQuery } from './pool';

/** The sums of a day besides its calls: the DayTotals field and the column of calls and of daily_rollups. */
export const DAY_SUMS = [
  { field: 'logEvents', column: 'log_events' },
  { field: 'loops', column: 'loops' },
  { field: 'formItems', column: 'form_items' },
  { field: 'durationMs', column: 'duration_ms' },
  { field: 'transfers', column: 'transfers' },
  { field: 'transferMs', column: 'transfer_ms' },
  { field: 'jsErrors', column: 'js_errors' },
  { field: 'fetchErrors', column: 'fetch_errors' },
  { field: 'pageLoads', column: 'page_loads' },
  { field: 'pageLoadMs', column: 'page_load_ms' },
] as const satisfies ReadonlyArray<{ field: Exclude<keyof DayTotals, 'day' | 'calls'>; column: string }>;

const SUM_COLUMNS = DAY_SUMS.map(({ column }) => column).join(', ');
/** The columns of daily_rollups and account_daily_rollups after their key. */
const DAY_COLUMNS = ['calls', ...DAY_SUMS.map(({ column }) => column)] as const;
const COUNTER_COLUMNS = PATH_STEP_COUNTERS.join(', ');
const addedTo = (table: string, columns: readonly string[]) => columns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ');

/**
 * One row per path entry of the rows of `calls` (calls, or a CTE with its path columns): the call's
 * `columns`, then the entry's form item and counters. A condition on `calls` may follow. unnest, not
 * generate_subscripts: the planner expects a few entries per call of the one, 1,000 of the other, and
 * sized its aggregates accordingly.
 */
const pathEntries = (calls: string, columns: readonly string[]) => `
  SELECT ${columns.map((column) => `${calls}.${column}`).join(', ')}, step.form_item_id,
    ${PATH_STEP_COUNTERS.map((counter, index) => `${calls}.path_counters[step.place][${index + 1}] AS ${counter}`).join(', ')}
  FROM ${calls} CROSS JOIN LATERAL unnest(${calls}.path_form_item_ids) WITH ORDINALITY AS step(form_item_id, place)
  WHERE ${calls}.path_form_item_ids IS NOT NULL`;

/** The sums a version-1 record has; the others are 0 for it. */
const VERSION_1_SUMS: ReadonlySet<string> = new Set(['log_events', 'loops', 'form_items']);

/**
 * Common table expressions that add the calls of the CTE `stored` (the columns of calls, and each call's
 * local `day`) to the rollups of numbers, one upsert per rollup table however many calls, rows sorted so
 * that concurrent writers lock them in one order (texts by bytes, "C": the same for every writer, and
 * cheaper to sort than a language's collation). Each begins with a comma; the owners' days are not among
 * them (storedAccountDays, addToAccountDays).
 *
 * `version2` false: the calls have only the columns of a version-1 record; the other sums add 0, and the
 * rollups that only version 2 feeds (callers and their regions, form items) are left alone.
 */
export function addStoredToRollups(version2: boolean): string {
  const days = `,
add_to_days AS (
  INSERT INTO daily_rollups (phone, day, calls, ${SUM_COLUMNS})
  SELECT phone, day, count(*), ${DAY_SUMS.map(({ column }) => sumOf(version2, column)).join(', ')}
  FROM stored GROUP BY phone, day ORDER BY phone COLLATE "C", day
  ON CONFLICT (phone, day) DO UPDATE SET ${addedTo('daily_rollups', DAY_COLUMNS)}
)`;
  const version2Only = `,
add_to_caller_days AS (
  INSERT INTO caller_days (phone, day, caller, region, calls)
  SELECT phone, day, caller, min(region), count(*) FROM stored WHERE caller IS NOT NULL
  GROUP BY phone, day, caller ORDER BY phone COLLATE "C", day, caller COLLATE "C"
  ON CONFLICT (phone, day, caller) DO UPDATE SET region = coalesce(caller_days.region, excluded.region), calls = coalesce(caller_days.calls, 0) + excluded.calls
),
add_to_form_item_days AS (
  INSERT INTO form_item_days (phone, day, form_item_id, ${COUNTER_COLUMNS})
  SELECT phone, day, form_item_id, ${PATH_STEP_COUNTERS.map((counter) => `sum(${counter})`).join(', ')}
  FROM (${pathEntries('stored', ['phone', 'day'])}) AS entry
  GROUP BY phone, day, form_item_id ORDER BY phone COLLATE "C", day, form_item_id
  ON CONFLICT (phone, day, form_item_id) DO UPDATE SET ${addedTo('form_item_days', PATH_STEP_COUNTERS)}
)`;
  return days + (version2 ? version2Only : '');
}

const sumOf = (version2: boolean, column: string, table = '') => (version2 || VERSION_1_SUMS.has(column) ? `sum(${table}${column})` : '0');

/** A batch's sums of one owner's day, as STORED_ACCOUNT_DAYS returns them (bigints as text). */
export type AccountDayDelta = { readonly account_id: string; readonly day: number } & Readonly<Record<(typeof DAY_COLUMNS)[number], string>>;

/** The select that ends an ingest: the sums of `stored` per owner and day, each row with the count of calls inserted. None when none was. */
export const storedAccountDays = (version2: boolean): string => `
SELECT (SELECT count(*) FROM inserted)::integer AS inserted, owner.account_id, stored.day, count(*)::text AS calls,
  ${DAY_SUMS.map(({ column }) => `${sumOf(version2, column, 'stored.')}::text AS ${column}`).join(', ')}
FROM stored JOIN phones owner ON owner.phone = stored.phone
GROUP BY owner.account_id, stored.day`;

/**
 * A batch's sums per owner and day added to account_daily_rollups, and the owners' data versions raised,
 * in a statement of their own at the end of the batch's transaction. Concurrent batches of one account's
 * calls meet at these rows; written last, they are held only from here to the commit, not through the
 * batch's other writes, so a batch waits for another's commit at most (docs/scaling.md measures it). Days
 * first, sorted, then the versions, read from the days: a number's assignment or release locks the same
 * rows in the same order, so neither waits for the other holding what the other needs.
 */
export async function addToAccountDays(client: PoolClient, deltas: readonly AccountDayDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  await client.query(
    `WITH add_to_account_days AS (
       INSERT INTO account_daily_rollups (account_id, day, ${DAY_COLUMNS.join(', ')})
       SELECT * FROM unnest($1::text[], $2::integer[], ${DAY_COLUMNS.map((_, index) => `$${index + 3}::bigint[]`).join(', ')})
         AS delta(account_id, day, ${DAY_COLUMNS.join(', ')})
       ORDER BY account_id COLLATE "C", day
       ON CONFLICT (account_id, day) DO UPDATE SET ${addedTo('account_daily_rollups', DAY_COLUMNS)}
       RETURNING account_id
     )
     INSERT INTO account_data_versions (account_id, version)
     SELECT DISTINCT account_id, 1 FROM add_to_account_days ORDER BY account_id
     ON CONFLICT (account_id) DO UPDATE SET version = account_data_versions.version + 1`,
    [deltas.map((delta) => delta.account_id), deltas.map((delta) => delta.day), ...DAY_COLUMNS.map((column) => deltas.map((delta) => delta[column]))],
  );
}

/**
 * Adds a number's daily rollups to its owner's days (`sign` 1, once it is assigned and its rollups are
 * rebuilt) or takes them away (-1, as it is released); days in order, as an ingest locks them.
 */
export async function moveIntoAccountDays(client: PoolClient, phone: string, accountId: string, sign: 1 | -1): Promise<void> {
  await client.query(
    `INSERT INTO account_daily_rollups (account_id, day, ${DAY_COLUMNS.join(', ')})
     SELECT $2, day, ${DAY_COLUMNS.map((column) => `$3::bigint * ${column}`).join(', ')} FROM daily_rollups WHERE phone = $1 ORDER BY day
     ON CONFLICT (account_id, day) DO UPDATE SET ${addedTo('account_daily_rollups', DAY_COLUMNS)}`,
    [phone, accountId, sign],
  );
}

/** The account's days summed again from the daily rollups of its numbers, once those are rebuilt in a new time zone. */
export async function recomputeAccountDays(client: PoolClient, accountId: string): Promise<void> {
  await allowLongStatements(client);
  await longQuery(client, 'DELETE FROM account_daily_rollups WHERE account_id = $1', [accountId]);
  await longQuery(
    client,
    `INSERT INTO account_daily_rollups (account_id, day, ${DAY_COLUMNS.join(', ')})
     SELECT $1, days.day, ${DAY_COLUMNS.map((column) => `sum(days.${column})`).join(', ')}
     FROM daily_rollups days JOIN phones ON phones.phone = days.phone WHERE phones.account_id = $1
     GROUP BY days.day`,
    [accountId],
  );
}

const MS_PER_MINUTE = 60_000;

/** The spans of $2-$4 joined to the rows of `alias` that they cover. */
const inSpans = (alias: string) => `JOIN unnest($2::bigint[], $3::bigint[], $4::bigint[]) AS span(start_ms, end_ms, offset_ms)
     ON ${alias}.started_at >= span.start_ms AND ${alias}.started_at < span.end_ms`;

/** The local day of a row of `alias` in the offset of its span. */
const localDay = (alias: string) => `floor((${alias}.started_at + span.offset_ms)::numeric / 86400000)::integer`;

/** Below any local day a rollup holds (an integer column). */
const FIRST_DAY = -2_147_483_648;

/** region_days: its days rebuilt move to caller_days (migration 012). */
const ROLLUP_TABLES = ['daily_rollups', 'caller_days', 'region_days', 'form_item_days'] as const;

/** One per rollup table written, from the calls or paths of the phones in $1. */
const REBUILDS = [
  `INSERT INTO daily_rollups (phone, day, calls, ${SUM_COLUMNS})
   SELECT c.phone, ${localDay('c')}, count(*), ${DAY_SUMS.map(({ column }) => `sum(c.${column})`).join(', ')}
   FROM calls c ${inSpans('c')}
   WHERE c.phone = ANY($1::text[])
   GROUP BY 1, 2`,
  `INSERT INTO caller_days (phone, day, caller, region, calls)
   SELECT c.phone, ${localDay('c')}, c.caller, min(c.region), count(*)
   FROM calls c ${inSpans('c')}
   WHERE c.phone = ANY($1::text[]) AND c.caller IS NOT NULL
   GROUP BY 1, 2, 3`,
  // Paths stored before migration 6 are rows of call_path; later ones are arrays on their calls row.
  `INSERT INTO form_item_days (phone, day, form_item_id, ${COUNTER_COLUMNS})
   SELECT p.phone, ${localDay('p')}, p.form_item_id, ${PATH_STEP_COUNTERS.map((counter) => `sum(p.${counter})`).join(', ')}
   FROM (
     SELECT phone, started_at, form_item_id, ${COUNTER_COLUMNS} FROM call_path WHERE phone = ANY($1::text[])
     UNION ALL
     ${pathEntries('calls', ['phone', 'started_at'])} AND calls.phone = ANY($1::text[])
   ) AS p ${inSpans('p')}
   GROUP BY 1, 2, 3`,
];

/**
 * Deletes every call of these numbers (those of a deleted account) and every rollup of them, inside the
 * caller's transaction: by each table's index led by the number, in every month's partition, so a number
 * costs its own rows. Their ids stay in call_ids.
 */
export async function deleteCallsOf(client: PoolClient, phones: readonly string[]): Promise<void> {
  if (phones.length === 0) return;
  await allowLongStatements(client);
  // call_path holds the paths of calls stored before migration 6.
  for (const table of ['calls', 'call_path', ...ROLLUP_TABLES]) await longQuery(client, `DELETE FROM ${table} WHERE phone = ANY($1::text[])`, [phones]);
}

/**
 * Recomputes the rollups of these phones from their calls and paths, in `timeZone` (every day, or after
 * retention only those from the first whole local day of the calls kept), inside the
 * database: this process lists the spans of one UTC offset that the calls cover (from the same zone data
 * as the rollups written on ingest), and one statement per rollup table buckets the rows by the local
 * day their span gives. Nothing per call leaves the database, so an account of millions of calls moves
 * in bounded memory.
 */
export async function rebuildRollups(client: PoolClient, phones: readonly string[], timeZone: string): Promise<void> {
  if (phones.length === 0) return;
  await allowLongStatements(client);
  // Held before the horizon is read: retention's DROP of a month waits for this rebuild, and a rebuild that
  // waited for a drop reads the horizon it recorded. Otherwise a month could go between the two reads,
  // and the rows of its days, deleted here, would not be computed again.
  await longQuery(client, 'LOCK TABLE calls IN ACCESS SHARE MODE');
  // Past retention's horizon (rebuild-from.ts), only the days whose calls are all kept; the spans listed
  // from the first kept call on leave out the calls before it.
  const from = rebuildFrom(await retentionHorizon(client), timeZone);
  const fromDay = from?.day ?? FIRST_DAY;
  for (const table of ROLLUP_TABLES) await longQuery(client, `DELETE FROM ${table} WHERE phone = ANY($1::text[]) AND day >= $2`, [phones, fromDay]);
  const range = await longQuery<{ first: string | null; last: string | null }>(
    client,
    'SELECT min(started_at) AS first, max(started_at) AS last FROM calls WHERE phone = ANY($1::text[]) AND started_at >= $2',
    [phones, from?.startMs ?? Number.MIN_SAFE_INTEGER],
  );
  const { first, last } = range.rows[0] ?? { first: null, last: null };
  if (first === null || last === null) return;
  const spans = offsetSpans(timeZone, Number(first), Number(last));
  const values = [
    phones,
    spans.map((span) => span.startMs),
    spans.map((span) => span.endMs),
    spans.map((span) => Math.round(span.offsetMinutes * MS_PER_MINUTE)),
  ];
  for (const rebuild of REBUILDS) await longQuery(client, rebuild, values);
}
