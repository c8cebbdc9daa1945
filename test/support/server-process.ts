import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable } from 'node:stream';
import path from 'node:path';
import { BANNER_END } from '../../src/banner';

const ROOT = path.resolve(__dirname, '../..');

/** What a process has written to one of its streams, and a way to wait for more. */
export interface OutputStream {
  text(): string;
  /** Resolves with everything written so far once it matches; rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<string>;
}

export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Standard output: the JSON log lines. */
  readonly logs: OutputStream;
  /** Standard error: the banner, or the one line of a failed start. */
  readonly messages: OutputStream;
  /** Resolves with the base URL once the whole banner is printed (the server listens before it prints). */
  listening(): Promise<string>;
  /** Resolves with the exit code once the process has exited and its output is all read. */
  exited(): Promise<number | null>;
  /** Sends a signal to the server, and to every process of its group when a program started it. */
  kill(signal: NodeJS.Signals): void;
}

/** What `stream` writes, kept as it comes; `name` says whose in the refusal when `exit` comes before a match. */
export function collect(stream: Readable, exit: Promise<number | null>, name: string): OutputStream {
  let written = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (written += chunk));
  return {
    text: () => written,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(written)) return;
          stream.off('data', check);
          resolve(written);
        };
        stream.on('data', check);
        check();
        void exit.then((code) => reject(new Error(`the process exited with ${code} before its ${name} matched ${pattern}:\n${written}`)));
      }),
  };
}

/**
 * For a start whose test reads none of the demo account's data (dev/demo, its numbers and calls): loading
 * them is much of the work of a start.
 */
export const NO_DEMO_DATA: NodeJS.ProcessEnv = { DEMO_DATA: 'false' };

/** Runs the compiled dist/main.js, exactly what `npm start` runs, with only the given environment. */
export function startServerProcess(env: NodeJS.ProcessEnv): ServerProcess {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
  });
  return serverProcess(child, (signal) => child.kill(signal));
}

/**
 * Runs a command that starts the server through another program (`npx ivr-reporting serve`, `npm start`)
 * in `cwd`, with only the given environment, on a free port of loopback. It runs in a process group of its
 * own, which stopIfRunning ends whole: ending npm alone would leave the server it started running.
 */
export function startServerCommand(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): ServerProcess {
  const child = spawn(command, args, { cwd, detached: true, env: { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env } });
  return serverProcess(child, (signal) => process.kill(-(child.pid as number), signal));
}

function serverProcess(child: ChildProcessWithoutNullStreams, kill: (signal: NodeJS.Signals) => void): ServerProcess {
  // 'close', not 'exit': the process may exit before everything it wrote has been read.
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const logs = collect(child.stdout, exit, 'standard output');
  const messages = collect(child.stderr, exit, 'standard error');
  const bannerEnd = new RegExp(`^${BANNER_END.replace(/[.+]/g, '\\$&')}\\n`, 'm');
  return {
    child,
    logs,
    messages,
    listening: async () => {
      const banner = await messages.waitFor(bannerEnd);
      return /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1] as string;
    },
    exited: () => exit,
    kill,
  };
}

/** Ends the process if it still runs, whatever the test did with it; for afterEach. */
export async function stopIfRunning(server: ServerProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (server === undefined || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.kill(signal);
  await server.exited();
}
