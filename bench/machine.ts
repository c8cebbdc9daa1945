/** The machine a run measured, as docs/performance.md states it. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  readonly cpu: string;
  readonly logicalCores: number;
  readonly memoryGiB: number;
  readonly os: string;
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
