import { loadConfig } from '../../src/configuration';

/** The bound a server puts on every wait for PostgreSQL or Redis by default: the stores tests open themselves get the same. */
export const DEPENDENCY_TIMEOUT_SECONDS = loadConfig({}).storage.dependencyTimeoutSeconds;
