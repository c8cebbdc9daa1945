import type * as AppModule from '../src/app';
import type * as AppMetricsModule from '../src/operations/app-metrics';
import type * as CompositionRoot from '../src/composition-root';
import type * as ConfigModule from '../src/configuration';
import type * as LoggerModule from '../src/logger';
import type * as ListenModule from '../src/listen';

/**
 * The server's compiled modules (npm run build), loaded as `npm start` runs them rather than as their
 * TypeScript through tsx, whose output (export getters, `__name` wrappers) would show in the CPU profile of
 * whatever is under measurement. A bench process hosting a server or a store loads every server module it
 * uses through this, so that no module runs in both forms; types come from `import type * as X from '../src/...'`.
 */
export const compiled = <Module>(name: string): Promise<Module> => import(`../dist/${name}.js`) as Promise<Module>;

/** What every bench server process needs to serve the app: its compiled modules, loaded once. */
export async function serverModules() {
  const [{ composeApp, composeServices }, { createApp }, { createAppMetrics }, { loadConfig }, { createLogger }, { listen, listenOptions }] = await Promise.all([
    compiled<typeof CompositionRoot>('composition-root'),
    compiled<typeof AppModule>('app'),
    compiled<typeof AppMetricsModule>('operations/app-metrics'),
    compiled<typeof ConfigModule>('configuration'),
    compiled<typeof LoggerModule>('logger'),
    compiled<typeof ListenModule>('listen'),
  ]);
  return { composeApp, composeServices, createApp, createAppMetrics, loadConfig, createLogger, listen, listenOptions };
}
