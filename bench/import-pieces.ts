/**
 * The pieces of a version-2 import's cost that bench/admin-import.ts (into memory) and bench/postgres.ts
 * (into PostgreSQL) take out, each by a stand-in of an interface the app or its store is made of, as
 * bench/pieces.ts does for a request's fixed cost: the import with a piece against the import without it,
 * in the same rounds, says what the piece costs. The stand-ins keep the import's outcome (every record
 * inserted, none refused) and leave the reports wrong, which no import figure reads.
 */
import type { CallRecord, PathStep } from '../src/domain/call-record';
import type * as CallRollupsModule from '../src/storage/memory/call-rollups';
import type * as FormItemTableModule from '../src/storage/memory/form-item-table';
import type { MemoryStoreParts } from '../src/storage/memory/memory-data';
import type { AddCallsResult, Store } from '../src/storage/store';
import { compiled } from './compiled';

/** Pieces of an import into memory taken out in turn, then all of them; 'the store' alone, as a figure of its own. */
export const MEMORY_IMPORT_PIECES = ['caller placement', 'record checks', 'form-item keys', 'rollups'] as const;
export const ALL_MEMORY_IMPORT_PIECES = 'all four';
/** Pieces of an import into PostgreSQL taken out in turn. */
export const POSTGRES_IMPORT_PIECES = ['record checks', 'callers', 'paths', 'the database'] as const;

export type ImportPiece = (typeof MEMORY_IMPORT_PIECES)[number] | (typeof POSTGRES_IMPORT_PIECES)[number] | 'the store';

/** What the admin API posts as a record, as JSON.parse gives it back. */
interface WireRecord {
  readonly call_id: string;
  readonly phone: string;
  readonly started_at: string;
  readonly log_events: number;
  readonly loops: number;
  readonly form_items: number;
  readonly caller?: string;
  readonly duration_seconds?: number;
  readonly transfers?: number;
  readonly transfer_seconds?: number;
  readonly js_errors?: number;
  readonly fetch_errors?: number;
  readonly page_loads?: number;
  readonly page_load_seconds?: number;
  readonly path?: readonly PathStep[];
}

const milliseconds = (seconds: number | undefined) => (seconds === undefined ? undefined : Math.round(seconds * 1000));

/**
 * The record checks out: a line's parsed JSON taken as the call it names, its fields read as they are
 * (the instant by Date.parse, seconds into milliseconds), nothing checked; JSON.parse itself stays, as the
 * bare server pays it too.
 */
export function uncheckedCallRecord(value: unknown): CallRecord {
  const wire = value as WireRecord;
  return {
    callId: wire.call_id,
    phone: wire.phone,
    startedAt: Date.parse(wire.started_at),
    logEvents: wire.log_events,
    loops: wire.loops,
    formItems: wire.form_items,
    caller: wire.caller,
    durationMs: milliseconds(wire.duration_seconds),
    transfers: wire.transfers,
    transferMs: milliseconds(wire.transfer_seconds),
    jsErrors: wire.js_errors,
    fetchErrors: wire.fetch_errors,
    pageLoads: wire.page_loads,
    pageLoadMs: milliseconds(wire.page_load_seconds),
    path: wire.path !== undefined && wire.path.length > 0 ? wire.path : undefined,
  };
}

/** Ten states, one per last digit of a caller: as many regions a day as placed callers give, without libphonenumber. */
const STAND_IN_REGIONS = ['US-CA', 'US-NY', 'US-TX', 'US-FL', 'US-PA', 'US-IL', 'US-OH', 'US-GA', 'US-MA', 'US-WA'];
const placeByLastDigit = (caller: string): string => STAND_IN_REGIONS[caller.charCodeAt(caller.length - 1) % 10] as string;

/**
 * The memory store's parts with `pieces` out: callers placed by their last digit (not libphonenumber), form
 * items found by their item's name alone (the demo's are unique; no key of four texts joined), no rollups
 * kept (the day totals, callers, regions and form items of each day).
 */
export async function memoryStoreParts(pieces: readonly ImportPiece[]): Promise<MemoryStoreParts> {
  const { FormItemTable } = await compiled<typeof FormItemTableModule>('storage/memory/form-item-table');
  const { CallRollups } = await compiled<typeof CallRollupsModule>('storage/memory/call-rollups');
  class FormItemsByItem extends FormItemTable {
    private readonly byItem = new Map<string, number>();

    override intern(formItem: Parameters<FormItemTableModule.FormItemTable['intern']>[0]): number {
      let id = this.byItem.get(formItem.item);
      if (id === undefined) {
        id = super.intern(formItem);
        this.byItem.set(formItem.item, id);
      }
      return id;
    }
  }
  class NoRollups extends CallRollups {
    override add(): void {}
  }
  return {
    ...(pieces.includes('caller placement') ? { placeCaller: placeByLastDigit } : {}),
    ...(pieces.includes('form-item keys') ? { formItems: new FormItemsByItem() } : {}),
    ...(pieces.includes('rollups') ? { rollups: (...made: ConstructorParameters<typeof CallRollups>) => new NoRollups(...made) } : {}),
  };
}

const withCalls = (store: Store, add: Store['calls']['add']): Store => ({ ...store, calls: { ...store.calls, add } });

/**
 * `store` with `piece` out of its calls.add: the callers or the paths taken off the records on their way
 * in (on PostgreSQL: the placement, the caller and region columns and the caller_days and region_days
 * rollups; or the form items' ids, the path columns and form_item_days), or nothing stored at all, every
 * record answered as inserted ('the store', 'the database').
 */
export function storeWithout(store: Store, piece: ImportPiece): Store {
  switch (piece) {
    case 'callers':
      return withCalls(store, (records) => store.calls.add(records.map((record) => ({ ...record, caller: undefined }))));
    case 'paths':
      return withCalls(store, (records) => store.calls.add(records.map((record) => ({ ...record, path: undefined }))));
    case 'the store':
    case 'the database':
      return withCalls(store, (records) => Promise.resolve<AddCallsResult>({ inserted: records.length, duplicates: 0, unknownPhone: [] }));
    default:
      return store;
  }
}
