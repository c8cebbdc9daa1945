/**
 * npm run bench:scaling: what the PostgreSQL store does with tens of millions of calls
 * over 10,000 accounts of 20 numbers, on a primary and a streaming replica of its own (bench/scaling-cluster.ts,
 * PostgreSQL's default settings, fsync on) with a Redis for the instances:
 * - the accounts saved through the store; then BENCH_SCALING_CALLS calls spread over the numbers and
 *   BENCH_SCALING_MONTHS months, posted to POST /admin/calls by loaders feeding compiled server instances
 *   (one, then BENCH_SCALING_INSTANCES), until they are in or BENCH_SCALING_LOAD_SECONDS run out;
 * - records per second of each phase, WAL written, and the size of every table per million calls;
 * - p50/p99 of the event tracker's reports through wrk, reads on the primary, then on the replica;
 * - the time to drop the oldest month.
 * BENCH_QUICK=1 is a smoke run (200,000 calls, 100 accounts). docs/scaling.md holds a full run's figures.
 */
import { execFileSync } from 'node:child_process';
import { startServerProcess, stopIfRunning, type ServerProcess } from '../test/support/server-process';
import { describeMachine } from './machine';
import { limitRunTime } from './processes';
import { createAccounts } from './scaling-accounts';
import { startScalingCluster, type ScalingCluster } from './scaling-cluster';
import { databaseBytes, replicaCaughtUp, tableSizes, walBytesSince, walPosition } from './scaling-database';
import { loadCalls } from './scaling-load';
import { profileLoad, type LoadProfile } from './scaling-profile';
import { measureReports, type ReportLatency, type ServerEnvironment } from './scaling-queries';
import { monthsEndingNow, type ScalingPlan } from './scaling-records';
import { dropOldestMonth } from './scaling-retention';
import { settings } from './settings';
import { logLine as log } from './standalone';

const TOKEN = 'bench-admin-token-0123456789';
const FIRST_PHASE_CALLS = 250_000;

const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
const thousands = (value: number) => Math.round(value).toLocaleString('en-US');
const freeDisk = (folder: string) => execFileSync('df', ['-h', '--output=avail', folder], { encoding: 'utf8' }).split('\n')[1]?.trim();

/** The primary's settings, once those of BENCH_SCALING_POSTGRES are made (a reload takes them all: none needs a restart). */
async function serverSettings(cluster: ScalingCluster): Promise<string> {
  return cluster.query('primary', async (client) => {
    for (const { name, value } of settings.scalingPostgresSettings) await client.query(`ALTER SYSTEM SET ${name} = '${value}'`);
    if (settings.scalingPostgresSettings.length > 0) await client.query('SELECT pg_reload_conf()');
    const names = ['server_version', 'fsync', 'synchronous_commit', 'shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'wal_compression', 'wal_level', 'max_connections'];
    const { rows } = await client.query<{ name: string; setting: string }>('SELECT name, current_setting(name) AS setting FROM unnest($1::text[]) AS name', [names]);
    return rows.map((row) => `${row.name}=${row.setting}`).join(', ');
  });
}

const machineCores = describeMachine().logicalCores;

const logGoal = (goal: string, figure: string, met: boolean, target: string) => log(`  ${goal}: ${figure} (goal ${target}): ${met ? 'met' : 'NOT met'}`);
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function logProfile(profile: LoadProfile): void {
  log(`where the load's time went, over its ${profile.seconds.toFixed(0)} s:`);
  log(
    `  the primary's active client backends (${thousands(profile.backendSamples)} samples): ` +
      profile.backendStates.map(({ state, share }) => `${state} ${percent(share)}`).join(', '),
  );
  const cores = profile.seconds * machineCores;
  log(
    `  CPU of ${thousands(cores)} core-seconds: ` +
      profile.cpuSeconds.map(({ part, seconds }) => `${part} ${thousands(seconds)} s (${percent(seconds / cores)})`).join(', '),
  );
  log(
    `  WAL: ${thousands(profile.walRecords)} records, ${percent(profile.walFullPageImages / Math.max(1, profile.walRecords))} of them full-page images; ` +
      `${profile.checkpointsRequested} checkpoints asked for by WAL volume (max_wal_size), ${profile.checkpointsTimed} on time`,
  );
}

async function measure(cluster: ScalingCluster): Promise<void> {
  const plan: ScalingPlan = { calls: settings.scalingCalls, accounts: settings.scalingAccounts, ...monthsEndingNow(settings.scalingMonths) };
  const machine = describeMachine();
  log(`machine: ${machine.cpu}, ${machine.logicalCores} cores, ${machine.memoryGiB.toFixed(1)} GiB, ${machine.os}, Node ${machine.node}, load ${machine.loadAverage.toFixed(2)}`);
  log(`PostgreSQL: ${await serverSettings(cluster)}; data under ${cluster.folder} (${freeDisk(cluster.folder)} free)`);
  log(`plan: ${thousands(plan.calls)} calls, ${thousands(plan.accounts)} accounts of 20 numbers, ${new Date(plan.from).toISOString().slice(0, 7)} to ${new Date(plan.to - 1).toISOString().slice(0, 7)}`);

  const environment: ServerEnvironment = {
    STORE: 'postgres',
    DATABASE_URL: cluster.primaryUrl,
    REDIS_URL: cluster.redisUrl,
    ADMIN_TOKEN: TOKEN,
    ADMIN_RATE_LIMIT: '1000000000',
    DATA_RATE_LIMIT: '1000000000',
    AUTH_RATE_LIMIT: '1000000',
  };
  // The first instance runs the migrations before the others start.
  const servers: ServerProcess[] = [startServerProcess(environment)];
  try {
    const urls = [await servers[0]?.listening()];
    let began = performance.now();
    await createAccounts(cluster, plan.accounts);
    log(`accounts: ${thousands(plan.accounts)} saved in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    for (let index = 1; index < settings.scalingInstances; index += 1) servers.push(startServerProcess(environment));
    urls.push(...(await Promise.all(servers.slice(1).map((server) => server.listening()))));

    const walBefore = await cluster.query('primary', walPosition);
    const profiling = await profileLoad(cluster);
    const phases = await loadCalls(urls as string[], TOKEN, plan, Math.min(FIRST_PHASE_CALLS, plan.calls / 10), settings.scalingLoadSeconds, log);
    const profile = await profiling.stop();
    const walBytes = await cluster.query('primary', (client) => walBytesSince(client, walBefore));
    await Promise.all(servers.map((server) => stopIfRunning(server, 'SIGTERM')));
    const loaded = phases.reduce((sum, phase) => sum + phase.records, 0);
    const millions = loaded / 1e6;
    log(`loaded ${thousands(loaded)} calls (${loaded < plan.calls ? `stopped by BENCH_SCALING_LOAD_SECONDS=${settings.scalingLoadSeconds}` : 'the whole plan'}); ${freeDisk(cluster.folder)} free`);
    for (const phase of phases) {
      log(
        `  ${phase.instances} instance(s): ${thousands(phase.records)} calls in ${phase.seconds.toFixed(0)} s, ${thousands(phase.medianRecordsPerSecond)} records/s ` +
          `(median of 10 s intervals; mean ${thousands(phase.meanRecordsPerSecond)}), a 5,000-record batch p50 ${phase.batchP50Ms.toFixed(0)} ms, p99 ${phase.batchP99Ms.toFixed(0)} ms, ` +
          `${phase.unavailable} answers 503 (sent again)`,
      );
    }
    log(`WAL written by the load: ${mib(walBytes)} = ${mib(walBytes / millions)} per million calls`);
    logProfile(profile);

    began = performance.now();
    await cluster.query('primary', (client) => client.query('VACUUM (ANALYZE)'));
    log(`VACUUM (ANALYZE) after the load: ${((performance.now() - began) / 1000).toFixed(1)} s`);
    const sizes = await cluster.query('primary', tableSizes);
    const databaseAfterLoad = await cluster.query('primary', databaseBytes);
    log(`database: ${mib(databaseAfterLoad)}; tables (partitions summed), per million calls loaded:`);
    log('  table | partitions | rows | heap | indexes | total | total per million calls');
    for (const size of sizes) {
      log(`  ${size.table} | ${size.partitions} | ${thousands(size.rows)} | ${mib(size.heapBytes)} | ${mib(size.indexBytes)} | ${mib(size.totalBytes)} | ${mib(size.totalBytes / millions)}`);
    }

    log(`replica caught up ${(await replicaCaughtUp(cluster, 600)).toFixed(1)} s after the load`);
    const latencies: ReportLatency[] = [];
    for (const target of ['primary', 'replica'] as const) {
      const run = await measureReports(cluster, plan, environment, target, settings.scalingQuerySeconds);
      latencies.push(...run.latencies);
      const perReport = (node: 'primary' | 'replica') => `${thousands(run.transactions[node])} (${(run.transactions[node] / Math.max(1, run.requests)).toFixed(2)} a report)`;
      log(`reports with reads on the ${target}: ${thousands(run.requests)} answered; transactions committed meanwhile: the primary ${perReport('primary')}, the replica ${perReport('replica')}`);
    }
    log(`report latencies, wrk -t1 -c10, ${settings.scalingQuerySeconds} s each, REPORT_CACHE_BYTES=0, 50 accounts in turn:`);
    log('  report | reads on | requests/s | p50 ms | p99 ms');
    for (const { report, target, result } of latencies) {
      log(`  ${report} | ${target} | ${result.requestsPerSecond.toFixed(0)} | ${result.latencyMs.p50.toFixed(2)} | ${result.latencyMs.p99.toFixed(2)}`);
    }

    const dropped = await dropOldestMonth(cluster.primaryUrl, plan);
    log(`oldest month dropped by retention (the store's dropRawCallsBefore): ${dropped.months}, ${thousands(dropped.calls)} calls in ${dropped.seconds.toFixed(2)} s`);

    const ingest = phases.find((phase) => phase.instances === settings.scalingInstances);
    const worstRatio = Math.max(
      ...latencies.filter(({ target }) => target === 'replica').map(({ report, result }) => {
        const primary = latencies.find((latency) => latency.target === 'primary' && latency.report === report) as ReportLatency;
        return result.latencyMs.p99 / primary.result.latencyMs.p99;
      }),
    );
    log(settings.scalingPostgresSettings.length === 0 ? 'goals, at PostgreSQL\'s defaults:' : 'goals (NOT at PostgreSQL\'s defaults: BENCH_SCALING_POSTGRES):');
    logGoal(`ingest through ${settings.scalingInstances} instances`, `${thousands(ingest?.medianRecordsPerSecond ?? 0)} records/s`, (ingest?.medianRecordsPerSecond ?? 0) >= 30_000, '>= 30,000 records/s');
    logGoal('WAL per call', `${thousands(walBytes / loaded)} B`, walBytes / loaded <= 1_200, '<= 1,200 B');
    // As loaded, before retention dropped the oldest month.
    const databasePerCall = databaseAfterLoad / loaded;
    logGoal('database per call', `${thousands(databasePerCall)} B`, databasePerCall <= 400, '<= 400 B');
    logGoal('report p99 on the replica, the worst report against the primary\'s', `${worstRatio.toFixed(2)} of it`, worstRatio <= 1, '<= 1');
  } finally {
    await Promise.all(servers.map((server) => stopIfRunning(server)));
  }
}

async function main(): Promise<void> {
  const cluster = await startScalingCluster(settings.scalingDir);
  limitRunTime(settings.timeoutSeconds, () => {
    process.stderr.write(`bench:scaling: still running after BENCH_TIMEOUT_SECONDS=${settings.timeoutSeconds}; stopping its services\n`);
    void cluster.destroy();
  });
  try {
    await measure(cluster);
  } finally {
    await cluster.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:scaling: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
