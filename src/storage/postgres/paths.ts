import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { PATH_STEP_COUNTERS, type CallRecord, type PathStep } from '../../domain/call-record';

/** JSON quotes and escapes each text, so that two different sets of four texts never give one digest. */
const digestOf = (step: PathStep): Buffer =>
  createHash('sha256').update(JSON.stringify([step.application, step.page, step.form, step.item])).digest();

/** PostgreSQL text cannot hold NUL, so no stored text contains the separator. */
const keyOf = (step: PathStep): string => `${step.application}\u0000${step.page}\u0000${step.form}\u0000${step.item}`;

/** Past this many remembered ids the cache starts afresh, bounding its memory against a stream of new items. */
const MAX_REMEMBERED = 100_000;

/** Ids as pg reads a bigint: text. */
export type FormItemIdOf = (step: PathStep) => string;

/** What a batch learnt about form items: every id its paths need, and those to remember once it commits. */
export interface BatchFormItemIds {
  readonly idOf: FormItemIdOf;
  readonly learnt: ReadonlyMap<string, string>;
}

/**
 * Saves the items, sorted by digest (the order in which concurrent writers take form_items' unique-index
 * locks), and reads back all their ids. Known items are left out before the insert, because ON CONFLICT
 * alone would still draw an identity value for each of them. An item that a concurrent batch is inserting
 * makes the insert wait for it, so the next statement sees every item, whoever inserted it.
 */
async function saveFormItems(client: PoolClient, items: ReadonlyMap<string, PathStep>): Promise<Map<string, string>> {
  const digested = [...items].map(([key, step]) => ({ key, step, digest: digestOf(step) })).sort((a, b) => Buffer.compare(a.digest, b.digest));
  const digests = digested.map(({ digest }) => digest);
  await client.query(
    `INSERT INTO form_items (digest, application, page, form, item)
     SELECT * FROM unnest($1::bytea[], $2::text[], $3::text[], $4::text[], $5::text[]) AS batch(digest, application, page, form, item)
     WHERE NOT EXISTS (SELECT 1 FROM form_items known WHERE known.digest = batch.digest)
     ORDER BY batch.digest
     ON CONFLICT (digest) DO NOTHING`,
    [digests, ...(['application', 'page', 'form', 'item'] as const).map((text) => digested.map(({ step }) => step[text]))],
  );
  const { rows } = await client.query<{ digest: Buffer; id: string }>('SELECT digest, id FROM form_items WHERE digest = ANY($1::bytea[])', [digests]);
  const idByDigest = new Map(rows.map((row) => [row.digest.toString('hex'), row.id]));
  return new Map(digested.map(({ key, digest }) => [key, idByDigest.get(digest.toString('hex')) as string]));
}

/**
 * The ids of form items, each stored once in form_items (unique on a SHA-256 of its four texts computed
 * here: a btree entry cannot hold 2,000 characters). Ids already read are remembered, so a batch of
 * known items costs no statement; an id is remembered only once the transaction that may have inserted
 * its item committed, and rows of form_items are never deleted, so a remembered id stays right.
 */
export class FormItemIds {
  private readonly remembered = new Map<string, string>();

  /** The ids of every item on the paths of `records`; items new to the database are inserted in this transaction. */
  async of(client: PoolClient, records: readonly CallRecord[]): Promise<BatchFormItemIds> {
    // Read into the batch's own map before any wait: a concurrent batch may empty the cache meanwhile.
    const ids = new Map<string, string>();
    const unknown = new Map<string, PathStep>();
    for (const record of records) {
      for (const step of record.path ?? []) {
        const key = keyOf(step);
        const id = this.remembered.get(key);
        if (id !== undefined) ids.set(key, id);
        else unknown.set(key, step);
      }
    }
    const learnt = unknown.size === 0 ? new Map<string, string>() : await saveFormItems(client, unknown);
    for (const [key, id] of learnt) ids.set(key, id);
    return { idOf: (step) => ids.get(keyOf(step)) as string, learnt };
  }

  /** Call once the batch's transaction committed. */
  remember(learnt: ReadonlyMap<string, string>): void {
    if (this.remembered.size + learnt.size > MAX_REMEMBERED) this.remembered.clear();
    for (const [key, id] of learnt) this.remembered.set(key, id);
  }
}

/**
 * A call's path as the two array columns of its calls row, each as an element of a text[] parameter:
 * the form item ids in path order, and a (steps x 6) array of their counters in PATH_STEP_COUNTERS
 * order. NULL for a call without a path.
 */
export interface PathColumns {
  readonly ids: string | undefined;
  readonly counters: string | undefined;
}

export function pathColumns(path: readonly PathStep[] | undefined, idOf: FormItemIdOf): PathColumns {
  if (path === undefined || path.length === 0) return { ids: undefined, counters: undefined };
  const ids = path.map(idOf);
  const counters = path.map((step) => `{${PATH_STEP_COUNTERS.map((counter) => step[counter]).join(',')}}`);
  return { ids: `{${ids.join(',')}}`, counters: `{${counters.join(',')}}` };
}
