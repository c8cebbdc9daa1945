import type { PoolClient } from 'pg';
import { localEpochDay, type EpochDay } from '../../time/calendar';

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

interface MinuteRow {
  phone: string;
  minute: string;
  calls: string;
  log_events: string;
  loops: string;
  form_items: string;
}

/**
 * Recomputes the rollups of these phones from their calls, in `timeZone`. The database sums the calls
 * per UTC minute first, so Node sees at most one row per minute with calls; every zone offset in use is
 * a whole number of minutes, so a minute never straddles local midnight.
 */
export async function rebuildRollups(client: PoolClient, phones: readonly string[], timeZone: string): Promise<void> {
  if (phones.length === 0) return;
  await client.query('DELETE FROM daily_rollups WHERE phone = ANY($1::text[])', [phones]);
  const { rows } = await client.query<MinuteRow>(
    `SELECT phone, floor(started_at / ${MS_PER_MINUTE}.0)::bigint AS minute, count(*) AS calls, sum(log_events) AS log_events,
            sum(loops) AS loops, sum(form_items) AS form_items
     FROM calls WHERE phone = ANY($1::text[]) GROUP BY 1, 2`,
    [phones],
  );
  const deltas = sumByLocalDay(
    rows.map((row) => ({
      phone: row.phone,
      startedAt: Number(row.minute) * MS_PER_MINUTE,
      calls: Number(row.calls),
      logEvents: Number(row.log_events),
      loops: Number(row.loops),
      formItems: Number(row.form_items),
    })),
    () => timeZone,
  );
  await addToRollups(client, deltas);
}
