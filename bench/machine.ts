/** The machine a run measured, and the Node.js runtimes it measured on, as docs/performance.md states them. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { RECORD_NODE } from './settings';

export interface Machine {
  readonly cpu: string;
  readonly logicalCores: number;
  readonly memoryGiB: number;
  readonly os: string;
  /** The Node.js of this process (the orchestrating one, for npm run bench). */
  readonly node: string;
  /** One-minute load average when the run started: how busy the machine already was. */
  readonly loadAverage: number;
}

function distribution(): string | undefined {
  try {
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    logicalCores: cpus.length,
    memoryGiB: os.totalmem() / 1024 ** 3,
    os: `${distribution() ?? os.type()} (${os.type()} ${os.release()}, ${os.arch()})`,
    node: process.version,
    loadAverage: os.loadavg()[0] ?? 0,
  };
}

/** A Node.js binary a pass of the bench runs every child process on. */
export interface Runtime {
  readonly binary: string;
  /** As the binary says it: v24.21.0. */
  readonly version: string;
  /** Node.js of the major version of record (RECORD_NODE), the first such: its figures are the figures of record. */
  readonly ofRecord: boolean;
}

const major = (version: string) => Number(/^v(\d+)\./.exec(version)?.[1]);

/**
 * Each binary's version, asked of the binary itself. Unless the binaries were given (BENCH_NODES), one of a
 * major version already listed is dropped: the machine's node is measured beside Node.js 24 only when it is
 * another.
 */
export function describeRuntimes(nodes: { readonly binaries: readonly string[]; readonly given: boolean }): Runtime[] {
  const runtimes: Runtime[] = [];
  for (const binary of nodes.binaries) {
    let version: string;
    try {
      version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
    } catch (error) {
      const hint = binary === RECORD_NODE.binary ? ' (npm run bench installs it: npm ci --prefix .ci/node24 --no-audit --no-fund)' : '';
      throw new Error(`BENCH_NODES: ${binary} does not run${hint}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (!nodes.given && runtimes.some((runtime) => major(runtime.version) === major(version))) continue;
    const ofRecord = major(version) === RECORD_NODE.major && !runtimes.some((runtime) => runtime.ofRecord);
    runtimes.push({ binary, version, ofRecord });
  }
  return runtimes;
}
