/**
 * The process boundary of the benchmarks. A server under measurement runs in a child process of its own,
 * so that the load generator never shares its event loop; every child started here is remembered, so a
 * time limit or an interrupted run can kill them all, and a child ends itself when its parent goes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
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

function start(script: string, options: ChildOptions): ChildProcess {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', script, ...(options.args ?? [])], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
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
export async function startServerProcess<Info>(script: string, options: ChildOptions = {}): Promise<ServerProcess<Info>> {
  const child = start(script, options);
  try {
    const info = await firstJsonLine<Info>(child, script);
    return { info, child, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Runs a script to its end and resolves with the JSON line it printed. */
export async function runJsonProcess<Result>(script: string, options: ChildOptions = {}): Promise<Result> {
  const child = start(script, options);
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

/** In a child: prints what the parent waits for and ends the process when the parent goes away. */
export function announce(info: unknown): void {
  process.stdout.write(`${JSON.stringify(info)}\n`);
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
