import type { Pool } from 'pg';
import { compareText } from '../../domain/text-order';
import { PATH_STEP_COUNTERS, pathStepCounters, type PathStep, type PathStepCounter } from '../../domain/call-record';
import { regionOfCaller, type Region } from '../../domain/caller-region';
import type { CallRepository, DayTotals } from '../store';
import { BatchFormItems, saveFormItems, savePaths } from './paths';
import { addToRollups, DAY_SUMS, type StoredCall } from './rollups';
import { inTransaction } from './transaction';
import { raiseDataVersions } from './data-versions';

const INSERT_CALLS = `
INSERT INTO calls (call_id, phone, started_at, log_events, loops, form_items, caller, region,
                   duration_ms, transfers, transfer_ms, js_errors, fetch_errors, page_loads, page_load_ms)
SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::integer[], $5::integer[], $6::integer[], $7::text[], $8::text[],
                     $9::bigint[], $10::integer[], $11::bigint[], $12::integer[], $13::integer[], $14::integer[], $15::bigint[])
ON CONFLICT (call_id) DO NOTHING RETURNING call_id`;

const DAILY_TOTALS = `
SELECT day, sum(calls) AS calls, ${DAY_SUMS.map(({ column }) => `sum(${column}) AS ${column}`).join(', ')}
FROM daily_rollups WHERE phone = ANY($1::text[]) AND day BETWEEN $2 AND $3
GROUP BY day HAVING sum(calls) > 0 ORDER BY day`;

/**
 * Each span counted on its own (a caller of two spans counts in both) by a subquery per span, so that
 * each reads only its own days through the primary key; a span without callers counts 0.
 */
const DISTINCT_CALLERS = `
SELECT (
  SELECT count(DISTINCT caller) FROM caller_days
  WHERE phone = ANY($1::text[]) AND day BETWEEN span.first_day AND span.last_day
) AS callers
FROM unnest($2::integer[], $3::integer[]) WITH ORDINALITY AS span(first_day, last_day, ordinal)
ORDER BY span.ordinal`;

const REGION_TOTALS = `
SELECT region, sum(calls) AS calls FROM region_days
WHERE phone = ANY($1::text[]) AND day BETWEEN $2 AND $3
GROUP BY region`;

// The limit applies before the join, so that only the texts of the items returned are read.
const FORM_ITEM_TOTALS = `
SELECT known.application, known.page, known.form, known.item, ${PATH_STEP_COUNTERS.map((counter) => `totals.${counter}`).join(', ')}
FROM (
  SELECT form_item_id, ${PATH_STEP_COUNTERS.map((counter) => `sum(${counter}) AS ${counter}`).join(', ')}
  FROM form_item_days WHERE phone = ANY($1::text[]) AND day BETWEEN $2 AND $3
  GROUP BY form_item_id LIMIT $4
) AS totals
JOIN form_items known ON known.id = totals.form_item_id`;

type FormItemRow = Pick<PathStep, 'application' | 'page' | 'form' | 'item'> & Record<PathStepCounter, string>;

export function postgresCalls(pool: Pool): CallRepository {
  return {
    add: (records) =>
      inTransaction(pool, async (client) => {
        const phones = [...new Set(records.map((record) => record.phone))];
        // FOR SHARE holds the owners still until commit: a time-zone change or a move of a number
        // waits, so every call is rolled up in the zone its owner has when the batch commits.
        const owners = await client.query<{ phone: string; account_id: string; time_zone: string }>(
          `SELECT phones.phone, phones.account_id, accounts.time_zone FROM phones JOIN accounts ON accounts.id = phones.account_id
           WHERE phones.phone = ANY($1::text[]) FOR SHARE`,
          [phones],
        );
        const timeZoneByPhone = new Map(owners.rows.map((row) => [row.phone, row.time_zone]));
        const ownerByPhone = new Map(owners.rows.map((row) => [row.phone, row.account_id]));

        const unknownPhone: number[] = [];
        const candidates = new Map<string, StoredCall>();
        let duplicates = 0;
        // A call's region is placed once, here, and kept on its row: a rebuild re-buckets it as stored.
        records.forEach((record, position) => {
          if (!timeZoneByPhone.has(record.phone)) unknownPhone.push(position);
          else if (candidates.has(record.callId)) duplicates += 1;
          else candidates.set(record.callId, { record, region: record.caller === undefined ? undefined : regionOfCaller(record.caller) });
        });
        // Sorted by call id so that two imports that share call ids take the index locks in one order.
        const batch = [...candidates.values()].sort((a, b) => compareText(a.record.callId, b.record.callId));
        const inserted = await client.query<{ call_id: string }>(INSERT_CALLS, [
          batch.map(({ record }) => record.callId),
          batch.map(({ record }) => record.phone),
          batch.map(({ record }) => record.startedAt),
          batch.map(({ record }) => record.logEvents),
          batch.map(({ record }) => record.loops),
          batch.map(({ record }) => record.formItems),
          batch.map(({ record }) => record.caller ?? null),
          batch.map(({ region }) => region ?? null),
          batch.map(({ record }) => record.durationMs ?? 0),
          batch.map(({ record }) => record.transfers ?? 0),
          batch.map(({ record }) => record.transferMs ?? 0),
          batch.map(({ record }) => record.jsErrors ?? 0),
          batch.map(({ record }) => record.fetchErrors ?? 0),
          batch.map(({ record }) => record.pageLoads ?? 0),
          batch.map(({ record }) => record.pageLoadMs ?? 0),
        ]);
        const stored = inserted.rows.map((row) => candidates.get(row.call_id) as StoredCall);
        const storedRecords = stored.map(({ record }) => record);
        const items = new BatchFormItems(storedRecords);
        await saveFormItems(client, items);
        await savePaths(client, storedRecords, items);
        await addToRollups(client, stored, (phone) => timeZoneByPhone.get(phone) as string, items);
        await raiseDataVersions(
          client,
          storedRecords.map((record) => ownerByPhone.get(record.phone) as string),
        );
        duplicates += batch.length - stored.length;
        return { inserted: stored.length, duplicates, unknownPhone };
      }),
    dailyTotals: async (phones, from, to) => {
      if (phones.length === 0) return [];
      const { rows } = await pool.query<Record<string, string> & { day: number }>(DAILY_TOTALS, [phones, from, to]);
      return rows.map(
        (row): DayTotals => ({
          day: row.day,
          calls: Number(row.calls),
          ...(Object.fromEntries(DAY_SUMS.map(({ field, column }) => [field, Number(row[column])])) as Omit<DayTotals, 'day' | 'calls'>),
        }),
      );
    },
    distinctCallers: async (phones, spans) => {
      if (phones.length === 0) return spans.map(() => 0);
      const { rows } = await pool.query<{ callers: string }>(DISTINCT_CALLERS, [
        phones,
        spans.map((span) => span.first),
        spans.map((span) => span.last),
      ]);
      return rows.map((row) => Number(row.callers));
    },
    regionTotals: async (phones, from, to) => {
      if (phones.length === 0) return [];
      const { rows } = await pool.query<{ region: Region; calls: string }>(REGION_TOTALS, [phones, from, to]);
      return rows.map((row) => ({ region: row.region, calls: Number(row.calls) }));
    },
    formItemTotals: async (phones, from, to, limit) => {
      if (phones.length === 0) return [];
      const { rows } = await pool.query<FormItemRow>(FORM_ITEM_TOTALS, [phones, from, to, limit]);
      return rows.map(
        (row): PathStep => ({
          application: row.application,
          page: row.page,
          form: row.form,
          item: row.item,
          ...pathStepCounters((counter) => Number(row[counter])),
        }),
      );
    },
  };
}
