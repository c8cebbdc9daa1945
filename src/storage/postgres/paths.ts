import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { PATH_STEP_COUNTERS, type CallRecord, type PathStep } from '../../domain/call-record';

/** JSON quotes and escapes each text, so that two different sets of four texts never give one key. */
const keyOf = (step: PathStep): string => JSON.stringify([step.application, step.page, step.form, step.item]);

/**
 * The distinct form items of a batch, in digest order, numbered from 1 as `WITH ORDINALITY` numbers
 * them: statements pass each entry's number instead of its texts, and the database turns the numbers
 * into ids (`itemIds`) without a round trip.
 */
export class BatchFormItems {
  readonly digests: Buffer[] = [];
  readonly texts: PathStep[] = [];
  private readonly ordinals = new Map<string, number>();

  constructor(records: readonly CallRecord[]) {
    const distinct = new Map<string, PathStep>();
    for (const record of records) {
      for (const step of record.path ?? []) {
        const key = keyOf(step);
        if (!distinct.has(key)) distinct.set(key, step);
      }
    }
    const digested = [...distinct].map(([key, step]) => ({ key, step, digest: createHash('sha256').update(key).digest() }));
    // Digest order is the order in which concurrent writers take form_items' unique-index locks.
    digested.sort((a, b) => Buffer.compare(a.digest, b.digest));
    digested.forEach(({ key, step, digest }, index) => {
      this.ordinals.set(key, index + 1);
      this.digests.push(digest);
      this.texts.push(step);
    });
  }

  ordinalOf(step: PathStep): number {
    return this.ordinals.get(keyOf(step)) as number;
  }
}

/** A CTE `item_ids(ordinal, id)` from the batch's digests in parameter `$param`; saveFormItems made them all. */
export const itemIds = (param: number): string => `item_ids AS (
  SELECT batch.ordinal, known.id FROM unnest($${param}::bytea[]) WITH ORDINALITY AS batch(digest, ordinal)
  JOIN form_items known ON known.digest = batch.digest)`;

/**
 * Gives every form item of the batch an id. Known items are left out before the insert, because
 * ON CONFLICT alone would still draw an identity value for each of them on every batch. An item that a
 * concurrent batch is inserting makes this statement wait for it, so afterwards every item is visible
 * to the next statements of the transaction. Ordered again in SQL, since an anti join need not keep the
 * order of the digests given.
 */
export async function saveFormItems(client: PoolClient, items: BatchFormItems): Promise<void> {
  if (items.digests.length === 0) return;
  await client.query(
    `INSERT INTO form_items (digest, application, page, form, item)
     SELECT * FROM unnest($1::bytea[], $2::text[], $3::text[], $4::text[], $5::text[]) AS batch(digest, application, page, form, item)
     WHERE NOT EXISTS (SELECT 1 FROM form_items known WHERE known.digest = batch.digest)
     ORDER BY batch.digest
     ON CONFLICT (digest) DO NOTHING`,
    [
      items.digests,
      items.texts.map((step) => step.application),
      items.texts.map((step) => step.page),
      items.texts.map((step) => step.form),
      items.texts.map((step) => step.item),
    ],
  );
}

const COUNTERS = PATH_STEP_COUNTERS.join(', ');
const COUNTER_ARRAYS = PATH_STEP_COUNTERS.map((_, index) => `$${index + 6}::integer[]`).join(', ');

/** Keeps the path of each newly stored call, entry by entry, in one statement. */
export async function savePaths(client: PoolClient, records: readonly CallRecord[], items: BatchFormItems): Promise<void> {
  const entries = records.flatMap((record) => (record.path ?? []).map((step, index) => ({ record, step, index })));
  if (entries.length === 0) return;
  await client.query(
    `WITH ${itemIds(12)}
     INSERT INTO call_path (phone, call_id, step, started_at, form_item_id, ${COUNTERS})
     SELECT entry.phone, entry.call_id, entry.step, entry.started_at, item_ids.id, ${PATH_STEP_COUNTERS.map((counter) => `entry.${counter}`).join(', ')}
     FROM unnest($1::text[], $2::text[], $3::integer[], $4::bigint[], $5::integer[], ${COUNTER_ARRAYS})
       AS entry(phone, call_id, step, started_at, ordinal, ${COUNTERS})
     JOIN item_ids USING (ordinal)`,
    [
      entries.map(({ record }) => record.phone),
      entries.map(({ record }) => record.callId),
      entries.map(({ index }) => index),
      entries.map(({ record }) => record.startedAt),
      entries.map(({ step }) => items.ordinalOf(step)),
      ...PATH_STEP_COUNTERS.map((counter) => entries.map(({ step }) => step[counter])),
      items.digests,
    ],
  );
}
