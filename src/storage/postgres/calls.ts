import type { Pool } from 'pg';
import type { CallRecord } from '../../domain/call-record';
import type { CallRepository, DayTotals } from '../store';
import { addToRollups, sumByLocalDay } from './rollups';
import { inTransaction } from './transaction';

interface TotalsRow {
  day: number;
  calls: string;
  log_events: string;
  loops: string;
  form_items: string;
}

export function postgresCalls(pool: Pool): CallRepository {
  return {
    add: (records) =>
      inTransaction(pool, async (client) => {
        const phones = [...new Set(records.map((record) => record.phone))];
        // FOR SHARE holds the owners still until commit: a time-zone change or a move of a number
        // waits, so every call is rolled up in the zone its owner has when the batch commits.
        const owners = await client.query<{ phone: string; time_zone: string }>(
          `SELECT phones.phone, accounts.time_zone FROM phones JOIN accounts ON accounts.id = phones.account_id
           WHERE phones.phone = ANY($1::text[]) FOR SHARE`,
          [phones],
        );
        const timeZoneByPhone = new Map(owners.rows.map((row) => [row.phone, row.time_zone]));

        const unknownPhone: number[] = [];
        const candidates = new Map<string, CallRecord>();
        let duplicates = 0;
        records.forEach((record, position) => {
          if (!timeZoneByPhone.has(record.phone)) unknownPhone.push(position);
          else if (candidates.has(record.callId)) duplicates += 1;
          else candidates.set(record.callId, record);
        });
        // Sorted by call id so that two imports that share call ids take the index locks in one order.
        const batch = [...candidates.values()].sort((a, b) => (a.callId < b.callId ? -1 : a.callId > b.callId ? 1 : 0));
        const inserted = await client.query<{ call_id: string }>(
          `INSERT INTO calls (call_id, phone, started_at, log_events, loops, form_items)
           SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::integer[], $5::integer[], $6::integer[])
           ON CONFLICT (call_id) DO NOTHING RETURNING call_id`,
          [
            batch.map((record) => record.callId),
            batch.map((record) => record.phone),
            batch.map((record) => record.startedAt),
            batch.map((record) => record.logEvents),
            batch.map((record) => record.loops),
            batch.map((record) => record.formItems),
          ],
        );
        const kept = inserted.rows.map((row) => candidates.get(row.call_id) as CallRecord);
        await addToRollups(
          client,
          sumByLocalDay(
            kept.map((record) => ({ ...record, calls: 1 })),
            (phone) => timeZoneByPhone.get(phone) as string,
          ),
        );
        duplicates += batch.length - kept.length;
        return { inserted: kept.length, duplicates, unknownPhone };
      }),
    dailyTotals: async (phones, from, to) => {
      if (phones.length === 0) return [];
      const { rows } = await pool.query<TotalsRow>(
        `SELECT day, sum(calls) AS calls, sum(log_events) AS log_events, sum(loops) AS loops, sum(form_items) AS form_items
         FROM daily_rollups WHERE phone = ANY($1::text[]) AND day BETWEEN $2 AND $3
         GROUP BY day HAVING sum(calls) > 0 ORDER BY day`,
        [phones, from, to],
      );
      return rows.map(
        (row): DayTotals => ({
          day: row.day,
          calls: Number(row.calls),
          logEvents: Number(row.log_events),
          loops: Number(row.loops),
          formItems: Number(row.form_items),
        }),
      );
    },
  };
}
