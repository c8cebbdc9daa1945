import type { PoolClient } from 'pg';
import { localEpochDay, type EpochDay } from '../../time/calendar';
import { offsetSpans } from '../../time/zone-offsets';
import { allowLongStatements, longQuery } from './pool';

export interface RollupDelta {
  readonly phone: string;
  readonly day: EpochDay;
  readonly calls: number;
  readonly logEvents: number;
  readonly loops: number;
  readonly formItems: number;
}

interface Summable {
  readonly phone: string;
  readonly startedAt: number;
  readonly calls: number;
  readonly logEvents: number;
  readonly loops: number;
  readonly formItems: number;
}

/** Sums per phone and local day, sorted by phone then day so that concurrent writers lock rows in one order. */
export function sumByLocalDay(items: Iterable<Summable>, timeZoneOf: (phone: string) => string): RollupDelta[] {
  const sums = new Map<string, { phone: string; day: EpochDay; calls: number; logEvents: number; loops: number; formItems: number }>();
  for (const item of items) {
    const day = localEpochDay(item.startedAt, timeZoneOf(item.phone));
    const key = `${item.phone}|${day}`;
    const sum = sums.get(key);
    if (sum === undefined) {
      sums.set(key, { phone: item.phone, day, calls: item.calls, logEvents: item.logEvents, loops: item.loops, formItems: item.formItems });
    } else {
      sum.calls += item.calls;
      sum.logEvents += item.logEvents;
      sum.loops += item.loops;
      sum.formItems += item.formItems;
    }
  }
  return [...sums.values()].sort((a, b) => (a.phone === b.phone ? a.day - b.day : a.phone < b.phone ? -1 : 1));
}

/** Adds the deltas to the rollups in one statement. */
export async function addToRollups(client: PoolClient, deltas: readonly RollupDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  await client.query(
    `INSERT INTO daily_rollups (phone, day, calls, log_events, loops, form_items)
     SELECT * FROM unnest($1::text[], $2::integer[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[])
     ON CONFLICT (phone, day) DO UPDATE SET
       calls = daily_rollups.calls + excluded.calls,
       log_events = daily_rollups.log_events + excluded.log_events,
       loops = daily_rollups.loops + excluded.loops,
       form_items = daily_rollups.form_items + excluded.form_items`,
    [
      deltas.map((delta) => delta.phone),
      deltas.map((delta) => delta.day),
      deltas.map((delta) => delta.calls),
      deltas.map((delta) => delta.logEvents),
      deltas.map((delta) => delta.loops),
      deltas.map((delta) => delta.formItems),
    ],
  );
}

const MS_PER_MINUTE = 60_000;

/**
 * Recomputes the rollups of these phones from their calls, in `timeZone`, inside the database: this
 * process lists the spans of one UTC offset that the calls cover (from the same zone data as the
 * rollups written on ingest), and one statement buckets every call by the local day its span gives.
 * Nothing per call leaves the database, so an account of millions of calls moves in bounded memory.
 */
export async function rebuildRollups(client: PoolClient, phones: readonly string[], timeZone: string): Promise<void> {
  if (phones.length === 0) return;
  await allowLongStatements(client);
  await longQuery(client, 'DELETE FROM daily_rollups WHERE phone = ANY($1::text[])', [phones]);
  const range = await longQuery<{ first: string | null; last: string | null }>(
    client,
    'SELECT min(started_at) AS first, max(started_at) AS last FROM calls WHERE phone = ANY($1::text[])',
    [phones],
  );
  const { first, last } = range.rows[0] ?? { first: null, last: null };
  if (first === null || last === null) return;
  const spans = offsetSpans(timeZone, Number(first), Number(last));
  await longQuery(
    client,
    `INSERT INTO daily_rollups (phone, day, calls, log_events, loops, form_items)
     SELECT c.phone, floor((c.started_at + s.offset_ms)::numeric / 86400000)::integer, count(*),
            sum(c.log_events), sum(c.loops), sum(c.form_items)
     FROM calls c
     JOIN unnest($2::bigint[], $3::bigint[], $4::bigint[]) AS s(start_ms, end_ms, offset_ms)
       ON c.started_at >= s.start_ms AND c.started_at < s.end_ms
     WHERE c.phone = ANY($1::text[])
     GROUP BY 1, 2`,
    [
      phones,
      spans.map((span) => span.startMs),
      spans.map((span) => span.endMs),
      spans.map((span) => Math.round(span.offsetMinutes * MS_PER_MINUTE)),
    ],
  );
}
