import { createLogger } from '../../src/logger';
import { createMemoryStore } from '../../src/storage/memory/memory-store';
import { openPostgresStore } from '../../src/storage/postgres/postgres-store';
import type { CallReads, ReplicaReads, Store } from '../../src/storage/store';
import { migratedTestSchema } from './migrated-schemas';
import { testReplicaUrl, type TestSchema } from './services';
import { DEPENDENCY_TIMEOUT_SECONDS } from './dependency-timeout';

interface Opened {
  readonly schema: TestSchema;
  readonly store: Store;
}

const opened: Promise<Opened>[] = [];

type Repository = Exclude<keyof Store, 'close' | 'dependencies' | 'replicas'>;

/** Every repository of a Store: a record, so that the type check names one added to Store and missing here. */
const REPOSITORY_NAMES: Record<Repository, true> = {
  accounts: true,
  phones: true,
  credentials: true,
  calls: true,
  rateLimits: true,
  surveySessions: true,
  scenarios: true,
};
const REPOSITORIES = Object.keys(REPOSITORY_NAMES) as Repository[];

const CALL_READ_NAMES: Record<keyof CallReads, true> = { dailyTotals: true, distinctCallers: true, regionTotals: true, formItemTotals: true };
const CALL_READS = Object.keys(CALL_READ_NAMES) as (keyof CallReads)[];

type Deferred = Record<string, (...values: unknown[]) => Promise<unknown>>;

/** An object whose every method waits for the store, then calls the same method of what `target` picks from it. */
function deferredTo(ready: Promise<Opened>, target: (store: Store) => object): Deferred {
  return new Proxy(
    {},
    {
      get:
        (_target, method: string) =>
        async (...args: unknown[]) => {
          const { store } = await ready;
          return (target(store) as Deferred)[method]!(...args);
        },
    },
  );
}

/**
 * A PostgreSQL store in a fresh schema, usable at once: the suites build their apps synchronously, so
 * every call waits for the schema and its migrations before it runs. With TEST_DATABASE_REPLICA_URL, the
 * reads of reports go to the replica, which a write just made has often not reached: both ways of
 * answering them are proven by every suite.
 */
function postgresTestStore(): Store {
  const ready = migratedTestSchema().then(async (schema) => ({
    schema,
    store: await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS, schema.pooler, {
      replicaUrls: schema.replicaUrl === undefined ? [] : [schema.replicaUrl],
    }),
  }));
  opened.push(ready);
  // Own methods, not a proxy: the app's store wraps each method of a report's reads to count its failures.
  const replicas: ReplicaReads = {
    readingAfter: (seen) => {
      const reads = deferredTo(ready, (store) => store.replicas?.readingAfter(seen) ?? store.calls);
      return Object.fromEntries(CALL_READS.map((method) => [method, reads[method]])) as unknown as CallReads;
    },
    counts: () => [],
  };
  return {
    ...(Object.fromEntries(REPOSITORIES.map((repository) => [repository, deferredTo(ready, (store) => store[repository])])) as unknown as Omit<
      Store,
      'close' | 'dependencies' | 'replicas'
    >),
    ...(testReplicaUrl === undefined ? {} : { replicas }),
    dependencies: [{ name: 'store', check: () => ready.then(({ store }) => Promise.all(store.dependencies.filter((dependency) => dependency.optional !== true).map((dependency) => dependency.check()))).then(() => undefined) }],
    close: () => Promise.resolve(),
  };
}

/**
 * The store of the HTTP suites: in memory, or on PostgreSQL when the "on PostgreSQL" jest project runs
 * them again (TEST_STORE=postgres), so the same HTTP behaviour is proven on both stores.
 */
export function createTestStore(): Store {
  return process.env.TEST_STORE === 'postgres' ? postgresTestStore() : createMemoryStore();
}

/** Closes the PostgreSQL stores made since the last call and drops their schemas. */
export async function closeTestStores(): Promise<void> {
  for (const pending of opened.splice(0)) {
    const { schema, store } = await pending;
    await store.close();
    await schema.drop();
  }
}
