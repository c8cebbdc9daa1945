/**
 * The process boundary of the benchmarks. A server under measurement runs in a child process of its own,
 * so that the load generator never shares its event loop, pinned to a core when asked (taskset), its
 * standard output (the app's log) into a file when asked; every child started here is remembered, so a
 * time limit or an interrupted run can kill them all, and a child ends itself when its parent goes. Every
 * child runs on the binary `runChildrenOn` names (bench/performance.ts: the pass's Node.js), else on this
 * process's, and says which Node.js it runs on with what it announces or prints, so that a pass is shown
 * to have measured the runtime it names.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, watch } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const children = new Set<ChildProcess>();

/** The Node.js binary children run on, and the version each must say it runs (undefined: any). */
let runtime: { binary: string; version: string | undefined } = { binary: process.execPath, version: undefined };
/** How many children said they ran on each version, since the last `runChildrenOn`. */
let reported = new Map<string, number>();

/** Children started from now on run on `binary`, which must be Node.js `version`; the count of those reported starts again. */
export function runChildrenOn(binary: string, version: string): void {
  runtime = { binary, version };
  reported = new Map();
}

/** The binary children run on, for a script that starts a Node.js process of its own. */
export const childNode = (): string => runtime.binary;

/** Each Node.js version the children started since `runChildrenOn` said they ran on, with how many did. */
export const childVersions = (): ReadonlyMap<string, number> => reported;

/** What a child sends or prints: its result, and the Node.js it ran on. */
interface FromChild<T> {
  readonly node: string;
  readonly result: T;
}

function received<T>(script: string, message: FromChild<T>): T {
  if (runtime.version !== undefined && message.node !== runtime.version) {
    throw new Error(`${script} ran on Node.js ${message.node}, not on ${runtime.version} (${runtime.binary})`);
  }
  reported.set(message.node, (reported.get(message.node) ?? 0) + 1);
  return message.result;
}

/** Node option giving a child room for a large store: most of the machine's memory, not V8's default heap limit. */
export const LARGE_HEAP = `--max-old-space-size=${Math.floor((os.totalmem() / 1048576) * 0.75)}`;

export interface ChildOptions {
  /** Node options before the script, e.g. --expose-gc. */
  readonly nodeArgs?: readonly string[];
  readonly args?: readonly string[];
  /** Added to this process's environment. */
  readonly env?: Readonly<Record<string, string>>;
}

export interface ServerOptions extends ChildOptions {
  /** The one core the process (every thread of it) may run on: `taskset -c <core> node ...`. */
  readonly core?: number;
  /** A file (created, or appended to) taking the process's standard output, as an operator's log; else discarded. */
  readonly logFile?: string;
}

function start(script: string, options: ServerOptions, stdout: 'pipe' | 'ignore' | number): ChildProcess {
  const node = [runtime.binary, ...(options.nodeArgs ?? []), '--import', 'tsx', script, ...(options.args ?? [])];
  const [command, ...args] = options.core === undefined ? node : ['taskset', '-c', String(options.core), ...node];
  const child = spawn(command as string, args, { env: { ...process.env, ...options.env }, stdio: ['ignore', stdout, 'inherit', 'ipc'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

let logs: string | undefined;

/** A path for a server's log, in a folder of this run's logs, removed when this process exits. */
export function logFilePath(name: string): string {
  if (logs === undefined) {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'ivr-bench-logs-'));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    logs = folder;
  }
  return path.join(logs, `${name}.log`);
}

/** How much a server wrote to its log file, as a line of the run's output. */
export function logWritten(file: string): string {
  return `${file}: ${(statSync(file).size / 1e6).toFixed(1)} MB of log written`;
}

/** The first line the child prints (`printResult`), as JSON; rejects when the child exits before printing one. */
async function firstJsonLine<T>(child: ChildProcess, script: string): Promise<T> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const exited = once(child, 'exit').then(([code, signal]) => {
    throw new Error(`${script} exited (${signal ?? code}) before it was ready`);
  });
  try {
    const [line] = (await Promise.race([once(lines, 'line'), exited])) as [string];
    return received(script, JSON.parse(line) as FromChild<T>);
  } finally {
    lines.close();
    exited.catch(() => undefined);
  }
}

export interface ServerProcess<Info> {
  readonly info: Info;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a script that calls `announce` once its servers listen; resolves with what it announced. */
export async function startServerProcess<Info>(script: string, options: ServerOptions = {}): Promise<ServerProcess<Info>> {
  const log = options.logFile === undefined ? undefined : openSync(options.logFile, 'a');
  const child = start(script, options, log ?? 'ignore');
  if (log !== undefined) closeSync(log);
  try {
    const exited = once(child, 'exit').then(([code, signal]) => {
      throw new Error(`${script} exited (${signal ?? code}) before it was ready`);
    });
    exited.catch(() => undefined);
    const [message] = (await Promise.race([once(child, 'message'), exited])) as [FromChild<Info>];
    return { info: received(script, message), child, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Runs a script to its end and resolves with what it printed with `printResult`. */
export async function runJsonProcess<Result>(script: string, options: ChildOptions = {}): Promise<Result> {
  const child = start(script, options, 'pipe');
  try {
    const result = await firstJsonLine<Result>(child, script);
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`${script} exited with ${code}`);
    return result;
  } finally {
    await stopChild(child);
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill();
  await exited;
}

/**
 * In a child: sends the parent what it waits for (over IPC: standard output is the server's log) and ends
 * the process when the parent goes away.
 */
export function announce(info: unknown): void {
  process.send?.({ node: process.version, result: info } satisfies FromChild<unknown>);
  process.once('disconnect', () => process.exit(0));
}

/** In a child run by `runJsonProcess`: prints its result, and the Node.js it ran on, as one JSON line. */
export function printResult(result: unknown): void {
  process.stdout.write(`${JSON.stringify({ node: process.version, result } satisfies FromChild<unknown>)}\n`);
}

export function killAllChildren(): void {
  for (const child of children) child.kill('SIGKILL');
}

/**
 * Bounds the whole run: after `seconds`, `onTimeout` runs (every child is killed first, so whatever
 * awaits one fails at once) and the process exits 1 at the latest `graceSeconds` later.
 */
export function limitRunTime(seconds: number, onTimeout: () => void, graceSeconds = 30): void {
  const timer = setTimeout(() => {
    killAllChildren();
    onTimeout();
    setTimeout(() => process.exit(1), graceSeconds * 1000).unref();
  }, seconds * 1000);
  timer.unref();
}

process.once('exit', killAllChildren);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllChildren();
    process.exit(130);
  });
}

/** Node option of a program that is not a bench script: it ends when its parent goes, as `announce` makes a bench child do. */
const ENDS_WITH_PARENT = `--import=data:text/javascript,process.once('disconnect',()=>process.exit(0))`;

export interface ProgramOptions {
  /** The one core the process may run on, as `ServerOptions.core`. */
  readonly core?: number;
  /** The file (created, or appended to) taking the program's standard output and error. */
  readonly logFile: string;
  /** A line of its output saying it is ready, e.g. that it listens. */
  readonly ready: RegExp;
}

/**
 * Starts a program that is not a bench script, such as another project's command-line server, with `node`
 * (a binary of its own: the program may need another Node.js than this process's) running `entry`;
 * resolves once its log has a line matching `options.ready`, rejects when it exits before.
 */
export async function startNodeProgram(node: string, entry: string, args: readonly string[], options: ProgramOptions): Promise<ServerProcess<undefined>> {
  const log = openSync(options.logFile, 'a');
  // The log may hold an earlier run's lines (one log per program across the bench's passes): only what this one writes counts.
  const writtenBefore = fstatSync(log).size;
  const command = [node, ENDS_WITH_PARENT, entry, ...args];
  const [file, ...rest] = options.core === undefined ? command : ['taskset', '-c', String(options.core), ...command];
  const child = spawn(file as string, rest, { stdio: ['ignore', log, log, 'ipc'] });
  closeSync(log);
  children.add(child);
  child.once('exit', () => children.delete(child));
  const watcher = watch(options.logFile);
  try {
    const exited = once(child, 'exit').then(([code, signal]) => {
      throw new Error(`${path.basename(entry)} exited (${signal ?? code}) before it was ready: ${readFileSync(options.logFile, 'utf8').slice(-500)}`);
    });
    exited.catch(() => undefined);
    const ready = (async () => {
      while (!options.ready.test(readFileSync(options.logFile).subarray(writtenBefore).toString('utf8'))) await once(watcher, 'change');
    })();
    await Promise.race([ready, exited]);
    return { info: undefined, child, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  } finally {
    watcher.close();
  }
}
