import type { PoolClient } from 'pg';
import type { CallRecord } from '../../domain/call-record';
import { regionOfCaller } from '../../domain/caller-region';
import { localEpochDay } from '../../time/calendar';
import type { AddCallsResult } from '../store';
import { integerArray, textArray } from './array-literals';
import { pathColumns, type FormItemIds, type PathColumns } from './paths';
import { addStoredToRollups, addToAccountDays, storedAccountDays, type AccountDayDelta } from './rollups';

/** What a batch's columns are made from: its calls, the local day of each, and (version 2) their paths. */
interface BatchValues {
  readonly calls: readonly CallRecord[];
  readonly days: readonly number[];
  readonly paths: readonly PathColumns[];
}

interface BatchColumn {
  /** A column of calls, or `day`, each call's local day. */
  readonly column: string;
  readonly type: string;
  /** Whether only a version-2 record gives it a value; a batch without version-2 fields leaves it out. */
  readonly version2: boolean;
  /** The column's values as an array literal. */
  readonly literal: (batch: BatchValues) => string;
}

const column = (name: string, type: string, version2: boolean, literal: BatchColumn['literal']): BatchColumn => ({ column: name, type, version2, literal });
const counts = (name: string, type: string, value: (call: CallRecord) => number | undefined) =>
  column(name, type, true, ({ calls }) => integerArray(calls.map((call) => value(call) ?? 0)));

/** The columns of a batch, in the order of INGEST's parameters. A call's region is placed here, once, and kept on its row: a rebuild re-buckets it as stored. */
const BATCH_COLUMNS: readonly BatchColumn[] = [
  column('call_id', 'text', false, ({ calls }) => textArray(calls.map((call) => call.callId))),
  column('phone', 'text', false, ({ calls }) => textArray(calls.map((call) => call.phone))),
  column('started_at', 'bigint', false, ({ calls }) => integerArray(calls.map((call) => call.startedAt))),
  column('log_events', 'integer', false, ({ calls }) => integerArray(calls.map((call) => call.logEvents))),
  column('loops', 'integer', false, ({ calls }) => integerArray(calls.map((call) => call.loops))),
  column('form_items', 'integer', false, ({ calls }) => integerArray(calls.map((call) => call.formItems))),
  column('caller', 'text', true, ({ calls }) => textArray(calls.map((call) => call.caller))),
  column('region', 'text', true, ({ calls }) => textArray(calls.map((call) => (call.caller === undefined ? undefined : regionOfCaller(call.caller))))),
  counts('duration_ms', 'bigint', (call) => call.durationMs),
  counts('transfers', 'integer', (call) => call.transfers),
  counts('transfer_ms', 'bigint', (call) => call.transferMs),
  counts('js_errors', 'integer', (call) => call.jsErrors),
  counts('fetch_errors', 'integer', (call) => call.fetchErrors),
  counts('page_loads', 'integer', (call) => call.pageLoads),
  counts('page_load_ms', 'bigint', (call) => call.pageLoadMs),
  column('day', 'integer', false, ({ days }) => integerArray(days)),
  column('path_form_item_ids', 'bigint[]', true, ({ paths }) => textArray(paths.map((path) => path.ids))),
  column('path_counters', 'integer[]', true, ({ paths }) => textArray(paths.map((path) => path.counters))),
];

/**
 * The ingest of a batch but its owners' days, in one statement: the batch's columns unnested, its call
 * ids inserted in call-id order (so that imports sharing call ids take the index locks in one order) into
 * call_ids, which keeps them unique across the months of calls (migration 010), then the calls whose id
 * was new inserted into their month's partition and added to the rollups of their numbers by the CTEs
 * that follow; it answers their sums per owner and day, for addToAccountDays. A path is an array literal
 * within the literal, cast here.
 */
function ingestStatement(columns: readonly BatchColumn[], version2: boolean): string {
  const stored = columns.map(({ column: name }) => name).filter((name) => name !== 'day');
  return `
WITH batch AS (
  SELECT ${columns.map(({ column: name, type }) => (type.endsWith('[]') ? `${name}::${type} AS ${name}` : name)).join(', ')}
  FROM unnest(${columns.map(({ type }, index) => `$${index + 1}::${type.endsWith('[]') ? 'text' : type}[]`).join(', ')})
    AS batch(${columns.map(({ column: name }) => name).join(', ')})
),
inserted AS (
  INSERT INTO call_ids (call_id)
  SELECT call_id FROM batch ORDER BY call_id COLLATE "C"
  ON CONFLICT (call_id) DO NOTHING
  RETURNING call_id
),
stored AS (SELECT * FROM batch WHERE call_id IN (SELECT call_id FROM inserted)),
add_calls AS (
  INSERT INTO calls (${stored.join(', ')})
  SELECT ${stored.join(', ')} FROM stored
)${addStoredToRollups(version2)}
${storedAccountDays(version2)}`;
}

const VERSION_1_COLUMNS = BATCH_COLUMNS.filter((batchColumn) => !batchColumn.version2);

/**
 * The statement of a batch with version-2 fields, and the narrower one of a batch without (the columns
 * of calls that it leaves out keep their defaults): half the parameters, and no rollup that only version
 * 2 feeds. Not named: planned with each batch's arrays, the planner knows how many calls it has, where a
 * plan kept for any batch would guess.
 */
const INGEST = {
  version2: { columns: BATCH_COLUMNS, text: ingestStatement(BATCH_COLUMNS, true) },
  version1: { columns: VERSION_1_COLUMNS, text: ingestStatement(VERSION_1_COLUMNS, false) },
};

const hasVersion2Fields = (call: CallRecord): boolean =>
  call.caller !== undefined ||
  call.durationMs !== undefined ||
  call.transfers !== undefined ||
  call.transferMs !== undefined ||
  call.jsErrors !== undefined ||
  call.fetchErrors !== undefined ||
  call.pageLoads !== undefined ||
  call.pageLoadMs !== undefined ||
  call.path !== undefined;

/**
 * The time zone of each number's owner. FOR SHARE holds the owners still until commit: a time-zone
 * change or a move of a number waits, so every call is rolled up in the zone its owner has when the batch
 * commits. Each owner is locked before its number (PostgreSQL locks the rows of a result in the order of
 * its FROM list): a deletion of the account, which holds the account first, then makes the batch wait
 * before it holds any number of it, and the batch finds the account gone once it may go on.
 */
async function ownersTimeZones(client: PoolClient, records: readonly CallRecord[]): Promise<Map<string, string>> {
  const phones = [...new Set(records.map((record) => record.phone))];
  const { rows } = await client.query<{ phone: string; time_zone: string }>(
    `SELECT phones.phone, accounts.time_zone FROM accounts JOIN phones ON phones.account_id = accounts.id
     WHERE phones.phone = ANY($1::text[]) FOR SHARE`,
    [phones],
  );
  return new Map(rows.map((row) => [row.phone, row.time_zone]));
}

/**
 * Adds a batch inside the caller's transaction, in a fixed number of statements whatever its size: the
 * owners locked, the form items new to the database saved (none once they are all known), INGEST, then
 * the owners' days.
 * Returns the result and the form-item ids to remember once the transaction commits.
 */
export async function ingestCalls(
  client: PoolClient,
  records: readonly CallRecord[],
  formItemIds: FormItemIds,
): Promise<{ result: AddCallsResult; learnt: ReadonlyMap<string, string> }> {
  const timeZones = await ownersTimeZones(client, records);
  const unknownPhone: number[] = [];
  const seen = new Set<string>();
  const candidates: CallRecord[] = [];
  records.forEach((record, position) => {
    if (!timeZones.has(record.phone)) unknownPhone.push(position);
    else if (!seen.has(record.callId)) {
      seen.add(record.callId);
      candidates.push(record);
    }
  });
  const repeated = records.length - unknownPhone.length - candidates.length;
  if (candidates.length === 0) return { result: { inserted: 0, duplicates: repeated, unknownPhone }, learnt: new Map() };
  // A call's local day is computed here, as the memory store computes it.
  const days = candidates.map((call) => localEpochDay(call.startedAt, timeZones.get(call.phone) as string));
  const ingest = candidates.some(hasVersion2Fields) ? INGEST.version2 : INGEST.version1;
  let paths: PathColumns[] = [];
  let learnt: ReadonlyMap<string, string> = new Map();
  if (ingest === INGEST.version2) {
    const formItems = await formItemIds.of(client, candidates);
    paths = candidates.map((call) => pathColumns(call.path, formItems.idOf));
    learnt = formItems.learnt;
  }
  const values = { calls: candidates, days, paths };
  const { rows } = await client.query<AccountDayDelta & { inserted: number }>(
    ingest.text,
    ingest.columns.map((batchColumn) => batchColumn.literal(values)),
  );
  await addToAccountDays(client, rows);
  const inserted = rows[0]?.inserted ?? 0;
  return { result: { inserted, duplicates: repeated + candidates.length - inserted, unknownPhone }, learnt };
}
