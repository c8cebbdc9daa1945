import { createLogger } from '../../src/logger';
import { createMemoryStore } from '../../src/storage/memory/memory-store';
import { openPostgresStore } from '../../src/storage/postgres/postgres-store';
import type { Store } from '../../src/storage/store';
import { createTestSchema, type TestSchema } from './services';
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

/**
 * A PostgreSQL store in a fresh schema, usable at once: the suites build their apps synchronously, so
 * every call waits for the schema and its migrations before it runs.
 */
function postgresTestStore(): Store {
  const ready = createTestSchema().then(async (schema) => ({ schema, store: await openPostgresStore(schema.url, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS) }));
  opened.push(ready);
  const deferred = (repository: Repository) =>
    new Proxy(
      {},
      {
        get:
          (_target, method: string) =>
          async (...args: unknown[]) => {
            const { store } = await ready;
            const target = store[repository] as unknown as Record<string, (...values: unknown[]) => Promise<unknown>>;
            return target[method]!(...args);
          },
      },
    );
  return {
    ...(Object.fromEntries(REPOSITORIES.map((repository) => [repository, deferred(repository)])) as Omit<Store, 'close' | 'dependencies'>),
    dependencies: [{ name: 'store', check: () => ready.then(({ store }) => Promise.all(store.dependencies.map((dependency) => dependency.check()))).then(() => undefined) }],
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
