/**
 * PostgreSQL under measurement, on the real app over HTTP (issue 13, items 4 and 5):
 *
 *   measurePostgres(options: PostgresBenchOptions): Promise<PostgresBenchResult>
 *
 * - import: call records posted to POST /admin/calls as the command-line tool posts them (NDJSON, 5,000
 *   records a request, one request at a time), version-1 records (call_id, phone, started_at and the three
 *   counts) and version-2 records (the demo generator's: caller, durations, a path...) in alternating
 *   rounds of `importRecords` each; records per second, median of the rounds, against the same bodies
 *   posted in the same round to the bare node:http server that only parses each line
 *   (bench/bare-ndjson-server.ts, in this process too), the two taking turns to go first;
 * - query: the one-year daily event query, GET /api/events/20250101/20251231/day/ALL with Basic
 *   credentials and REPORT_CACHE_BYTES=0 (every request builds its report), on a PostgreSQL store and on a
 *   memory store holding the same ~1 million calls (the database vacuumed and analysed once they are in),
 *   both served by this process; `requests` sequential requests per store and round, the stores taking
 *   turns to go first; the median of each round's p50.
 *   Both stores must give the same body.
 *
 * It works in a database of its own, `bench_<random>`, created on the server of `databaseUrl` and dropped
 * at the end, so that every figure comes from an empty database. The server's fsync setting is reported,
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
import type { CallRecord, CallRecordInput } from '../src/domain/call-record';
import type { RunningServer } from '../src/listen';
import type * as DemoCallsModule from '../src/startup-data/demo/calls';
import type * as MemoryStoreModule from '../src/storage/memory/memory-store';
import type * as PostgresStoreModule from '../src/storage/postgres/postgres-store';
import type { Store } from '../src/storage/store';
import { startBareNdjsonServer } from './bare-ndjson-server';
import { credentialsFor, PHONES, TIME_ZONE } from './bench-account';
import { compiled, serverModules } from './compiled';
import { compare, median, RUNS, type Comparison } from './rounds';

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
  /** Calls in each store during the query measurement. */
  readonly queryCalls: number;
  readonly postgresQueryP50Ms: number;
  readonly memoryQueryP50Ms: number;
  /** The median of the rounds' multiples (each round's PostgreSQL p50 over its memory p50), as bench/rounds.ts's compare gives every ratio. */
  readonly queryRatio: number;
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

interface BenchDatabase {
  readonly url: string;
  readonly fsync: string;
  /** VACUUM (ANALYZE) of the whole database. */
  readonly settle: () => Promise<void>;
  /** Ends its connections and removes it. */
  readonly drop: () => Promise<void>;
}

/** A database of its own on the server of `url`. */
async function createBenchDatabase(url: string): Promise<BenchDatabase> {
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
 * Records per second of posting `bodies` one after the other to `url`; every record must be taken (inserted
 * by the app, parsed by the bare server, which answers only `received`).
 */
async function importRate(url: string, bodies: readonly Buffer[], deadline: Deadline): Promise<number> {
  let taken = 0;
  const started = performance.now();
  for (const body of bodies) {
    deadline.check();
    const response = await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/x-ndjson' },
      body,
    });
    const answer = (await response.json()) as { received?: number; inserted?: number; rejected?: unknown[] };
    if (response.status !== 200 || (answer.rejected?.length ?? 0) !== 0) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    taken += answer.inserted ?? answer.received ?? 0;
  }
  const seconds = (performance.now() - started) / 1000;
  const expected = bodies.reduce((lines, body) => lines + body.toString().split('\n').length - 1, 0);
  if (taken !== expected) throw new Error(`bench/postgres: ${url} took ${taken} of ${expected} records`);
  return expected / seconds;
}

async function measureImport(
  targets: { app: string; baseline: string },
  { rounds, importRecords, deadline, progress }: { rounds: number; importRecords: number; deadline: Deadline; progress: (line: string) => void },
): Promise<{ v1: Comparison; v2: Comparison }> {
  const { generateDemoCalls } = await compiled<typeof DemoCallsModule>('startup-data/demo/calls');
  // Both versions take records from one stream; a number gets fewer than 30 calls on a quiet day.
  const days = Math.ceil((2 * rounds * importRecords) / (IMPORT_PHONES.length * 30)) + 10;
  const records = generateDemoCalls({ phones: IMPORT_PHONES, days, callsPerDay: 100, seed: 11, timeZone: TIME_ZONE, now: BENCH_NOW })[Symbol.iterator]();
  const samples = { v1: { app: [] as number[], baseline: [] as number[] }, v2: { app: [] as number[], baseline: [] as number[] } };
  for (let round = 1; round <= rounds; round += 1) {
    const versions = round % 2 === 1 ? ([1, 2] as const) : ([2, 1] as const);
    const order = round % 2 === 1 ? (['baseline', 'app'] as const) : (['app', 'baseline'] as const);
    for (const version of versions) {
      const bodies = importBodies(records, importRecords, version);
      for (const name of order) samples[version === 1 ? 'v1' : 'v2'][name].push(await importRate(targets[name], bodies, deadline));
    }
    const line = (version: 'v1' | 'v2') => `${version} ${samples[version].app.at(-1)?.toFixed(0)} records/s (bare ${samples[version].baseline.at(-1)?.toFixed(0)})`;
    progress(`import round ${round}/${rounds}: ${line('v1')}, ${line('v2')}`);
  }
  return { v1: compare(samples.v1.app, samples.v1.baseline), v2: compare(samples.v2.app, samples.v2.baseline) };
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

async function measureQueries(
  targets: { postgres: QueryTarget; memory: QueryTarget },
  { rounds, requests, deadline, progress }: { rounds: number; requests: number; deadline: Deadline; progress: (line: string) => void },
): Promise<Comparison> {
  const samples = { postgres: [] as number[], memory: [] as number[] };
  for (const name of ['postgres', 'memory'] as const) await queryP50(targets[name], Math.min(requests, 20), deadline);
  for (let round = 1; round <= rounds; round += 1) {
    const order = round % 2 === 1 ? (['postgres', 'memory'] as const) : (['memory', 'postgres'] as const);
    const bodies: string[] = [];
    for (const name of order) {
      const { p50, body } = await queryP50(targets[name], requests, deadline);
      samples[name].push(p50);
      bodies.push(body);
    }
    if (bodies[0] !== bodies[1]) throw new Error('bench/postgres: PostgreSQL and memory answered different reports');
    progress(`query round ${round}/${rounds}: p50 PostgreSQL ${samples.postgres.at(-1)?.toFixed(2)} ms, memory ${samples.memory.at(-1)?.toFixed(2)} ms`);
  }
  return compare(samples.postgres, samples.memory);
}

export async function measurePostgres(options: PostgresBenchOptions): Promise<PostgresBenchResult> {
  const rounds = options.rounds ?? RUNS;
  const deadline = new Deadline(options.timeoutSeconds ?? 900);
  const progress = options.progress ?? (() => undefined);
  const { composeApp, loadConfig, createLogger, listen, listenOptions } = await serverModules();
  const { createMemoryStore } = await compiled<typeof MemoryStoreModule>('storage/memory/memory-store');
  const { openPostgresStore } = await compiled<typeof PostgresStoreModule>('storage/postgres/postgres-store');
  const config = loadConfig({
    ADMIN_TOKEN: TOKEN,
    ADMIN_RATE_LIMIT: '1000000000',
    DATA_RATE_LIMIT: '1000000000',
    AUTH_RATE_LIMIT: '1000',
    REPORT_CACHE_BYTES: '0',
  });
  const logger = createLogger('silent');
  const database = await createBenchDatabase(options.databaseUrl);
  const opened: Store[] = [];
  const servers: RunningServer[] = [];
  try {
    const postgres = await openPostgresStore(database.url, logger, 60);
    opened.push(postgres);
    const memory = createMemoryStore();
    opened.push(memory);
    const serve = async (store: Store) => {
      const server = await listen(composeApp(config, { store, logger }), '127.0.0.1', 0, listenOptions(config.server));
      servers.push(server);
      return server.url;
    };
    const postgresUrl = await serve(postgres);
    const memoryUrl = await serve(memory);

    await saveAccount(postgres, 'import', 'import', IMPORT_PHONES);
    const bare = await startBareNdjsonServer();
    const imported = await measureImport(
      { app: `${postgresUrl}/admin/calls`, baseline: bare.url },
      { rounds, importRecords: options.importRecords ?? 25_000, deadline, progress },
    ).finally(bare.close);

    for (const store of [postgres, memory]) await saveAccount(store, 'bench', 'bench', PHONES);
    const queryCalls = await loadQueryCalls([postgres, memory], options.queryDays ?? 3_650, deadline);
    progress(`${queryCalls} calls in each store`);
    // A million calls added in a minute set autovacuum going over every table for a while after; the
    // query is measured on a database that has caught up, as a server's is between imports.
    await database.settle();
    const queries = await measureQueries(
      {
        postgres: { url: postgresUrl, authorization: await credentialsFor(postgresUrl) },
        memory: { url: memoryUrl, authorization: await credentialsFor(memoryUrl) },
      },
      { rounds, requests: options.requests ?? 100, deadline, progress },
    );
    return {
      fsync: database.fsync,
      importV1: imported.v1,
      importV2: imported.v2,
      queryCalls,
      postgresQueryP50Ms: queries.measured,
      memoryQueryP50Ms: queries.baseline,
      queryRatio: queries.ratio,
    };
  } finally {
    for (const server of servers) await server.close();
    for (const store of opened) await store.close();
    await database.drop();
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
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  });
}
