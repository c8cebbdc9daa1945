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

/** Runs `ivr-reporting ARGS` from the sources, as the bin does in a clone, with only the given environment. */
export function runCli(args: readonly string[], { env = {}, input }: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
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
export async function scratchFolder(): Promise<{ write(name: string, text: string): Promise<string>; remove(): Promise<void> }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'ivr-cli-'));
  return {
    write: async (name, text) => {
      const file = path.join(folder, name);
      await writeFile(file, text);
      return file;
    },
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
