/**
 * npm run bench:revisions -- <revision> <revision> [...]: the same requests to the server as built at each
 * git revision, by the method of record, so that a change on a request path (a hand-written shortcut
 * removed, a cost cut) is measured within whole requests rather than alone. Each revision is checked out
 * into a temporary worktree (this checkout's node_modules linked in) and built; its `dist/main.js` runs as
 * `npm start` runs it (the in-memory store with the demo data, LOG_LEVEL=info into a file), on the Node.js
 * of BENCH_REVISION_NODE (default this process's), pinned to core 0; wrk on core 1 loads each request on
 * every revision in turn, BENCH_RUNS alternating rounds of BENCH_SECONDS after a warm-up. Besides requests
 * per second and p99, each run reads the server's CPU time (utime + stime of /proc/<pid>/stat) before and
 * after: CPU per request barely moves when the machine's other work takes turns on the core, so it
 * compares revisions on a shared machine where rates drift. Prints a markdown table: the medians, and the
 * median of the rounds' ratios against the first revision.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { logFilePath } from './processes';
import { median } from './rounds';
import { settings } from './settings';
import { runStandalone, type Log } from './standalone';
import { PAGE, SOAP_HEADERS } from './survey';
import { ensureLoadTools, prepareLoad, runWrk, SERVER_CORE, type Load, type LoadTarget } from './wrk';

const REPOSITORY = path.resolve(__dirname, '..');
const NODE = process.env.BENCH_REVISION_NODE || process.execPath;
/** USER_HZ: the unit of /proc/<pid>/stat's times on Linux. */
const TICKS_PER_SECOND = 100;
const SERVER_ENV = {
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: settings.serverLogLevel,
  DATA_RATE_LIMIT: '1000000000',
  SURVEY_RATE_LIMIT: '1000000000',
  AUTH_RATE_LIMIT: '1000',
} as const;

/** Worktrees to remove and servers to stop when this process exits, however it ends. */
const cleanUps: (() => void)[] = [];
process.once('exit', () => {
  for (const cleanUp of cleanUps.reverse()) cleanUp();
});

interface Revision {
  readonly name: string;
  readonly folder: string;
}

function checkOut(revision: string, log: Log): Revision {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'ivr-bench-revision-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: REPOSITORY, stdio: ['ignore', 'pipe', 'inherit'] }).toString().trim();
  git('worktree', 'add', '--detach', folder, revision);
  cleanUps.push(() => {
    git('worktree', 'remove', '--force', folder);
    rmSync(folder, { recursive: true, force: true });
  });
  symlinkSync(path.join(REPOSITORY, 'node_modules'), path.join(folder, 'node_modules'));
  const name = `${revision} (${git('rev-parse', '--short', revision)})`;
  log(`building ${name} in ${folder}`);
  execFileSync(path.join(REPOSITORY, 'node_modules/.bin/tsc'), ['-b', 'tsconfig.build.json'], { cwd: folder, stdio: 'inherit' });
  return { name, folder };
}

interface RunningServer {
  readonly url: string;
  readonly child: ChildProcess;
}

/** Starts a revision's dist/main.js; resolves with its URL once the banner (printed when it listens) names it. */
async function startServer(revision: Revision, extraEnv: Readonly<Record<string, string>>): Promise<RunningServer> {
  const log = openSync(logFilePath(path.basename(revision.folder)), 'a');
  const child = spawn('taskset', ['-c', String(SERVER_CORE), NODE, 'dist/main.js'], {
    cwd: revision.folder,
    env: { ...process.env, ...SERVER_ENV, ...extraEnv },
    stdio: ['ignore', log, 'pipe'],
  });
  cleanUps.push(() => child.kill('SIGKILL'));
  const lines = createInterface({ input: child.stderr as NodeJS.ReadableStream });
  const exited = once(child, 'exit').then(([code]) => Promise.reject(new Error(`${revision.name} exited (${code}) before it listened`)));
  exited.catch(() => undefined);
  const listening = (async () => {
    for await (const line of lines) {
      const url = /https?:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0];
      if (url !== undefined) return url;
    }
    throw new Error(`${revision.name} printed no URL`);
  })();
  const url = await Promise.race([listening, exited]);
  lines.on('line', () => undefined);
  return { url, child };
}

function cpuSeconds(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are the 14th and 15th fields of the whole line, the 12th and 13th after the command's name.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

const yyyymmdd = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');

/** The requests measured, each as a load on a server at `url` (the demo account's temporary credentials asked first). */
const REQUESTS: Readonly<Record<string, (url: string) => Promise<LoadTarget>>> = {
  'event tracker, 8 days, one number (kept report)': async (url) => ({
    url: `${url}/api/events/${yyyymmdd(30)}/${yyyymmdd(22)}/day/18005550100`,
    headers: { Authorization: await demoCredentials(url) },
  }),
  'event tracker, 100 days by day, ALL (kept report)': async (url) => ({
    url: `${url}/api/events/${yyyymmdd(110)}/${yyyymmdd(11)}/day/ALL`,
    headers: { Authorization: await demoCredentials(url) },
  }),
  'svcEval, the two-question page PHP sends (cookie kept)': async (url) => {
    const first = await fetch(`${url}/survey`, { method: 'POST', headers: SOAP_HEADERS, body: PAGE });
    if (first.status !== 200) throw new Error(`svcEval answered ${first.status}: ${await first.text()}`);
    const cookie = first.headers.get('set-cookie')?.split(';')[0];
    return { url: `${url}/survey`, headers: { ...SOAP_HEADERS, ...(cookie === undefined ? {} : { Cookie: cookie }) }, body: PAGE };
  },
};

async function demoCredentials(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth`, { method: 'POST', body: new URLSearchParams({ tool: 'dev', login: 'demo', password: 'demo-password' }) });
  const { login, password } = (await response.json()) as { login: string; password: string };
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

interface RunFigures {
  readonly rate: number;
  readonly p99: number;
  readonly cpuMicroseconds: number;
}

async function measureRun(server: RunningServer, load: Load): Promise<RunFigures> {
  await runWrk(load, settings.warmUpSeconds);
  const cpuBefore = cpuSeconds(server.child);
  const result = await runWrk(load, settings.seconds);
  const cpu = cpuSeconds(server.child) - cpuBefore;
  if (result.invalid !== undefined) throw new Error(`${load.target.url}: ${result.invalid}`);
  return { rate: result.requestsPerSecond, p99: result.latencyMs.p99, cpuMicroseconds: (cpu * 1e6) / result.requests };
}

async function measureRevisions(log: Log): Promise<readonly string[]> {
  const names = process.argv.slice(2);
  if (names.length < 2) throw new Error('name two or more git revisions: npm run bench:revisions -- <revision> <revision> [...]');
  await ensureLoadTools(log);
  const revisions = names.map((name) => checkOut(name, log));
  const lines = [
    `Node.js ${execFileSync(NODE, ['--version']).toString().trim()}, ${settings.runs} alternating rounds of ${settings.seconds} s, wrk -c${settings.connections}, load average ${os.loadavg()[0]?.toFixed(2)}`,
    '',
    '| request | revision | req/s | p99 | CPU per request | req/s / first | CPU / first |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const [request, target] of Object.entries(REQUESTS)) {
    const servers = await Promise.all(revisions.map((revision) => startServer(revision, {})));
    const loads = await Promise.all(servers.map(async (server) => prepareLoad(await target(server.url), settings.connections)));
    const rounds: RunFigures[][] = revisions.map(() => []);
    for (let round = 1; round <= settings.runs; round += 1) {
      // Each round starts from another revision, so that none always runs right after a given other.
      for (let turn = 0; turn < revisions.length; turn += 1) {
        const index = (turn + round) % revisions.length;
        rounds[index]!.push(await measureRun(servers[index]!, loads[index]!));
      }
      log(`${request}, round ${round}: ${rounds.map((figures, index) => `${revisions[index]!.name} ${figures.at(-1)!.rate.toFixed(0)}/s ${figures.at(-1)!.cpuMicroseconds.toFixed(0)} µs`).join(', ')}`);
    }
    for (const server of servers) server.child.kill();
    rounds.forEach((figures, index) => {
      const ratio = (pick: (run: RunFigures) => number) => median(figures.map((run, round) => pick(run) / pick(rounds[0]![round]!))).toFixed(2);
      lines.push(
        `| ${request} | ${revisions[index]!.name} | ${median(figures.map((run) => run.rate)).toFixed(0)} | ${median(figures.map((run) => run.p99)).toFixed(1)} ms | ` +
          `${median(figures.map((run) => run.cpuMicroseconds)).toFixed(0)} µs | ${ratio((run) => run.rate)} | ${ratio((run) => run.cpuMicroseconds)} |`,
      );
    });
  }
  return lines;
}

runStandalone('bench:revisions', measureRevisions);
