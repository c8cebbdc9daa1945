import { failedDependency, marksFailures, onRejection } from '../storage/dependency-error';
import type { Store } from '../storage/store';
import type { AppMetrics } from './app-metrics';

type Counter = Pick<AppMetrics, 'dependencyWatched' | 'dependencyFailed'>;

const REPOSITORIES = ['accounts', 'phones', 'credentials', 'calls', 'rateLimits', 'surveySessions'] as const satisfies readonly (keyof Store)[];

/** The repository with each failure it marked counted against its dependency, then rethrown. */
function counting<Repository extends object>(repository: Repository, counter: Counter): Repository {
  return onRejection(repository, (error) => {
    const dependency = failedDependency(error);
    if (dependency !== undefined) counter.dependencyFailed(dependency);
    throw error;
  });
}

/**
 * The store as this app uses it, every failed call counted against the dependency the store marked it
 * with (src/storage/dependency-error.ts): here, once per failed call, whatever then becomes of the error
 * (a 500 from the error handler, a rate limit that fails open, a SOAP fault). Errors without a mark (a
 * bug in the memory store) are not a dependency's and are not counted. The readiness checks are not
 * store calls and are not counted. Only the repositories that mark their failures are wrapped: the
 * in-memory ones, on every report's path, are used as they are.
 */
export function countingDependencyErrors(store: Store, counter: Counter): Store {
  for (const dependency of store.dependencies) counter.dependencyWatched(dependency.name);
  const marking = REPOSITORIES.filter((name) => marksFailures(store[name]));
  const counted = Object.fromEntries(marking.map((name) => [name, counting(store[name], counter)])) as Partial<Pick<Store, (typeof REPOSITORIES)[number]>>;
  const { replicas } = store;
  // A report's reads on replicas fail only when the primary that took them over fails: counted as the store's.
  if (replicas !== undefined) return { ...store, ...counted, replicas: { ...replicas, readingAfter: (seen) => counting(replicas.readingAfter(seen), counter) } };
  return { ...store, ...counted };
}
