import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/*
 * A PostgreSQL cluster and a Redis server of a suite's own, which the suite stops and starts: never the
 * shared TEST_DATABASE_URL and TEST_REDIS_URL instances, which other suites use at the same time. The
 * binaries are found as .ci/services.sh finds them: Debian's newest /usr/lib/postgresql/<version>/bin
 * (else initdb and pg_ctl on PATH), and redis-server on PATH. As root (CI is root), PostgreSQL runs as the
 * postgres user, since it refuses to run as root. Every wait is on an event: a process's exit (pg_ctl -w
 * exits once the server accepts connections, or is gone), or Redis saying it accepts connections.
 */

const run = promisify(execFile);

export interface ServiceBinaries {
  /** The folder of initdb and pg_ctl. */
  readonly postgresBin: string;
  readonly redisServer: string;
}

function onPath(name: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(folder, name);
    if (folder !== '' && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The folder of Debian's newest initdb and pg_ctl (else those on PATH), or undefined. */
export function postgresBin(): string | undefined {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((version) => existsSync(path.join(debian, version, 'bin', 'initdb')))
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    if (versions[0] !== undefined) return path.join(debian, versions[0], 'bin');
  }
  const initdb = onPath('initdb');
  return initdb !== undefined && existsSync(path.join(path.dirname(initdb), 'pg_ctl')) ? path.dirname(initdb) : undefined;
}

/** The binaries, or undefined when either service is missing. */
export function findServiceBinaries(): ServiceBinaries | undefined {
  const bin = postgresBin();
  const redisServer = onPath('redis-server');
  return bin === undefined || redisServer === undefined ? undefined : { postgresBin: bin, redisServer };
}

/**
 * Runs the suite where the binaries are, skips it where they are not, and runs it anyway under CI=true,
 * where a missing binary must fail the run (as test/support/global-setup.ts does for the shared services).
 */
// Through globalThis: bench/scaling-cluster.ts imports this module outside jest, where describe is not defined.
export const describeWithServiceBinaries =
  findServiceBinaries() !== undefined || process.env.CI === 'true' ? globalThis.describe : globalThis.describe?.skip;

export function requireServiceBinaries(): ServiceBinaries {
  const binaries = findServiceBinaries();
  if (binaries === undefined) throw new Error('initdb, pg_ctl and redis-server are needed (Debian: postgresql and redis-server; see .ci/services.sh)');
  return binaries;
}

const EPHEMERAL_RANGE = '/proc/sys/net/ipv4/ip_local_port_range';
const LOWEST_PORT = 10_000;

/** Whether a loopback port can be bound now. */
async function canBind(port: number): Promise<boolean> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  const [outcome] = (await Promise.race([once(server, 'listening').then(() => ['bound']), once(server, 'error')])) as [unknown];
  if (outcome !== 'bound') return false;
  server.close();
  await once(server, 'close');
  return true;
}

/** Where the kernel's ephemeral ports begin: a socket bound to port 0 gets one from there on. */
function ephemeralRangeStart(): number {
  const range = existsSync(EPHEMERAL_RANGE) ? readFileSync(EPHEMERAL_RANGE, 'utf8') : '';
  return Number(range.trim().split(/\s+/)[0]) || 32_768;
}

/**
 * A free loopback port below the kernel's ephemeral range. These services are stopped and started again
 * on the same port, and a port from that range could meanwhile be handed to any socket bound to port 0,
 * such as another test's server in the other worker: redis-server then failed with "Address already in use".
 */
async function freePort(): Promise<number> {
  const below = ephemeralRangeStart();
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (below - LOWEST_PORT));
    if (await canBind(port)) return port;
  }
  throw new Error(`no free loopback port found between ${LOWEST_PORT} and ${below}`);
}

const isRoot = process.getuid?.() === 0;

/** The command as the postgres user when this process is root. */
function asPostgresOwner(command: string, args: readonly string[]): [string, string[]] {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, [...args]];
}

async function owner(user: string): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

export interface DedicatedService {
  readonly url: string;
  /** Resolves once the service accepts connections. */
  start(): Promise<void>;
  /** Resolves once the service's process is gone. */
  stop(): Promise<void>;
  /** Stops it if it runs and removes its files. */
  destroy(): Promise<void>;
}

export interface DedicatedPostgresOptions {
  /** The folder in which its own temporary folder is made; default the system's temporary folder. */
  readonly parent?: string;
  /**
   * 'tests' (the default): fsync off and 30 connections, for suites; 'defaults': PostgreSQL's own settings
   * (fsync on, 100 connections), for a measure of what an operator's server does (bench/scaling-cluster.ts).
   */
  readonly settings?: 'tests' | 'defaults';
}

const forTests = (options: DedicatedPostgresOptions) => (options.settings ?? 'tests') === 'tests';

/** A new cluster in a temporary folder, on a free loopback port; not started. */
export function createDedicatedPostgres(bin: string, options: DedicatedPostgresOptions = {}): Promise<DedicatedService> {
  return dedicatedCluster(bin, options, (pg, data) =>
    pg(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', ...(forTests(options) ? ['--no-sync'] : [])]),
  );
}

/**
 * A streaming replica of the dedicated cluster at `primaryAddress` (host:port, which may be a proxy's in front
 * of it, so a test can hold its WAL stream): a base backup that streams from there once started (-R writes
 * primary_conninfo and standby.signal; initdb's pg_hba lets loopback replication in). Not started.
 */
export function createDedicatedReplica(
  bin: string,
  primaryAddress: string,
  options: DedicatedPostgresOptions & { readonly replicationSlot?: string } = {},
): Promise<DedicatedService> {
  const [host = '', port = ''] = primaryAddress.split(':');
  // A slot (-C -S, named in primary_conninfo's settings by -R) keeps the WAL a replica has not replayed: without one,
  // a replica more than max_wal_size behind finds its next segment recycled and stops following.
  const slot = options.replicationSlot === undefined ? [] : ['-C', '-S', options.replicationSlot];
  return dedicatedCluster(bin, options, async (pg, data) => {
    await pg(path.join(bin, 'pg_basebackup'), ['-h', host, '-p', port, '-U', 'postgres', '-D', data, '-R', '-X', 'stream', ...slot]);
  });
}

type RunAsOwner = (command: string, args: readonly string[]) => Promise<unknown>;

async function dedicatedCluster(
  bin: string,
  clusterOptions: DedicatedPostgresOptions,
  createData: (pg: RunAsOwner, data: string) => Promise<unknown>,
): Promise<DedicatedService> {
  const folder = mkdtempSync(path.join(clusterOptions.parent ?? tmpdir(), 'ivr-readiness-pg-'));
  if (isRoot) {
    const { uid, gid } = await owner('postgres');
    chownSync(folder, uid, gid);
  }
  const data = path.join(folder, 'data');
  const port = await freePort();
  const pgCtl = path.join(bin, 'pg_ctl');
  const pg: RunAsOwner = (command, args) => run(...asPostgresOwner(command, args));
  await createData(pg, data);
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1${forTests(clusterOptions) ? ' -c fsync=off -c max_connections=30' : ''}`;
  let running = false;
  const stop = async (mode: 'fast' | 'immediate') => {
    await pg(pgCtl, ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
    running = false;
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      // -w: pg_ctl exits once the server accepts connections.
      await pg(pgCtl, ['-D', data, '-l', path.join(folder, 'postgres.log'), '-w', '-t', '60', '-o', options, 'start']);
      running = true;
    },
    // fast: the server ends its sessions and exits; -w: pg_ctl exits once it is gone.
    stop: () => stop('fast'),
    destroy: async () => {
      if (running) await stop('immediate').catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A Redis server without persistence on a free loopback port; not started. */
export async function createDedicatedRedis(redisServer: string): Promise<DedicatedService> {
  const folder = mkdtempSync(path.join(tmpdir(), 'ivr-readiness-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const stop = async () => {
    const stopping = child;
    if (stopping === undefined) return;
    child = undefined;
    if (stopping.exitCode === null && stopping.signalCode === null) {
      const exited = once(stopping, 'exit');
      stopping.kill('SIGTERM');
      await exited;
    }
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    start: async () => {
      const started = spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      await new Promise<void>((resolve, reject) => {
        let output = '';
        started.stdout.setEncoding('utf8');
        started.stdout.on('data', (chunk: string) => {
          output += chunk;
          if (output.includes('Ready to accept connections')) resolve();
        });
        started.once('exit', (code) => reject(new Error(`redis-server exited with ${code} before it accepted connections:\n${output}`)));
        started.once('error', reject);
      });
    },
    stop,
    destroy: async () => {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
