import type { Pool } from 'pg';
import { PATH_STEP_COUNTERS, pathStepCounters, type PathStep, type PathStepCounter } from '../../domain/call-record';
import type { Region } from '../../domain/caller-region';
import { monthsBetween, monthStart } from '../../time/months';
import { DayTotalsTable } from '../day-totals';
import { isAccountPhones, type CallReads, type CallRepository, type PhoneScope } from '../store';
import { DAY_LINE, parseDayTotals } from './day-totals-text';
import { ingestCalls } from './ingest';
import { CallPartitions, capRetentionHorizon, NO_PARTITION } from './partitions';
import { FormItemIds } from './paths';
import { ownedPhones } from './phones';
import { DAY_SUMS } from './rollups';
import { readsOn, type RowReads } from './row-reads';
import { inTransaction } from './transaction';

/** The numbers' days summed. */
const DAILY_TOTALS = `
SELECT string_agg(${DAY_LINE}, ' ' ORDER BY day) AS days FROM (
  SELECT day, sum(calls) AS calls, ${DAY_SUMS.map(({ column }) => `sum(${column}) AS ${column}`).join(', ')}
  FROM daily_rollups WHERE phone = ANY($1::text[]) AND day BETWEEN $2 AND $3
  GROUP BY day HAVING sum(calls) > 0
) AS totals`;

/**
 * Every number of an account, read from the account's own days: a row a day however many numbers, each
 * day already as text, nothing summed or turned into text on the way. A day left at zero by a released
 * number is skipped. The days come sorted from a subquery, which a plain aggregate reads in order (as
 * PostgreSQL's documentation of aggregates describes): a sort of its own costs less than the aggregate's.
 */
const ACCOUNT_DAILY_TOTALS = `
SELECT string_agg(line, ' ') AS days FROM (
  SELECT line FROM account_daily_rollups WHERE account_id = $1 AND day BETWEEN $2 AND $3 AND calls > 0 ORDER BY day
) AS days`;

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

/** Calls by region from their callers' rows, and from region_days for calls stored before migration 012. */
const REGION_TOTALS = `
SELECT region, sum(calls) AS calls FROM (
  SELECT region, calls FROM caller_days WHERE phone = ANY($1::text[]) AND day BETWEEN $2 AND $3 AND calls IS NOT NULL
  UNION ALL
  SELECT region, calls FROM region_days WHERE phone = ANY($1::text[]) AND day BETWEEN $2 AND $3
) AS placed
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
  const partitions = new CallPartitions(pool);
  return {
    add: async (records) => {
      const ingest = async () => {
        await partitions.prepare(records.map((record) => monthStart(record.startedAt)));
        return inTransaction(pool, (client) => ingestCalls(client, records, formItemIds));
      };
      let ingested: Awaited<ReturnType<typeof ingest>>;
      try {
        ingested = await ingest();
      } catch (error) {
        // A month this process knew was dropped since (retention, here or on another instance): made again.
        if ((error as { code?: unknown }).code !== NO_PARTITION) throw error;
        partitions.forget();
        ingested = await ingest();
      }
      formItemIds.remember(ingested.learnt);
      return ingested.result;
    },
    prepareMonths: (fromMs, toMs) => partitions.prepare(monthsBetween(fromMs, toMs)),
    dropRawCallsBefore: (cutoffMs, dryRun) => partitions.dropBefore(cutoffMs, dryRun),
    capRetentionHorizon: (latestMs) => capRetentionHorizon(pool, latestMs),
    ...postgresCallReads(readsOn(pool)),
  };
}

/**
 * The reads of reports, through `read`: on the primary, or on a replica (replicas.ts). They are named,
 * so that each connection parses and plans them once.
 */
export function postgresCallReads(read: RowReads): CallReads {
  const phonesOf = (scope: PhoneScope): Promise<readonly string[]> | readonly string[] =>
    isAccountPhones(scope) ? ownedPhones(read, scope.ownedBy) : scope;
  return {
    dailyTotals: async (scope, from, to) => {
      const table = new DayTotalsTable(from, to);
      if (!isAccountPhones(scope) && scope.length === 0) return table;
      const rows = await read<{ days: string | null }>(
        isAccountPhones(scope)
          ? { name: 'account-daily-totals', text: ACCOUNT_DAILY_TOTALS, values: [scope.ownedBy, from, to] }
          : { name: 'daily-totals', text: DAILY_TOTALS, values: [scope, from, to] },
      );
      const days = rows[0]?.days;
      return days === null || days === undefined ? table : parseDayTotals(days, table);
    },
    distinctCallers: async (scope, spans) => {
      const phones = await phonesOf(scope);
      if (phones.length === 0) return spans.map(() => 0);
      const rows = await read<{ callers: string }>({
        name: 'distinct-callers',
        text: DISTINCT_CALLERS,
        values: [phones, spans.map((span) => span.first), spans.map((span) => span.last)],
      });
      return rows.map((row) => Number(row.callers));
    },
    regionTotals: async (scope, from, to) => {
      const phones = await phonesOf(scope);
      if (phones.length === 0) return [];
      const rows = await read<{ region: Region; calls: string }>({ name: 'region-totals', text: REGION_TOTALS, values: [phones, from, to] });
      return rows.map((row) => ({ region: row.region, calls: Number(row.calls) }));
    },
    formItemTotals: async (scope, from, to, limit) => {
      const phones = await phonesOf(scope);
      if (phones.length === 0) return [];
      const rows = await read<FormItemRow>({ name: 'form-item-totals', text: FORM_ITEM_TOTALS, values: [phones, from, to, limit] });
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
