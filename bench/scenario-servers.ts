/**
 * The apps under measurement of bench/scenarios.ts, in a process of its own (pinned to a core by the
 * parent, its standard output, the access log at LOG_LEVEL=info, into a file). Per store: the app with the
 * admin API and no scenario (the baseline); the same app over a store whose active scenarios fill
 * SANDBOX_MAX_SCENARIOS, all of the data targets, none matching the bench's requests; the same with as many
 * of the auth target; and the app with SANDBOX_SCENARIOS=false over the baseline's store, which never asks
 * the store. Scenarios are added through POST /admin/scenarios until it refuses one with
 * IVR_TOO_MANY_SCENARIOS, so the cap is full as a client would fill it. Argument: a JSON object of the three
 * PostgreSQL database URLs (`SCENARIO_DATABASES`, made and dropped by the parent), or none for memory alone.
 * Announces the URLs.
 */
import type * as MemoryStoreModule from '../src/storage/memory/memory-store';
import type * as PostgresStoreModule from '../src/storage/postgres/postgres-store';
import type { Store } from '../src/storage/store';
import { addBenchHistory, credentialsFor, PHONES, saveBenchAccount } from './bench-account';
import { compiled, serverModules } from './compiled';
import { announce } from './processes';
import { settings } from './settings';

export const ADMIN_TOKEN = 'bench-admin-token-0123456789';
export const DATA_PATH = `/api/events/20250106/20250113/day/${PHONES[0]}`;
export const AUTH_BODY = 'tool=dev&login=bench&password=bench';
/** Days of generated calls behind the data request (3 numbers, about 300 calls a day): the year it falls in. */
const HISTORY_DAYS = 365;

/** The stores of one kind: the baseline's (also the app with scenarios off), one full of data scenarios, one full of auth scenarios. */
export const SCENARIO_DATABASES = ['none', 'data', 'auth'] as const;
export type ScenarioDatabases = Readonly<Record<(typeof SCENARIO_DATABASES)[number], string>>;

export interface DataTarget {
  readonly url: string;
  readonly authorization: string;
}

export interface StoreApps {
  /** The data request's app: no scenario, the cap full of data scenarios, scenarios off. */
  readonly data: { readonly none: DataTarget; readonly full: DataTarget; readonly off: DataTarget };
  /** POST /api/auth's app: no scenario, the cap full of auth scenarios. */
  readonly auth: { readonly none: string; readonly full: string };
}

export interface ScenarioServers {
  /** SANDBOX_MAX_SCENARIOS: the active scenarios of each full store. */
  readonly mostActive: number;
  readonly calls: number;
  readonly memory: StoreApps;
  readonly postgresql?: StoreApps;
}

/**
 * A rule of `target` that no bench request matches, though its target is theirs: every other one names
 * another account, the rest another client address (the bench's come from 127.0.0.1), so that a request
 * is compared with each.
 */
const unmatched = (target: 'data' | 'auth', index: number) =>
  index % 2 === 0 ? { target, tool: 'dev', login: `other-${index}`, status: 500 } : { target, client_address: `2001:db8::${index.toString(16)}`, status: 500 };

/** Adds scenarios until the server refuses one for the cap; returns how many it took. */
async function fillCap(url: string, target: 'data' | 'auth'): Promise<number> {
  for (let index = 0; ; index += 1) {
    const response = await fetch(`${url}/admin/scenarios`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(unmatched(target, index)),
    });
    const body = await response.text();
    if (response.status === 201) continue;
    if (response.headers.get('x-error-code') === 'IVR_TOO_MANY_SCENARIOS') return index;
    throw new Error(`POST /admin/scenarios answered ${response.status}: ${body.slice(0, 300)}`);
  }
}

async function main(): Promise<void> {
  const { composeApp, loadConfig, listen, listenOptions, createLogger } = await serverModules();
  const { createMemoryStore } = await compiled<typeof MemoryStoreModule>('storage/memory/memory-store');
  const { openPostgresStore } = await compiled<typeof PostgresStoreModule>('storage/postgres/postgres-store');
  // AUTH_CACHE_SECONDS=0: each login is one scrypt hash, as rows 10-13 say, not a remembered password's digest.
  const variables = { ADMIN_TOKEN, DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000000000', AUTH_CACHE_SECONDS: '0', LOG_LEVEL: settings.serverLogLevel };
  const config = loadConfig(variables);
  const offConfig = loadConfig({ ...variables, SANDBOX_SCENARIOS: 'false' });
  const mostActive = config.sandbox.scenarios.mostActive;
  const serve = async (store: Store, appConfig = config) => (await listen(composeApp(appConfig, { store }), '127.0.0.1', 0, listenOptions(config.server))).url;
  const data = async (url: string): Promise<DataTarget> => ({ url, authorization: await credentialsFor(url) });
  const full = async (store: Store, target: 'data' | 'auth') => {
    const url = await serve(store);
    const added = await fillCap(url, target);
    if (added !== mostActive) throw new Error(`the cap took ${added} scenarios, not SANDBOX_MAX_SCENARIOS=${mostActive}`);
    return url;
  };
  /** The apps over three stores of one kind, each holding the bench account, the data stores its history. */
  const apps = async (stores: Readonly<Record<(typeof SCENARIO_DATABASES)[number], Store>>): Promise<{ apps: StoreApps; calls: number }> => {
    for (const store of Object.values(stores)) await saveBenchAccount(store, PHONES);
    const calls = await addBenchHistory(stores.none, HISTORY_DAYS, 100);
    await addBenchHistory(stores.data, HISTORY_DAYS, 100);
    return {
      calls,
      apps: {
        data: { none: await data(await serve(stores.none)), full: await data(await full(stores.data, 'data')), off: await data(await serve(stores.none, offConfig)) },
        auth: { none: await serve(stores.none), full: await full(stores.auth, 'auth') },
      },
    };
  };
  const memory = await apps({ none: createMemoryStore(), data: createMemoryStore(), auth: createMemoryStore() });
  const databases = process.argv[2] === undefined ? undefined : (JSON.parse(process.argv[2]) as ScenarioDatabases);
  const logger = createLogger('silent');
  const postgresql =
    databases === undefined
      ? undefined
      : await apps({
          none: await openPostgresStore(databases.none, logger, 60),
          data: await openPostgresStore(databases.data, logger, 60),
          auth: await openPostgresStore(databases.auth, logger, 60),
        });
  announce({ mostActive, calls: memory.calls, memory: memory.apps, ...(postgresql === undefined ? {} : { postgresql: postgresql.apps }) } satisfies ScenarioServers);
}

if (require.main === module) void main();
