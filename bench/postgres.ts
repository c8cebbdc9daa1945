/**
 * PostgreSQL under measurement, on the real app over HTTP, by two figures:
 *
 *   measurePostgres(options: PostgresBenchOptions): Promise<PostgresBenchResult>
 *
 * - import: call records posted to POST /admin/calls as the command-line tool posts them (NDJSON, 5,000
 *   records a request, one request at a time), version-1 records (call_id, phone, started_at and the three
 *   counts) and version-2 records (the demo generator's: caller, durations, a path...) in alternating
 *   rounds of `importRecords` each; records per second, median of the rounds, against the same bodies
 *   posted in the same round to the bare node:http server that only parses each line
 *   (bench/bare-ndjson-server.ts, in this process too), the two taking turns to go first; in the same
 *   rounds, version-2 records into the app with each piece of an import's cost taken out in turn
 *   (`POSTGRES_IMPORT_PIECES`, bench/import-pieces.ts), each on a database of its own, the version-2
 *   targets (the app, the bare server and these) taking turns batch by batch (rounds.ts, interleavedRates);
 * - query: the one-year daily event query, GET /api/events/20250101/20251231/day/ALL with Basic
 *   credentials and REPORT_CACHE_BYTES=0 (every request builds its report), on a PostgreSQL store and on a
 *   memory store holding the same ~1 million calls (the database vacuumed and analysed once they are in),
 *   both served by this process; `requests` sequential requests per store and round, the stores taking
 *   turns to go first; the median of each round's p50; in the same rounds, both stores with each round trip
 *   of the request's fixed cost taken out in turn (`QUERY_PIECES`, bench/pieces.ts), then both.
 *   Every store must give the same body.
 *
 * It works in databases of its own, `bench_<random>` (one, and one more for each import piece taken out),
 * created on the server of `databaseUrl` and dropped at the end, so that every figure comes from an empty
 * database. The server's fsync setting is reported,
 * since without it a commit costs nothing and the figures say little. Bounded: a fixed number of records
 * and requests, and `timeoutSeconds` after which it stops between two batches or requests and throws.
 *
 * The servers, both stores and the code filling them are the compiled modules (`npm run build` first), as
 * in the other benches; they share this process with the load generator, whose requests are sequential.
 *
 * Standalone: `BENCH_DATABASE_URL=postgres://... npx tsx bench/postgres.ts` prints the figures
 * (BENCH_RUNS rounds, default 5).
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type * as PasswordHash from '../src/accounts/password-hash';
import type * as AccountModule from '../src/accounts/account';
import type { Account } from '../src/accounts/account';
import type { CallRecord, CallRecordInput } from '../src/domain/call-record';
import type { RunningServer } from '../src/listen';
import type * as DemoCallsModule from '../src/startup-data/demo/calls';
import type * as MemoryStoreModule from '../src/storage/memory/memory-store';
import type * as PostgresStoreModule from '../src/storage/postgres/postgres-store';
import type { Store } from '../src/storage/store';
import { startBareNdjsonServer } from './bare-ndjson-server';
import { credentialsFor, PHONES, TIME_ZONE } from './bench-account';
import { compiled, serverModules } from './compiled';
import { POSTGRES_IMPORT_PIECES, storeWithout } from './import-pieces';
import { appWithout, type Piece } from './pieces';
import { compare, interleavedRates, median, piecesOut, RUNS, type Comparison, type PieceOut } from './rounds';

/** The round trips of a data request besides its report's own read, taken out in turn (bench/pieces.ts), then both. */
export const QUERY_PIECES = ['credential check', 'data rate limit'] as const satisfies readonly Piece[];
export const BOTH_QUERY_PIECES = 'both';
const QUERY_WITHOUT = [...QUERY_PIECES, BOTH_QUERY_PIECES] as const;
type QueryWithout = (typeof QUERY_WITHOUT)[number];

/** A query with pieces out of both stores: PostgreSQL's p50 without them against memory's without them, and PostgreSQL with them against without. */
export interface QueryPieceOut {
  /** PostgreSQL without the piece (measured) against memory without it (baseline): the goal's multiple with the piece out of both. */
  readonly against: Comparison;
  /** PostgreSQL with the piece against PostgreSQL without it: above 1 by what the piece adds to PostgreSQL's p50. */
  readonly share: Comparison;
}

export interface PostgresBenchOptions {
  /** A PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/postgres; a user that may create databases. */
  readonly databaseUrl: string;
  /** Rounds of each measurement; default BENCH_RUNS or 5. */
  readonly rounds?: number;
  /** Records per import round and version; default 25,000. */
  readonly importRecords?: number;
  /** Days of the demo generator's calls (3 numbers, ~100 calls each a day) behind the query; default 3,650, about 1 million calls. */
  readonly queryDays?: number;
  /** Sequential requests per store and round; default 100. */
  readonly requests?: number;
  /** Default 900. */
  readonly timeoutSeconds?: number;
  /** Where progress lines go; default nowhere. */
  readonly progress?: (line: string) => void;
}

export interface PostgresBenchResult {
  /** `SHOW fsync` of the server measured. */
  readonly fsync: string;
  /** Records per second into PostgreSQL (measured) against the bare server (baseline). */
  readonly importV1: Comparison;
  readonly importV2: Comparison;
  /** Version 2 with each piece out (bench/import-pieces.ts). */
  readonly importV2Without: Readonly<Record<(typeof POSTGRES_IMPORT_PIECES)[number], PieceOut>>;
  /** Calls in each store during the query measurement. */
  readonly queryCalls: number;
  readonly postgresQueryP50Ms: number;
  readonly memoryQueryP50Ms: number;
  /** The median of the rounds' multiples (each round's PostgreSQL p50 over its memory p50), as bench/rounds.ts's compare gives every ratio. */
  readonly queryRatio: number;
  readonly queryWithout: Readonly<Record<QueryWithout, QueryPieceOut>>;
}

const TOKEN = 'bench-admin-token-0123456789';
const QUERY_PATH = '/api/events/20250101/20251231/day/ALL';
const BATCH_RECORDS = 5_000;
const BENCH_NOW = Date.UTC(2026, 0, 1);
/** The importing account's numbers, apart from the bench account's so that its query sees only its own calls. */
const IMPORT_PHONES = Array.from({ length: 10 }, (_, index) => String(18_005_550_300 + index));

class Deadline {
  private readonly at: number;

  constructor(seconds: number) {
    this.at = Date.now() + seconds * 1000;
  }

  check(): void {
    if (Date.now() > this.at) throw new Error('bench/postgres: out of time; stopped');
  }
}

export interface BenchDatabase {
  readonly url: string;
  readonly fsync: string;
  /** VACUUM (ANALYZE) of the whole database. */
  readonly settle: () => Promise<void>;
  /** Ends its connections and removes it. */
  readonly drop: () => Promise<void>;
}

/** A database of its own on the server of `url`. */
export async function createBenchDatabase(url: string): Promise<BenchDatabase> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const admin = async <T>(work: (client: Client) => Promise<T>, connectionString = url): Promise<T> => {
    const client = new Client({ connectionString });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const fsync = await admin(async (client) => {
    await client.query(`CREATE DATABASE ${name}`);
    return (await client.query<{ fsync: string }>('SHOW fsync')).rows[0]?.fsync ?? 'unknown';
  });
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    fsync,
    settle: () => admin((client) => client.query('VACUUM (ANALYZE)'), own.toString()).then(() => undefined),
    drop: () => admin((client) => client.query(`DROP DATABASE ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function saveAccount(store: Store, login: string, password: string, phones: readonly string[]): Promise<void> {
  const { hashPassword } = await compiled<typeof PasswordHash>('accounts/password-hash');
  const { accountId } = await compiled<typeof AccountModule>('accounts/account');
  const id = accountId('dev', login);
  await store.accounts.save({ id, tool: 'dev', login, passwordHash: await hashPassword(password), active: true, timeZone: TIME_ZONE, credentialGeneration: 0 });
  for (const phone of phones) await store.phones.assign(phone, id);
}

const VERSION_1_FIELDS = ['call_id', 'phone', 'started_at', 'log_events', 'loops', 'form_items'] as const;

/** The same call as a version-1 record (under a call id of its own), or as the generator wrote it. */
const asVersion = (version: 1 | 2, record: CallRecordInput): CallRecordInput =>
  version === 2 ? record : ({ ...Object.fromEntries(VERSION_1_FIELDS.map((field) => [field, record[field]])), call_id: `v1-${record.call_id}` } as CallRecordInput);

/** NDJSON bodies of BATCH_RECORDS records each, made before the clock starts. */
function importBodies(records: Iterator<CallRecordInput>, count: number, version: 1 | 2): Buffer[] {
  const bodies: Buffer[] = [];
  for (let made = 0; made < count; made += BATCH_RECORDS) {
    const lines: string[] = [];
    for (let index = 0; index < Math.min(BATCH_RECORDS, count - made); index += 1) {
      const next = records.next();
      if (next.done === true) throw new Error('bench/postgres: the generator ran out of records');
      lines.push(JSON.stringify(asVersion(version, next.value)));
    }
    bodies.push(Buffer.from(`${lines.join('\n')}\n`));
  }
  return bodies;
}

/**
 * Posts one body to `url`; every record must be taken (inserted by the app, parsed by the bare server,
 * which answers only `received`).
 */
async function postBody(url: string, body: Buffer, deadline: Deadline): Promise<void> {
  deadline.check();
  const response = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/x-ndjson' },
    body,
  });
  const answer = (await response.json()) as { received?: number; inserted?: number; rejected?: unknown[] };
  const expected = recordsIn(body);
  if (response.status !== 200 || (answer.rejected?.length ?? 0) !== 0) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  if ((answer.inserted ?? answer.received) !== expected) throw new Error(`bench/postgres: ${url} took ${answer.inserted ?? answer.received} of ${expected} records`);
}

const recordsIn = (body: Buffer) => body.toString().split('\n').length - 1;

/** Records per second of posting `bodies` one after the other to `url`. */
async function importRate(url: string, bodies: readonly Buffer[], deadline: Deadline): Promise<number> {
  const started = performance.now();
  for (const body of bodies) await postBody(url, body, deadline);
  return bodies.reduce((records, body) => records + recordsIn(body), 0) / ((performance.now() - started) / 1000);
}

type ImportPieceName = (typeof POSTGRES_IMPORT_PIECES)[number];

async function measureImport(
  targets: { app: string; baseline: string; v2Without: Readonly<Record<ImportPieceName, string>> },
  { rounds, importRecords, deadline, progress }: { rounds: number; importRecords: number; deadline: Deadline; progress: (line: string) => void },
): Promise<{ v1: Comparison; v2: Comparison; v2Without: Record<ImportPieceName, PieceOut> }> {
  const { generateDemoCalls } = await compiled<typeof DemoCallsModule>('startup-data/demo/calls');
  // Both versions take records from one stream; a number gets fewer than 30 calls on a quiet day.
  const days = Math.ceil((2 * rounds * importRecords) / (IMPORT_PHONES.length * 30)) + 10;
  const records = generateDemoCalls({ phones: IMPORT_PHONES, days, callsPerDay: 100, seed: 11, timeZone: TIME_ZONE, now: BENCH_NOW })[Symbol.iterator]();
  const samples = { v1: { app: [] as number[], baseline: [] as number[] }, v2: { app: [] as number[], baseline: [] as number[] } };
  const v2Without = Object.fromEntries(POSTGRES_IMPORT_PIECES.map((piece) => [piece, [] as number[]])) as Record<ImportPieceName, number[]>;
  for (let round = 1; round <= rounds; round += 1) {
    const versions = round % 2 === 1 ? ([1, 2] as const) : ([2, 1] as const);
    for (const version of versions) {
      const bodies = importBodies(records, importRecords, version);
      if (version === 1) {
        for (const name of round % 2 === 1 ? (['baseline', 'app'] as const) : (['app', 'baseline'] as const)) {
          samples.v1[name].push(await importRate(targets[name], bodies, deadline));
        }
        continue;
      }
      // Each piece's app posts to a database of its own, so the same bodies are new calls to each.
      const urls: Record<string, string> = { baseline: targets.baseline, app: targets.app, ...targets.v2Without };
      const rates = await interleavedRates(Object.keys(urls), bodies.map(recordsIn), round, (name, index) =>
        postBody(urls[name] as string, bodies[index] as Buffer, deadline),
      );
      samples.v2.app.push(rates.app as number);
      samples.v2.baseline.push(rates.baseline as number);
      for (const piece of POSTGRES_IMPORT_PIECES) v2Without[piece].push(rates[piece] as number);
    }
    const line = (version: 'v1' | 'v2') => `${version} ${samples[version].app.at(-1)?.toFixed(0)} records/s (bare ${samples[version].baseline.at(-1)?.toFixed(0)})`;
    const pieces = POSTGRES_IMPORT_PIECES.map((piece) => `without ${piece} ${v2Without[piece].at(-1)?.toFixed(0)}`).join(', ');
    progress(`import round ${round}/${rounds}: ${line('v1')}, ${line('v2')}; v2 ${pieces}`);
  }
  return {
    v1: compare(samples.v1.app, samples.v1.baseline),
    v2: compare(samples.v2.app, samples.v2.baseline),
    v2Without: piecesOut(samples.v2.app, samples.v2.baseline, v2Without),
  };
}

/** The generator's calls on the bench account, added to both stores batch by batch. */
async function loadQueryCalls(stores: readonly Store[], days: number, deadline: Deadline): Promise<number> {
  const { generateDemoCallRecords } = await compiled<typeof DemoCallsModule>('startup-data/demo/calls');
  let batch: CallRecord[] = [];
  let inserted = 0;
  const flush = async () => {
    deadline.check();
    const results = await Promise.all(stores.map((store) => store.calls.add(batch)));
    inserted += results[0]?.inserted ?? 0;
    batch = [];
  };
  for (const record of generateDemoCallRecords({ phones: PHONES, days, callsPerDay: 100, seed: 7, timeZone: TIME_ZONE, now: BENCH_NOW })) {
    batch.push(record);
    if (batch.length === BATCH_RECORDS) await flush();
  }
  if (batch.length > 0) await flush();
  return inserted;
}

interface QueryTarget {
  readonly url: string;
  readonly authorization: string;
}

/** p50 in ms of `requests` sequential requests, and the body they answered. */
async function queryP50(target: QueryTarget, requests: number, deadline: Deadline): Promise<{ p50: number; body: string }> {
  const times: number[] = [];
  let body = '';
  for (let request = 0; request < requests; request += 1) {
    deadline.check();
    const began = performance.now();
    const response = await fetch(target.url + QUERY_PATH, { headers: { authorization: target.authorization } });
    body = await response.text();
    times.push(performance.now() - began);
    if (response.status !== 200) throw new Error(`${QUERY_PATH} answered ${response.status}: ${body.slice(0, 300)}`);
  }
  return { p50: median(times), body };
}

type QueryTargetName = 'postgres' | 'memory' | `${'postgres' | 'memory'} without ${QueryWithout}`;

async function measureQueries(
  targets: Readonly<Record<QueryTargetName, QueryTarget>>,
  { rounds, requests, deadline, progress }: { rounds: number; requests: number; deadline: Deadline; progress: (line: string) => void },
): Promise<{ stores: Comparison; without: Record<QueryWithout, QueryPieceOut> }> {
  const names = Object.keys(targets) as QueryTargetName[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<QueryTargetName, number[]>;
  for (const name of names) await queryP50(targets[name], Math.min(requests, 20), deadline);
  for (let round = 1; round <= rounds; round += 1) {
    const bodies = new Set<string>();
    for (const name of round % 2 === 1 ? names : [...names].reverse()) {
      const { p50, body } = await queryP50(targets[name], requests, deadline);
      samples[name].push(p50);
      bodies.add(body);
    }
    if (bodies.size !== 1) throw new Error('bench/postgres: the stores answered different reports');
    const without = QUERY_WITHOUT.map((piece) => `without ${piece} ${samples[`postgres without ${piece}`].at(-1)?.toFixed(2)}/${samples[`memory without ${piece}`].at(-1)?.toFixed(2)}`);
    progress(`query round ${round}/${rounds}: p50 PostgreSQL ${samples.postgres.at(-1)?.toFixed(2)} ms, memory ${samples.memory.at(-1)?.toFixed(2)} ms; ${without.join(', ')} ms`);
  }
  const without = Object.fromEntries(
    QUERY_WITHOUT.map((piece) => [
      piece,
      { against: compare(samples[`postgres without ${piece}`], samples[`memory without ${piece}`]), share: compare(samples.postgres, samples[`postgres without ${piece}`]) },
    ]),
  ) as Record<QueryWithout, QueryPieceOut>;
  return { stores: compare(samples.postgres, samples.memory), without };
}

export async function measurePostgres(options: PostgresBenchOptions): Promise<PostgresBenchResult> {
  const rounds = options.rounds ?? RUNS;
  const deadline = new Deadline(options.timeoutSeconds ?? 900);
  const progress = options.progress ?? (() => undefined);
  const modules = await serverModules();
  const { loadConfig, createLogger, listen, listenOptions } = modules;
  const { createMemoryStore } = await compiled<typeof MemoryStoreModule>('storage/memory/memory-store');
  const { openPostgresStore } = await compiled<typeof PostgresStoreModule>('storage/postgres/postgres-store');
  const { accountId } = await compiled<typeof AccountModule>('accounts/account');
  const variables = {
    ADMIN_TOKEN: TOKEN,
    ADMIN_RATE_LIMIT: '1000000000',
    DATA_RATE_LIMIT: '1000000000',
    AUTH_RATE_LIMIT: '1000',
    REPORT_CACHE_BYTES: '0',
    LOG_LEVEL: 'silent',
  };
  const config = loadConfig(variables);
  const logger = createLogger('silent');
  const databases: BenchDatabase[] = [];
  const opened: Store[] = [];
  const servers: RunningServer[] = [];
  try {
    const openDatabase = async () => {
      const database = await createBenchDatabase(options.databaseUrl);
      databases.push(database);
      const store = await openPostgresStore(database.url, logger, 60);
      opened.push(store);
      return { database, store };
    };
    /** The app over `store` with `pieces` out (bench/pieces.ts): none, the whole app. */
    const serve = async (store: Store, pieces: readonly Piece[] = [], account?: Account) => {
      const server = await listen(appWithout({ modules, variables, store, account }, pieces), '127.0.0.1', 0, listenOptions(config.server));
      servers.push(server);
      return server.url;
    };
    const { database, store: postgres } = await openDatabase();
    const memory = createMemoryStore();
    opened.push(memory);
    const postgresUrl = await serve(postgres);
    const memoryUrl = await serve(memory);

    await saveAccount(postgres, 'import', 'import', IMPORT_PHONES);
    const v2Without = {} as Record<ImportPieceName, string>;
    for (const piece of POSTGRES_IMPORT_PIECES) {
      const { store } = await openDatabase();
      await saveAccount(store, 'import', 'import', IMPORT_PHONES);
      v2Without[piece] = `${await serve(storeWithout(store, piece), piece === 'record checks' ? ['record checks'] : [])}/admin/calls`;
    }
    const bare = await startBareNdjsonServer();
    const imported = await measureImport(
      { app: `${postgresUrl}/admin/calls`, baseline: bare.url, v2Without },
      { rounds, importRecords: options.importRecords ?? 25_000, deadline, progress },
    ).finally(bare.close);

    for (const store of [postgres, memory]) await saveAccount(store, 'bench', 'bench', PHONES);
    const queryCalls = await loadQueryCalls([postgres, memory], options.queryDays ?? 3_650, deadline);
    progress(`${queryCalls} calls in each store`);
    // A million calls added in a minute set autovacuum going over every table for a while after; the
    // query is measured on a database that has caught up, as a server's is between imports.
    await database.settle();
    const target = async (url: string): Promise<QueryTarget> => ({ url, authorization: await credentialsFor(url) });
    const targets = { postgres: await target(postgresUrl), memory: await target(memoryUrl) } as Record<QueryTargetName, QueryTarget>;
    for (const [name, store] of [['postgres', postgres], ['memory', memory]] as const) {
      const account = await store.accounts.find(accountId('dev', 'bench'));
      for (const piece of QUERY_PIECES) targets[`${name} without ${piece}`] = await target(await serve(store, [piece], account));
      targets[`${name} without ${BOTH_QUERY_PIECES}`] = await target(await serve(store, QUERY_PIECES, account));
    }
    const queries = await measureQueries(targets, { rounds, requests: options.requests ?? 100, deadline, progress });
    return {
      fsync: database.fsync,
      importV1: imported.v1,
      importV2: imported.v2,
      importV2Without: imported.v2Without,
      queryCalls,
      postgresQueryP50Ms: queries.stores.measured,
      memoryQueryP50Ms: queries.stores.baseline,
      queryRatio: queries.stores.ratio,
      queryWithout: queries.without,
    };
  } finally {
    for (const server of servers) await server.close();
    for (const store of opened) await store.close();
    for (const database of databases) await database.drop();
  }
}

async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (databaseUrl === undefined) throw new Error('set BENCH_DATABASE_URL to a PostgreSQL server (fsync on) where a database may be created');
  const result = await measurePostgres({ databaseUrl, progress: (line) => process.stdout.write(`${line}\n`) });
  const lines = [
    `PostgreSQL fsync: ${result.fsync}`,
    `import through POST /admin/calls, ${BATCH_RECORDS} records a request, median of rounds:`,
    ...(['importV1', 'importV2'] as const).map(
      (version) =>
        `  version-${version.slice(-1)} records: ${result[version].measured.toFixed(0)} records/s, bare node:http parsing each line ` +
        `${result[version].baseline.toFixed(0)} records/s (${result[version].ratio.toFixed(2)} of baseline)`,
    ),
    `GET ${QUERY_PATH}, REPORT_CACHE_BYTES=0, ${result.queryCalls} calls, median of the rounds' p50:`,
    `  PostgreSQL ${result.postgresQueryP50Ms.toFixed(2)} ms, memory ${result.memoryQueryP50Ms.toFixed(2)} ms, ratio ${result.queryRatio.toFixed(2)}`,
    ...Object.entries(result.importV2Without).map(
      ([name, { against, share }]) =>
        `  version-2 import without ${name}: ${against.measured.toFixed(0)} records/s (${against.ratio.toFixed(2)} of baseline); the app with it: ${share.ratio.toFixed(2)} of the app without`,
    ),
    ...Object.entries(result.queryWithout).map(
      ([name, { against, share }]) =>
        `  query without ${name}: PostgreSQL ${against.measured.toFixed(2)} ms, memory ${against.baseline.toFixed(2)} ms, ratio ${against.ratio.toFixed(2)}; ` +
        `PostgreSQL with it: ${share.ratio.toFixed(2)}x PostgreSQL without`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  });
}
