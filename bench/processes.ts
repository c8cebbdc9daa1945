/**
 * The process boundary of the benchmarks. A server under measurement runs in a child process of its own,
 * so that the load generator never shares its event loop, pinned to a core when asked (taskset), its
 * standard output (the app's log) into a file when asked; every child started here is remembered, so a
 * time limit or an interrupted run can kill them all, and a child ends itself when its parent goes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, watch } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const children = new Set<ChildProcess>();

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
  const node = [process.execPath, ...(options.nodeArgs ?? []), '--import', 'tsx', script, ...(options.args ?? [])];
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

/** The first line the child prints, as JSON; rejects when the child exits before printing one. */
async function firstJsonLine<T>(child: ChildProcess, script: string): Promise<T> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const exited = once(child, 'exit').then(([code, signal]) => {
    throw new Error(`${script} exited (${signal ?? code}) before it was ready`);
  });
  try {
    const [line] = (await Promise.race([once(lines, 'line'), exited])) as [string];
    return JSON.parse(line) as T;
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
    const [info] = (await Promise.race([once(child, 'message'), exited])) as [Info];
    return { info, child, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Runs a script to its end and resolves with the JSON line it printed. */
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
  process.send?.(info);
  process.once('disconnect', () => process.exit(0));
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
      while (!options.ready.test(readFileSync(options.logFile, 'utf8'))) await once(watcher, 'change');
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
