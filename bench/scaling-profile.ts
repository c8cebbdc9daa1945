/**
 * Where the load of bench:scaling spends its time, read while it runs rather than guessed from its rate:
 * - what the primary's client backends are doing, sampled from pg_stat_activity every SAMPLE_MS (on the
 *   CPU, or the wait event they are in: a lock, the WAL, a data file), and for a wait on another
 *   transaction, the table whose row it waits for (the tuple lock a row-lock waiter holds; none when it
 *   waits on a unique key instead);
 * - the CPU seconds of each part (the primary's processes, the replica's, the server instances, the
 *   loaders, Redis, the bench itself), from /proc of this process's descendants and of the two postmasters';
 *   a process that ends is counted at its last reading;
 * - the WAL's records and full-page images, and the checkpoints asked for by WAL volume, from
 *   pg_stat_wal and pg_stat_bgwriter.
 * Linux only (/proc); elsewhere the CPU part is empty.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import type { ScalingCluster } from './scaling-cluster';

const SAMPLE_MS = 200;
const CPU_EVERY_SAMPLES = 25;
/** Linux's USER_HZ: /proc times are in hundredths of a second on every platform Node runs on. */
const TICKS_PER_SECOND = 100;

export interface LoadProfile {
  readonly seconds: number;
  /** Samples of one active client backend each; their states as shares, largest first. */
  readonly backendSamples: number;
  readonly backendStates: readonly { readonly state: string; readonly share: number }[];
  /** CPU seconds by part, largest first. */
  readonly cpuSeconds: readonly { readonly part: string; readonly seconds: number }[];
  readonly walRecords: number;
  readonly walFullPageImages: number;
  readonly walBytes: number;
  readonly checkpointsRequested: number;
  readonly checkpointsTimed: number;
}

interface ProcessReading {
  readonly ppid: number;
  readonly ticks: number;
  readonly command: string;
}

function readProcesses(): Map<number, ProcessReading> {
  const processes = new Map<number, ProcessReading>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return processes;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces; the fields follow its closing one.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      processes.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), command });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return processes;
}

/** The postmasters' pids of the cluster's primary and replica, from their data folders' postmaster.pid (pid first, port fourth). */
function postmasters(cluster: ScalingCluster): Map<number, string> {
  const byPort = new Map([
    [new URL(cluster.primaryUrl).port, 'primary PostgreSQL'],
    [new URL(cluster.replicaUrl).port, 'replica PostgreSQL'],
  ]);
  const found = new Map<number, string>();
  const visit = (folder: string, depth: number) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isFile() && entry.name === 'postmaster.pid') {
        const [pid, , , port] = readFileSync(full, 'utf8').split('\n');
        const part = byPort.get(port ?? '');
        if (part !== undefined) found.set(Number(pid), part);
      } else if (entry.isDirectory() && depth > 0) {
        try {
          visit(full, depth - 1);
        } catch {
          // A folder the postgres user keeps to itself: no postmaster.pid of ours is in it.
        }
      }
    }
  };
  visit(cluster.folder, 3);
  return found;
}

/** The part a process belongs to: a postmaster's, else this process's descendants by what they run; undefined for anything else. */
function partOf(pid: number, processes: ReadonlyMap<number, ProcessReading>, roots: ReadonlyMap<number, string>): string | undefined {
  for (let current = pid, hops = 0; current > 1 && hops < 20; hops += 1) {
    const root = roots.get(current);
    if (root !== undefined) return root;
    if (current === process.pid) {
      const command = processes.get(pid)?.command ?? '';
      if (command.includes('main.js')) return 'server instances';
      if (command.includes('scaling-loader')) return 'loaders';
      if (command.includes('redis-server')) return 'Redis';
      return 'the bench (and wrk)';
    }
    current = processes.get(current)?.ppid ?? 0;
  }
  return undefined;
}

interface WalCounters {
  readonly records: number;
  readonly fpi: number;
  readonly bytes: number;
  readonly requested: number;
  readonly timed: number;
}

async function walCounters(client: Client): Promise<WalCounters> {
  const { rows } = await client.query<{ records: string; fpi: string; bytes: string; requested: string; timed: string }>(
    `SELECT wal.wal_records AS records, wal.wal_fpi AS fpi, wal.wal_bytes AS bytes,
            checkpoints.checkpoints_req AS requested, checkpoints.checkpoints_timed AS timed
       FROM pg_stat_wal wal, pg_stat_bgwriter checkpoints`,
  );
  const row = rows[0] as { records: string; fpi: string; bytes: string; requested: string; timed: string };
  return { records: Number(row.records), fpi: Number(row.fpi), bytes: Number(row.bytes), requested: Number(row.requested), timed: Number(row.timed) };
}

/** Starts sampling the cluster's primary and the processes; `stop` ends it and gives the profile. */
export async function profileLoad(cluster: ScalingCluster): Promise<{ stop(): Promise<LoadProfile> }> {
  const client = new Client({ connectionString: cluster.primaryUrl });
  await client.connect();
  const began = performance.now();
  const walBefore = await walCounters(client);
  const roots = postmasters(cluster);
  const firstTicks = new Map([...readProcesses()].map(([pid, reading]) => [pid, reading.ticks]));
  const lastReading = new Map<number, { part: string; ticks: number }>();
  const readCpu = () => {
    const processes = readProcesses();
    for (const [pid, reading] of processes) {
      const part = partOf(pid, processes, roots);
      if (part !== undefined) lastReading.set(pid, { part, ticks: reading.ticks });
    }
  };
  const states = new Map<string, number>();
  let samples = 0;
  let stopping = false;
  const sampling = (async () => {
    for (let tick = 0; !stopping; tick += 1) {
      const { rows } = await client.query<{ state: string }>(
        `SELECT coalesce(activity.wait_event_type || ':' || activity.wait_event, 'on the CPU') ||
                coalesce(' (a row of ' || (SELECT string_agg(DISTINCT held.relation::regclass::text, ', ') FROM pg_locks held
                                            WHERE held.pid = activity.pid AND held.locktype = 'tuple') || ')', '') AS state
           FROM pg_stat_activity activity
          WHERE activity.backend_type = 'client backend' AND activity.state = 'active' AND activity.pid <> pg_backend_pid()`,
      );
      for (const { state } of rows) states.set(state, (states.get(state) ?? 0) + 1);
      samples += rows.length;
      if (tick % CPU_EVERY_SAMPLES === 0) readCpu();
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      await sampling;
      readCpu();
      const walAfter = await walCounters(client);
      await client.end();
      const cpu = new Map<string, number>();
      for (const [pid, { part, ticks }] of lastReading) cpu.set(part, (cpu.get(part) ?? 0) + (ticks - (firstTicks.get(pid) ?? 0)) / TICKS_PER_SECOND);
      return {
        seconds: (performance.now() - began) / 1000,
        backendSamples: samples,
        backendStates: [...states].map(([state, count]) => ({ state, share: count / samples })).sort((a, b) => b.share - a.share),
        cpuSeconds: [...cpu].map(([part, seconds]) => ({ part, seconds })).sort((a, b) => b.seconds - a.seconds),
        walRecords: walAfter.records - walBefore.records,
        walFullPageImages: walAfter.fpi - walBefore.fpi,
        walBytes: walAfter.bytes - walBefore.bytes,
        checkpointsRequested: walAfter.requested - walBefore.requested,
        checkpointsTimed: walAfter.timed - walBefore.timed,
      };
    },
  };
}
