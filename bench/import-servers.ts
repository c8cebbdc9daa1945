/**
 * The servers of bench/admin-import.ts, in a process of their own so the load generator does not share
 * their event loop: the app with the admin API, once over a fresh memory store for version-1 records and
 * once for version-2 records (each store's account owning 20 numbers), the bare node:http server that
 * only parses each line (the baseline), and for version-2 records the app with each piece of an import's
 * cost taken out in turn (bench/import-pieces.ts), then all of them, and with the store's calls.add
 * storing nothing, each over a memory store of its own. Announces their URLs.
 */
import { startBareNdjsonServer } from './bare-ndjson-server';
import { benchAccountStore, TWENTY_PHONES } from './bench-account';
import { serverModules } from './compiled';
import { ALL_MEMORY_IMPORT_PIECES, MEMORY_IMPORT_PIECES, memoryStoreParts, storeWithout, type ImportPiece } from './import-pieces';
import { appWithout } from './pieces';
import { announce } from './processes';

/** What a version-2 import is measured without: each piece, all of them, the store. */
export const V2_WITHOUT = [...MEMORY_IMPORT_PIECES, ALL_MEMORY_IMPORT_PIECES, 'the store'] as const;

export interface ImportServers {
  readonly baseline: string;
  readonly v1: string;
  readonly v2: string;
  readonly v2Without: Readonly<Record<(typeof V2_WITHOUT)[number], string>>;
  readonly token: string;
}

const TOKEN = 'bench-admin-token-0123456789';

async function main(): Promise<void> {
  const modules = await serverModules();
  const { listen, listenOptions, loadConfig } = modules;
  const variables = { ADMIN_TOKEN: TOKEN, ADMIN_RATE_LIMIT: '1000000000', LOG_LEVEL: 'silent' };
  const config = loadConfig(variables);
  const admin = async (pieces: readonly ImportPiece[]) => {
    const store = await benchAccountStore(TWENTY_PHONES, await memoryStoreParts(pieces));
    const app = appWithout({ modules, variables, store: pieces.includes('the store') ? storeWithout(store, 'the store') : store }, pieces.filter((piece) => piece === 'record checks'));
    const { url } = await listen(app, '127.0.0.1', 0, listenOptions(config.server));
    return `${url}/admin/calls`;
  };
  const v2Without = {} as Record<(typeof V2_WITHOUT)[number], string>;
  for (const piece of MEMORY_IMPORT_PIECES) v2Without[piece] = await admin([piece]);
  v2Without[ALL_MEMORY_IMPORT_PIECES] = await admin(MEMORY_IMPORT_PIECES);
  v2Without['the store'] = await admin(['the store']);
  announce({ baseline: (await startBareNdjsonServer()).url, v1: await admin([]), v2: await admin([]), v2Without, token: TOKEN } satisfies ImportServers);
}

// Its measuring module imports its names: served only when run as the child process, not in the orchestrator.
if (require.main === module) void main();
