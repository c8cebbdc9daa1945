/**
 * The server's compiled modules (npm run build), loaded as `npm start` runs them rather than as their
 * TypeScript through tsx, whose output (export getters, `__name` wrappers) would show in the CPU profile of
 * whatever is under measurement. A bench process hosting a server or a store loads every server module it
 * uses through this, so that no module runs in both forms; types come from `import type * as X from '../src/...'`.
 */
export const compiled = <Module>(name: string): Promise<Module> => import(`../dist/${name}.js`) as Promise<Module>;
