import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The package's bin, as `npx ivr-reporting` runs it: compiled JavaScript in dist/. */
export const CLI_BIN = path.join(ROOT, 'bin/ivr-reporting.mjs');

interface CliOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly input?: string;
  /** Another copy of the bin, to run it away from dist/. */
  readonly bin?: string;
}

/** Runs `ivr-reporting ARGS` through the package's bin, with only the given environment. */
export function runCli(args: readonly string[], { env = {}, input, bin = CLI_BIN }: CliOptions = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A temporary folder for files to import; remove it with the returned function. */
export async function scratchFolder(): Promise<{ path: string; write(name: string, text: string): Promise<string>; remove(): Promise<void> }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'ivr-cli-'));
  return {
    path: folder,
    write: async (name, text) => {
      const file = path.join(folder, name);
      await writeFile(file, text);
      return file;
    },
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
