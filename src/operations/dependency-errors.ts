import { failedDependency } from '../storage/dependency-error';
import type { Store } from '../storage/store';
import type { AppMetrics } from './app-metrics';

type Counter = Pick<AppMetrics, 'dependencyWatched' | 'dependencyFailed'>;

const REPOSITORIES = ['accounts', 'phones', 'credentials', 'calls', 'rateLimits', 'surveySessions'] as const satisfies readonly (keyof Store)[];

/**
 * The repository behind a Proxy, so that any repository, a plain object or itself a proxy (the tests'
 * deferred PostgreSQL store), keeps every method; each method's wrapper is made once.
 */
function counting<Repository extends object>(repository: Repository, counter: Counter): Repository {
  const onFailure = (error: unknown): never => {
    const dependency = failedDependency(error);
    if (dependency !== undefined) counter.dependencyFailed(dependency);
    throw error;
  };
  const wrappers = new Map<PropertyKey, unknown>();
  return new Proxy(repository, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property);
      if (typeof member !== 'function') return member;
      let wrapper = wrappers.get(property);
      if (wrapper === undefined) {
        const method = member as (...args: unknown[]) => unknown;
        wrapper = (...args: unknown[]) => {
          const result = method.apply(target, args);
          return result instanceof Promise ? result.catch(onFailure) : result;
        };
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}

/**
 * The store as this app uses it, every failed call counted against the dependency the store marked it
 * with (src/storage/dependency-error.ts): here, once per failed call, whatever then becomes of the error
 * (a 500 from the error handler, a rate limit that fails open, a SOAP fault). Errors without a mark (a
 * bug in the memory store) are not a dependency's and are not counted. The readiness checks are not
 * store calls and are not counted.
 */
export function countingDependencyErrors(store: Store, counter: Counter): Store {
  for (const dependency of store.dependencies) counter.dependencyWatched(dependency.name);
  const counted = Object.fromEntries(REPOSITORIES.map((name) => [name, counting(store[name], counter)])) as Pick<Store, (typeof REPOSITORIES)[number]>;
  return { ...store, ...counted };
}
