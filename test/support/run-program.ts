import { execFile } from 'node:child_process';

/** How a program ended: its exit code (-1 when it was killed, timed out or could not start) and what it wrote. */
export interface ProgramRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

interface RunOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Milliseconds before the program is killed (then its code is -1). */
  readonly timeout?: number;
}

/** Runs a program to its end and resolves however it ended, where a promisified execFile rejects on a non-zero exit. */
export function runProgram(file: string, args: readonly string[], { cwd, env, timeout }: RunOptions = {}): Promise<ProgramRun> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
    );
  });
}
