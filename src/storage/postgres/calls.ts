import type { Pool } from 'pg';
import { PATH_STEP_COUNTERS, pathStepCounters, type PathStep, type PathStepCounter } from '../../domain/call-record';
import type { Region } from '../../domain/caller-region';
import type { CallRepository, DayTotals } from '../store';
import { ingestCalls } from './ingest';
import { FormItemIds } from './paths';
import { DAY_SUMS } from './rollups';
import { inTransaction } from './transaction';

/**
 * Every day's totals in one text, "day,calls,log_events,... day,calls,...", rather than a row per day:
 * pg reads a result a field at a time, and a year of days is thousands of fields, which cost the reader
 * more than the database's whole query.
 */
const DAILY_TOTALS = `
SELECT string_agg(concat_ws(',', day, calls, ${DAY_SUMS.map(({ column }) => column).join(', ')}), ' ' ORDER BY day) AS days
FROM (
  SELECT day, sum(calls) AS calls, ${DAY_SUMS.map(({ column }) => `sum(${column}) AS ${column}`).join(', ')}
  FROM daily_rollups WHERE phone = ANY($1::text[]) AND day BETWEEN $2 AND $3
  GROUP BY day HAVING sum(calls) > 0
) AS totals`;

function dayTotalsOf(line: string): DayTotals {
  const values = line.split(',').map(Number);
  const totals: Record<string, number> = { day: values[0] as number, calls: values[1] as number };
  DAY_SUMS.forEach(({ field }, index) => (totals[field] = values[index + 2] as number));
  return totals as unknown as DayTotals;
}

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
  const formItemIds = new FormItemIds();
  return {
    add: async (records) => {
      const { result, learnt } = await inTransaction(pool, (client) => ingestCalls(client, records, formItemIds));
      formItemIds.remember(learnt);
      return result;
    },
    // The reads of reports are named, so that each connection parses and plans them once.
    dailyTotals: async (phones, from, to) => {
      if (phones.length === 0) return [];
      const { rows } = await pool.query<{ days: string | null }>({ name: 'daily-totals', text: DAILY_TOTALS, values: [phones, from, to] });
      const days = rows[0]?.days;
      return days === null || days === undefined ? [] : days.split(' ').map(dayTotalsOf);
    },
    distinctCallers: async (phones, spans) => {
      if (phones.length === 0) return spans.map(() => 0);
      const { rows } = await pool.query<{ callers: string }>({
        name: 'distinct-callers',
        text: DISTINCT_CALLERS,
        values: [phones, spans.map((span) => span.first), spans.map((span) => span.last)],
      });
      return rows.map((row) => Number(row.callers));
    },
    regionTotals: async (phones, from, to) => {
      if (phones.length === 0) return [];
      const { rows } = await pool.query<{ region: Region; calls: string }>({ name: 'region-totals', text: REGION_TOTALS, values: [phones, from, to] });
      return rows.map((row) => ({ region: row.region, calls: Number(row.calls) }));
    },
    formItemTotals: async (phones, from, to, limit) => {
      if (phones.length === 0) return [];
      const { rows } = await pool.query<FormItemRow>({ name: 'form-item-totals', text: FORM_ITEM_TOTALS, values: [phones, from, to, limit] });
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
