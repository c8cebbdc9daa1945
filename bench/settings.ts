/**
 * Every knob of the benchmarks (but bench:import's own), read once from the environment. BENCH_QUICK=1
 * lowers the defaults so that `npm run bench` finishes in a few minutes (its figures are then only a
 * smoke test); a variable that is set always wins.
 */
import path from 'node:path';

const QUICK = process.env.BENCH_QUICK === '1';
/** NAME=value of every knob, as docs/performance.md states them. */
const inEffect: string[] = [];
let belowFullRun = false;

/** `shapesFigures`: whether a value below a full run's makes the figures a smoke test (a time limit does not). */
function setting(name: string, full: number, quick: number, shapesFigures = true): number {
  const text = process.env[name];
  const value = text === undefined || text === '' ? (QUICK ? quick : full) : Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${JSON.stringify(text)}`);
  inEffect.push(`${name}=${value}`);
  if (shapesFigures && value < full) belowFullRun = true;
  return value;
}

/**
 * BENCH_SCALING_POSTGRES: `name=value` settings of the primary, space-separated (`max_wal_size=16GB
 * wal_compression=on`), set by ALTER SYSTEM before the load, where the figures of record keep PostgreSQL's
 * defaults (empty): what an operator's lever buys.
 */
function postgresSettings(text: string): ReadonlyArray<{ readonly name: string; readonly value: string }> {
  const pairs = text.trim() === '' ? [] : text.trim().split(/\s+/);
  return pairs.map((pair) => {
    const match = /^([a-z_]+)=([\w.]+)$/.exec(pair);
    if (match === null) throw new Error(`BENCH_SCALING_POSTGRES: ${JSON.stringify(pair)} is not name=value`);
    inEffect.push(`BENCH_SCALING_POSTGRES:${pair}`);
    return { name: match[1] as string, value: match[2] as string };
  });
}

const ROOT = path.resolve(__dirname, '..');

/**
 * The Node.js of record: .ci/node24's pinned package, whose `node` package ships the binary, as .ci/run
 * installs it (`npm run bench` too: npm ci --prefix .ci/node24).
 */
export const RECORD_NODE = { major: 24, binary: path.join(ROOT, '.ci/node24/node_modules/node/bin/node') } as const;

/**
 * BENCH_NODES: the Node.js binaries every row is measured on, one pass each, in order (a path is taken from
 * the repository's root, a bare name from PATH); by default Node.js 24 of record, then the node running the
 * bench when its major version differs (`given` false: machine.ts drops it otherwise).
 */
function nodes(): { readonly binaries: readonly string[]; readonly given: boolean } {
  const text = process.env.BENCH_NODES?.trim();
  if (text === undefined || text === '') return { binaries: [RECORD_NODE.binary, process.execPath], given: false };
  const binaries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (binaries.length === 0) throw new Error(`BENCH_NODES must name at least one node binary, not ${JSON.stringify(text)}`);
  inEffect.push(`BENCH_NODES=${binaries.join(',')}`);
  return { binaries: binaries.map((entry) => (entry.includes('/') ? path.resolve(ROOT, entry) : entry)), given: true };
}

export const settings = {
  /** Rounds per target, alternated so that a noisy moment of the machine hits every target alike. */
  runs: setting('BENCH_RUNS', 5, 3),
  /** Seconds of load per target and round. */
  seconds: setting('BENCH_SECONDS', 3, 1),
  /** Connections of each load (wrk -t1 -c<connections>). */
  connections: setting('BENCH_CONNECTIONS', 50, 50),
  /** LOG_LEVEL of the servers under load, whose standard output (the access log) goes to a file, as operators run them. */
  serverLogLevel: 'info',
  /** Seconds of the same load, not counted, before each measured run. */
  warmUpSeconds: 1,
  /** Days of generated calls behind the event tracker's large history (3 numbers, about 300 calls a day). */
  eventsHistoryDays: setting('BENCH_EVENTS_DAYS', 3650, 365),
  /** Calls added to a fresh memory store to measure the memory of one. */
  memoryCalls: setting('BENCH_MEMORY_CALLS', 1_000_000, 100_000),
  /** Calls of the small and the large store whose query times are compared. */
  smallCalls: 10_000,
  largeCalls: setting('BENCH_LARGE_CALLS', 10_000_000, 300_000),
  /** Sequential requests per store and round whose median is the query's p50. */
  queryRequests: setting('BENCH_QUERY_REQUESTS', 300, 100),
  /** Records posted to the admin API per round, for each record version. */
  importRecords: setting('BENCH_IMPORT_RECORDS', 100_000, 20_000),
  /** Days of generated calls (3 numbers, about 300 calls a day) behind the PostgreSQL query figure. */
  postgresQueryDays: setting('BENCH_POSTGRES_DAYS', 3650, 365),
  /** The whole of `npm run bench`, every pass (or of one bench:<name>), after which every child process is killed. */
  timeoutSeconds: setting('BENCH_TIMEOUT_SECONDS', 5400, 1800, false),
  /** bench:scaling: the calls it aims to load (it stops sooner when BENCH_SCALING_LOAD_SECONDS run out). */
  scalingCalls: setting('BENCH_SCALING_CALLS', 25_000_000, 200_000),
  /** bench:scaling: accounts of 20 numbers each over which the calls are spread. */
  scalingAccounts: setting('BENCH_SCALING_ACCOUNTS', 10_000, 100),
  /** bench:scaling: months the calls are spread over, ending with the last whole month. */
  scalingMonths: setting('BENCH_SCALING_MONTHS', 13, 13),
  /** bench:scaling: server instances (each fed by a loader of its own) after the first phase of one. */
  scalingInstances: setting('BENCH_SCALING_INSTANCES', 3, 3),
  /** bench:scaling: seconds of loading after which the loaders stop, whatever was loaded. */
  scalingLoadSeconds: setting('BENCH_SCALING_LOAD_SECONDS', 3_000, 600, false),
  /** bench:scaling: seconds of wrk per report and target. */
  scalingQuerySeconds: setting('BENCH_SCALING_QUERY_SECONDS', 10, 3),
  /** bench:scaling: where its PostgreSQL clusters and Redis go (a temporary folder in it, removed at the end); default the system's temporary folder. */
  scalingDir: process.env.BENCH_SCALING_DIR === '' ? undefined : process.env.BENCH_SCALING_DIR,
  scalingPostgresSettings: postgresSettings(process.env.BENCH_SCALING_POSTGRES ?? ''),
  /** A PostgreSQL server on which the PostgreSQL figures may create a database. */
  databaseUrl: process.env.BENCH_DATABASE_URL === '' ? undefined : process.env.BENCH_DATABASE_URL,
  reportFile: process.env.BENCH_REPORT_FILE ?? 'docs/performance.md',
  /** The Node.js binaries the rows are measured on, a pass each (the children of a pass run on its binary). */
  nodes: nodes(),
  inEffect,
  /** Fewer rounds, seconds or calls than a full run (BENCH_QUICK or smaller values): the figures are a smoke test. */
  belowFullRun,
} as const;
