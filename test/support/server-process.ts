import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the base URL once the server says it is listening. */
  listening(): Promise<string>;
  exited(): Promise<number | null>;
}

/** Runs src/main.ts as `npm start` would run the built file, with only the given environment. */
export function startServerProcess(env: NodeJS.ProcessEnv): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    listening: () =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (found?.[1] !== undefined) {
            child.stdout.off('data', check);
            resolve(found[1]);
          }
        };
        child.stdout.on('data', check);
        check();
        void exit.then((code) => reject(new Error(`server exited with ${code}: ${err}`)));
      }),
    exited: () => exit,
  };
}

/** Ends the process if it still runs, whatever the test did with it; for afterEach. */
export async function stopIfRunning(server: ServerProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (server === undefined || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill(signal);
  await server.exited();
}
