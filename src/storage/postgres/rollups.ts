import type { PoolClient } from 'pg';
import { compareText } from '../../domain/text-order';
import { PATH_STEP_COUNTERS, type CallRecord } from '../../domain/call-record';
import type { Region } from '../../domain/caller-region';
import { localEpochDay, type EpochDay } from '../../time/calendar';
import { offsetSpans } from '../../time/zone-offsets';
import type { DayTotals } from '../store';
import { itemIds, type BatchFormItems } from './paths';
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

/** A call that an ingest stored, with the region stored on its row. */
export interface StoredCall {
  readonly record: CallRecord;
  readonly region: Region | undefined;
}

interface PhoneDay {
  readonly phone: string;
  readonly day: EpochDay;
}

const byPhoneAndDay = (a: PhoneDay, b: PhoneDay): number => compareText(a.phone, b.phone) || a.day - b.day;

/** Rows sorted by phone, day and then `text`, so that concurrent writers lock rows in one order. */
const sortedBy = <Row extends PhoneDay>(rows: Iterable<Row>, text: (row: Row) => string): Row[] =>
  [...rows].sort((a, b) => byPhoneAndDay(a, b) || compareText(text(a), text(b)));

interface DayDelta extends PhoneDay {
  calls: number;
  /** In the order of DAY_SUMS. */
  readonly sums: number[];
}

interface RegionDelta extends PhoneDay {
  readonly region: Region;
  calls: number;
}

interface CallerDay extends PhoneDay {
  readonly caller: string;
}

interface FormItemDelta extends PhoneDay {
  readonly ordinal: number;
  /** In the order of PATH_STEP_COUNTERS. */
  readonly counters: number[];
}

/** What a batch adds to each rollup table, per phone and local day (computed in Node, as the memory store does). */
interface Deltas {
  readonly days: Map<string, DayDelta>;
  readonly callers: Map<string, CallerDay>;
  readonly regions: Map<string, RegionDelta>;
  readonly formItems: Map<string, FormItemDelta>;
}

function deltasOf(calls: readonly StoredCall[], timeZoneOf: (phone: string) => string, items: BatchFormItems): Deltas {
  const deltas: Deltas = { days: new Map(), callers: new Map(), regions: new Map(), formItems: new Map() };
  for (const { record, region } of calls) {
    const phoneDay = { phone: record.phone, day: localEpochDay(record.startedAt, timeZoneOf(record.phone)) };
    const dayKey = `${phoneDay.phone}|${phoneDay.day}`;
    let day = deltas.days.get(dayKey);
    if (day === undefined) {
      day = { ...phoneDay, calls: 0, sums: DAY_SUMS.map(() => 0) };
      deltas.days.set(dayKey, day);
    }
    day.calls += 1;
    DAY_SUMS.forEach(({ field }, index) => (day.sums[index] = (day.sums[index] as number) + (record[field] ?? 0)));
    if (record.caller !== undefined) deltas.callers.set(`${dayKey}|${record.caller}`, { ...phoneDay, caller: record.caller });
    if (region !== undefined) {
      const regionKey = `${dayKey}|${region}`;
      const counted = deltas.regions.get(regionKey);
      if (counted === undefined) deltas.regions.set(regionKey, { ...phoneDay, region, calls: 1 });
      else counted.calls += 1;
    }
    for (const step of record.path ?? []) {
      const ordinal = items.ordinalOf(step);
      const itemKey = `${dayKey}|${ordinal}`;
      const counted = deltas.formItems.get(itemKey);
      if (counted === undefined) deltas.formItems.set(itemKey, { ...phoneDay, ordinal, counters: PATH_STEP_COUNTERS.map((counter) => step[counter]) });
      else PATH_STEP_COUNTERS.forEach((counter, index) => (counted.counters[index] = (counted.counters[index] as number) + step[counter]));
    }
  }
  return deltas;
}

const SUM_COLUMNS = DAY_SUMS.map(({ column }) => column).join(', ');
const COUNTER_COLUMNS = PATH_STEP_COUNTERS.join(', ');
const addedTo = (table: string, columns: readonly string[]) => columns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ');

const ADD_TO_DAYS = `
INSERT INTO daily_rollups (phone, day, calls, ${SUM_COLUMNS})
SELECT * FROM unnest($1::text[], $2::integer[], $3::bigint[], ${DAY_SUMS.map((_, index) => `$${index + 4}::bigint[]`).join(', ')})
ON CONFLICT (phone, day) DO UPDATE SET ${addedTo('daily_rollups', ['calls', ...DAY_SUMS.map(({ column }) => column)])}`;

const ADD_TO_CALLER_DAYS = `
INSERT INTO caller_days (phone, day, caller) SELECT * FROM unnest($1::text[], $2::integer[], $3::text[])
ON CONFLICT (phone, day, caller) DO NOTHING`;

const ADD_TO_REGION_DAYS = `
INSERT INTO region_days (phone, day, region, calls) SELECT * FROM unnest($1::text[], $2::integer[], $3::text[], $4::bigint[])
ON CONFLICT (phone, day, region) DO UPDATE SET ${addedTo('region_days', ['calls'])}`;

// Sorted in SQL: only there are the ids known by which concurrent writers must lock in one order.
const ADD_TO_FORM_ITEM_DAYS = `
WITH ${itemIds(4)}
INSERT INTO form_item_days (phone, day, form_item_id, ${COUNTER_COLUMNS})
SELECT delta.phone, delta.day, item_ids.id, ${PATH_STEP_COUNTERS.map((counter) => `delta.${counter}`).join(', ')}
FROM unnest($1::text[], $2::integer[], $3::integer[], ${PATH_STEP_COUNTERS.map((_, index) => `$${index + 5}::bigint[]`).join(', ')})
  AS delta(phone, day, ordinal, ${COUNTER_COLUMNS})
JOIN item_ids USING (ordinal)
ORDER BY delta.phone, delta.day, item_ids.id
ON CONFLICT (phone, day, form_item_id) DO UPDATE SET ${addedTo('form_item_days', PATH_STEP_COUNTERS)}`;

/**
 * Adds the calls just stored to every rollup, one statement per rollup table whatever the number of
 * calls; a table with nothing to add is left alone. saveFormItems must have run for `items`.
 */
export async function addToRollups(
  client: PoolClient,
  calls: readonly StoredCall[],
  timeZoneOf: (phone: string) => string,
  items: BatchFormItems,
): Promise<void> {
  const deltas = deltasOf(calls, timeZoneOf, items);
  const days = [...deltas.days.values()].sort(byPhoneAndDay);
  if (days.length > 0) {
    await client.query(ADD_TO_DAYS, [
      days.map((delta) => delta.phone),
      days.map((delta) => delta.day),
      days.map((delta) => delta.calls),
      ...DAY_SUMS.map((_, index) => days.map((delta) => delta.sums[index])),
    ]);
  }
  const callers = sortedBy(deltas.callers.values(), (row) => row.caller);
  if (callers.length > 0) {
    await client.query(ADD_TO_CALLER_DAYS, [callers.map((row) => row.phone), callers.map((row) => row.day), callers.map((row) => row.caller)]);
  }
  const regions = sortedBy(deltas.regions.values(), (row) => row.region);
  if (regions.length > 0) {
    await client.query(ADD_TO_REGION_DAYS, [
      regions.map((row) => row.phone),
      regions.map((row) => row.day),
      regions.map((row) => row.region),
      regions.map((row) => row.calls),
    ]);
  }
  const formItems = [...deltas.formItems.values()];
  if (formItems.length > 0) {
    await client.query(ADD_TO_FORM_ITEM_DAYS, [
      formItems.map((row) => row.phone),
      formItems.map((row) => row.day),
      formItems.map((row) => row.ordinal),
      items.digests,
      ...PATH_STEP_COUNTERS.map((_, index) => formItems.map((row) => row.counters[index])),
    ]);
  }
}

const MS_PER_MINUTE = 60_000;

/** The spans of $2-$4 joined to the rows of `alias` that they cover. */
const inSpans = (alias: string) => `JOIN unnest($2::bigint[], $3::bigint[], $4::bigint[]) AS span(start_ms, end_ms, offset_ms)
     ON ${alias}.started_at >= span.start_ms AND ${alias}.started_at < span.end_ms`;

/** The local day of a row of `alias` in the offset of its span. */
const localDay = (alias: string) => `floor((${alias}.started_at + span.offset_ms)::numeric / 86400000)::integer`;

const ROLLUP_TABLES = ['daily_rollups', 'caller_days', 'region_days', 'form_item_days'] as const;

/** One per rollup table, from the calls or paths of the phones in $1. */
const REBUILDS = [
  `INSERT INTO daily_rollups (phone, day, calls, ${SUM_COLUMNS})
   SELECT c.phone, ${localDay('c')}, count(*), ${DAY_SUMS.map(({ column }) => `sum(c.${column})`).join(', ')}
   FROM calls c ${inSpans('c')}
   WHERE c.phone = ANY($1::text[])
   GROUP BY 1, 2`,
  `INSERT INTO caller_days (phone, day, caller)
   SELECT DISTINCT c.phone, ${localDay('c')}, c.caller
   FROM calls c ${inSpans('c')}
   WHERE c.phone = ANY($1::text[]) AND c.caller IS NOT NULL`,
  `INSERT INTO region_days (phone, day, region, calls)
   SELECT c.phone, ${localDay('c')}, c.region, count(*)
   FROM calls c ${inSpans('c')}
   WHERE c.phone = ANY($1::text[]) AND c.region IS NOT NULL
   GROUP BY 1, 2, 3`,
  `INSERT INTO form_item_days (phone, day, form_item_id, ${COUNTER_COLUMNS})
   SELECT p.phone, ${localDay('p')}, p.form_item_id, ${PATH_STEP_COUNTERS.map((counter) => `sum(p.${counter})`).join(', ')}
   FROM call_path p ${inSpans('p')}
   WHERE p.phone = ANY($1::text[])
   GROUP BY 1, 2, 3`,
];

/**
 * Recomputes every rollup of these phones from their calls and paths, in `timeZone`, inside the
 * database: this process lists the spans of one UTC offset that the calls cover (from the same zone data
 * as the rollups written on ingest), and one statement per rollup table buckets the rows by the local
 * day their span gives. Nothing per call leaves the database, so an account of millions of calls moves
 * in bounded memory.
 */
export async function rebuildRollups(client: PoolClient, phones: readonly string[], timeZone: string): Promise<void> {
  if (phones.length === 0) return;
  await allowLongStatements(client);
  for (const table of ROLLUP_TABLES) await longQuery(client, `DELETE FROM ${table} WHERE phone = ANY($1::text[])`, [phones]);
  const range = await longQuery<{ first: string | null; last: string | null }>(
    client,
    'SELECT min(started_at) AS first, max(started_at) AS last FROM calls WHERE phone = ANY($1::text[])',
    [phones],
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
