/**
 * The load generator of every load figure: wrk (Debian's package, installed here when missing), one
 * thread pinned to core 1 (LOAD_CORE) while every server under load runs pinned to core 0 (SERVER_CORE,
 * bench/processes.ts), so that the generator never takes the server's core. Its output is parsed here; a
 * run with a non-2xx (or 3xx) answer or a socket error is invalid.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Log } from './standalone';

export const SERVER_CORE = 0;
export const LOAD_CORE = 1;

/** What wrk sends, again and again, on every connection. */
export interface LoadTarget {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** POSTed by a Lua script (wrk's command line has no option for a body); none: GET. */
  readonly body?: string;
  /**
   * GETs sent in turn instead of `url`'s (a Lua script rotates them; `url` gives the server): a mix over
   * many accounts, each with its own credentials.
   */
  readonly rotate?: readonly { readonly path: string; readonly headers: Readonly<Record<string, string>> }[];
}

/** A wrk command ready to run for any number of seconds. */
export interface Load {
  readonly target: LoadTarget;
  readonly connections: number;
  /** wrk's arguments but its duration, the URL last. */
  readonly args: readonly string[];
}

export interface WrkResult {
  readonly requestsPerSecond: number;
  readonly requests: number;
  readonly latencyMs: { readonly p50: number; readonly p75: number; readonly p90: number; readonly p99: number };
  /** Why the run does not count (non-2xx answers, socket errors); absent when it does. */
  readonly invalid?: string;
}

let scripts: string | undefined;

/** A folder for the Lua scripts and bodies, removed when this process exits. */
function scriptFolder(): string {
  if (scripts === undefined) {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'ivr-bench-wrk-'));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    scripts = folder;
  }
  return scripts;
}

let scriptCount = 0;

export function prepareLoad(target: LoadTarget, connections: number): Load {
  const headers = Object.entries(target.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const script: string[] = [];
  if (target.body !== undefined) {
    scriptCount += 1;
    const bodyFile = path.join(scriptFolder(), `body-${scriptCount}`);
    const scriptFile = path.join(scriptFolder(), `post-${scriptCount}.lua`);
    writeFileSync(bodyFile, target.body);
    writeFileSync(scriptFile, `local f = assert(io.open(${JSON.stringify(bodyFile)}, "rb"))\nwrk.method = "POST"\nwrk.body = f:read("*a")\nf:close()\n`);
    script.push('-s', scriptFile);
  } else if (target.rotate !== undefined) {
    scriptCount += 1;
    const scriptFile = path.join(scriptFolder(), `rotate-${scriptCount}.lua`);
    const luaTable = (headers: Readonly<Record<string, string>>) =>
      `{${Object.entries(headers)
        .map(([name, value]) => `[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
        .join(', ')}}`;
    const entries = target.rotate.map(({ path: requestPath, headers: requestHeaders }) => `  {${JSON.stringify(requestPath)}, ${luaTable(requestHeaders)}},`);
    writeFileSync(
      scriptFile,
      `local entries = {\n${entries.join('\n')}\n}\nlocal requests = {}\nlocal next = 0\n` +
        'init = function(args)\n  for i, entry in ipairs(entries) do requests[i] = wrk.format("GET", entry[1], entry[2]) end\nend\n' +
        'request = function()\n  next = next % #requests + 1\n  return requests[next]\nend\n',
    );
    script.push('-s', scriptFile);
  }
  return { target, connections, args: ['-t1', `-c${connections}`, '--latency', ...headers, ...script, target.url] };
}

const quoted = (arg: string) => (/^[\w./:=@%+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);

/** The command line of a run, as a shell would take it. */
export function commandLine(load: Load, seconds: number): string {
  return ['taskset', '-c', String(LOAD_CORE), 'wrk', ...withDuration(load, seconds)].map(quoted).join(' ');
}

const withDuration = (load: Load, seconds: number) => [...load.args.slice(0, 2), `-d${seconds}s`, ...load.args.slice(2)];

const UNIT_MS: Readonly<Record<string, number>> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** wrk's report, as printed with --latency. */
export function parseWrk(output: string): WrkResult {
  const rate = /^Requests\/sec:\s+([\d.]+)/m.exec(output)?.[1];
  const requests = /^\s*(\d+) requests in /m.exec(output)?.[1];
  const percentile = (p: number) => {
    const match = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m|h)\\s*$`, 'm').exec(output);
    if (match === null) throw new Error(`no ${p}% latency in wrk's output:\n${output}`);
    return Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  };
  if (rate === undefined || requests === undefined) throw new Error(`no Requests/sec in wrk's output:\n${output}`);
  const problems: string[] = [];
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1];
  if (non2xx !== undefined) problems.push(`${non2xx} non-2xx or 3xx answers`);
  const socket = /Socket errors: (.*)/.exec(output)?.[1];
  if (socket !== undefined) problems.push(`socket errors: ${socket.trim()}`);
  if (Number(requests) === 0) problems.push('no request answered');
  return {
    requestsPerSecond: Number(rate),
    requests: Number(requests),
    latencyMs: { p50: percentile(50), p75: percentile(75), p90: percentile(90), p99: percentile(99) },
    ...(problems.length > 0 ? { invalid: problems.join(', ') } : {}),
  };
}

/** Runs `taskset -c 1 wrk ... -d<seconds>s`; rejects when wrk fails or does not end in time. */
export async function runWrk(load: Load, seconds: number): Promise<WrkResult> {
  const child = spawn('taskset', ['-c', String(LOAD_CORE), 'wrk', ...withDuration(load, seconds)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  }).finally(() => clearTimeout(timer));
  if (code !== 0) throw new Error(`${commandLine(load, seconds)} ended with ${signal ?? code}:\n${output}`);
  return parseWrk(output);
}

function commandExists(command: string): Promise<boolean> {
  return new Promise((resolve) => {
    spawn('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).once('close', (code) => resolve(code === 0));
  });
}

function runPrinted(command: string, args: readonly string[], log: Log): Promise<void> {
  log(`$ ${[command, ...args].join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

async function installWrk(log: Log): Promise<void> {
  const cannot = (reason: string) => new Error(`wrk is not installed and cannot be installed here: ${reason}; install Debian's package wrk (apt-get install wrk)`);
  if (!(await commandExists('apt-get'))) throw cannot('there is no apt-get');
  if (process.getuid?.() !== 0) throw cannot('apt-get needs root, and this runs as another user');
  log("wrk is not installed: installing Debian's package wrk");
  try {
    await runPrinted('apt-get', ['update'], log);
    await runPrinted('apt-get', ['install', '-y', 'wrk'], log);
  } catch (error) {
    throw cannot(error instanceof Error ? error.message : String(error));
  }
  if (!(await commandExists('wrk'))) throw cannot('apt-get install -y wrk ran, yet there is no wrk on the PATH');
  log('wrk installed');
}

/** `wrk -v`'s first words (e.g. "wrk debian/4.1.0-3+b2 [epoll]"), or undefined when there is no wrk. */
export function wrkVersion(): Promise<string | undefined> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn('wrk', ['-v'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', () => resolve(undefined));
    child.once('close', () => resolve(/^wrk .*?\]/.exec(output)?.[0]));
  });
}

let ready: Promise<void> | undefined;

/** Two cores, taskset and wrk (installed when missing): what the load figures need, checked once per run. */
export function ensureLoadTools(log: Log): Promise<void> {
  ready ??= (async () => {
    const cores = os.availableParallelism();
    if (cores < 2) throw new Error(`the load figures need 2 cores (the server on core ${SERVER_CORE}, wrk on core ${LOAD_CORE}); this process may use ${cores}`);
    if (!(await commandExists('taskset'))) throw new Error("taskset is not installed (Debian's util-linux): the load figures pin the server and wrk to a core each");
    if (!(await commandExists('wrk'))) await installWrk(log);
  })();
  return ready;
}
