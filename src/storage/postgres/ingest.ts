import type { PoolClient } from 'pg';
import type { CallRecord } from '../../domain/call-record';
import { regionOfCaller } from '../../domain/caller-region';
import { localEpochDay } from '../../time/calendar';
import type { AddCallsResult } from '../store';
import { integerArray, textArray } from './array-literals';
import { pathColumns, type FormItemIdOf, type FormItemIds } from './paths';
import { ADD_STORED_TO_ROLLUPS } from './rollups';

/** The columns of a batch, in the order of INGEST's parameters: those of calls, and `day`, each call's local day. */
const BATCH_COLUMNS = [
  ['call_id', 'text'],
  ['phone', 'text'],
  ['started_at', 'bigint'],
  ['log_events', 'integer'],
  ['loops', 'integer'],
  ['form_items', 'integer'],
  ['caller', 'text'],
  ['region', 'text'],
  ['duration_ms', 'bigint'],
  ['transfers', 'integer'],
  ['transfer_ms', 'bigint'],
  ['js_errors', 'integer'],
  ['fetch_errors', 'integer'],
  ['page_loads', 'integer'],
  ['page_load_ms', 'bigint'],
  ['day', 'integer'],
  ['path_form_item_ids', 'bigint[]'],
  ['path_counters', 'integer[]'],
] as const;

const STORED_COLUMNS = BATCH_COLUMNS.map(([column]) => column).filter((column) => column !== 'day');

/**
 * The whole ingest of a batch in one statement: the batch's columns unnested, its calls inserted in
 * call-id order (so that imports sharing call ids take the index locks in one order), and only the calls
 * inserted added to every rollup and to their owners' data versions, by the CTEs that follow.
 */
const INGEST = `
WITH batch AS (
  SELECT ${BATCH_COLUMNS.map(([column, type]) => (type.endsWith('[]') ? `${column}::${type} AS ${column}` : column)).join(', ')}
  FROM unnest(${BATCH_COLUMNS.map(([, type], index) => `$${index + 1}::${type.endsWith('[]') ? 'text' : type}[]`).join(', ')})
    AS batch(${BATCH_COLUMNS.map(([column]) => column).join(', ')})
),
inserted AS (
  INSERT INTO calls (${STORED_COLUMNS.join(', ')})
  SELECT ${STORED_COLUMNS.join(', ')} FROM batch ORDER BY call_id COLLATE "C"
  ON CONFLICT (call_id) DO NOTHING
  RETURNING call_id
),
stored AS (SELECT * FROM batch WHERE call_id IN (SELECT call_id FROM inserted)),
${ADD_STORED_TO_ROLLUPS}
SELECT count(*)::integer AS inserted FROM inserted`;

/**
 * The time zone of each number's owner. FOR SHARE holds the owners still until commit: a time-zone
 * change or a move of a number waits, so every call is rolled up in the zone its owner has when the batch
 * commits.
 */
async function ownersTimeZones(client: PoolClient, records: readonly CallRecord[]): Promise<Map<string, string>> {
  const phones = [...new Set(records.map((record) => record.phone))];
  const { rows } = await client.query<{ phone: string; time_zone: string }>(
    `SELECT phones.phone, accounts.time_zone FROM phones JOIN accounts ON accounts.id = phones.account_id
     WHERE phones.phone = ANY($1::text[]) FOR SHARE`,
    [phones],
  );
  return new Map(rows.map((row) => [row.phone, row.time_zone]));
}

/**
 * The calls as INGEST's parameters, each column an array literal. A call's region is placed here, once,
 * and kept on its row: a rebuild re-buckets it as stored. Its local day is computed here too, as the
 * memory store computes it. A path is an array literal within the literal, cast by INGEST.
 */
function batchParameters(calls: readonly CallRecord[], timeZones: ReadonlyMap<string, string>, idOf: FormItemIdOf): string[] {
  const paths = calls.map((call) => pathColumns(call.path, idOf));
  return [
    textArray(calls.map((call) => call.callId)),
    textArray(calls.map((call) => call.phone)),
    integerArray(calls.map((call) => call.startedAt)),
    integerArray(calls.map((call) => call.logEvents)),
    integerArray(calls.map((call) => call.loops)),
    integerArray(calls.map((call) => call.formItems)),
    textArray(calls.map((call) => call.caller)),
    textArray(calls.map((call) => (call.caller === undefined ? undefined : regionOfCaller(call.caller)))),
    integerArray(calls.map((call) => call.durationMs ?? 0)),
    integerArray(calls.map((call) => call.transfers ?? 0)),
    integerArray(calls.map((call) => call.transferMs ?? 0)),
    integerArray(calls.map((call) => call.jsErrors ?? 0)),
    integerArray(calls.map((call) => call.fetchErrors ?? 0)),
    integerArray(calls.map((call) => call.pageLoads ?? 0)),
    integerArray(calls.map((call) => call.pageLoadMs ?? 0)),
    integerArray(calls.map((call) => localEpochDay(call.startedAt, timeZones.get(call.phone) as string))),
    textArray(paths.map((path) => path.ids)),
    textArray(paths.map((path) => path.counters)),
  ];
}

/**
 * Adds a batch inside the caller's transaction, in a fixed number of statements whatever its size: the
 * owners locked, the form items new to the database saved (none once they are all known), then INGEST.
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
  const { idOf, learnt } = await formItemIds.of(client, candidates);
  const { rows } = await client.query<{ inserted: number }>(INGEST, batchParameters(candidates, timeZones, idOf));
  const inserted = (rows[0] as { inserted: number }).inserted;
  return { result: { inserted, duplicates: repeated + candidates.length - inserted, unknownPhone }, learnt };
}
