import { execFile, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { chromiumPath } from './chromium';

/**
 * The real programs some suites drive as users have them: the browser, and the SOAP clients survey systems
 * are written with. `bash .ci/run` installs them all; on a machine without one, `npm test` reports its
 * suites as skipped (the global set-up says which and how to install it), and under CI=true, where the
 * real path must be proven, they fail with the same instructions.
 */
export interface RealProgram {
  readonly name: string;
  /** The suites that need it, as the skip notice names them. */
  readonly suites: string;
  /** How to get it. */
  readonly install: string;
  readonly installed: () => boolean;
  /** The same question without blocking, so that the global set-up asks every program at once. */
  readonly probe: () => Promise<boolean>;
}

/** Debian's interpreter, where apt installs python3-zeep and python3-suds (a python3 earlier on PATH may be another). */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/** Whether `command args` runs and prints `yes`; asked once per test file. */
function answersYes(command: string, args: readonly string[]): Pick<RealProgram, 'installed' | 'probe'> {
  let answer: boolean | undefined;
  return {
    installed: () => {
      answer ??= (() => {
        const probe = spawnSync(command, args, { encoding: 'utf8' });
        return probe.error === undefined && probe.stdout.trim() === 'yes';
      })();
      return answer;
    },
    probe: () => new Promise((resolve) => execFile(command, args, { encoding: 'utf8' }, (error, stdout) => resolve(error === null && stdout.trim() === 'yes'))),
  };
}

function chromiumInstalled(): boolean {
  try {
    accessSync(chromiumPath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const CHROMIUM: RealProgram = {
  name: `Chromium at ${chromiumPath}`,
  suites: 'the browser suites (dashboard, inspector, /docs)',
  install: 'apt-get install chromium, or set CHROMIUM_PATH',
  installed: chromiumInstalled,
  probe: () => Promise.resolve(chromiumInstalled()),
};

export const PHP_SOAP: RealProgram = {
  name: "PHP's SoapClient",
  suites: 'the survey suites through PHP (and the tour of the README and the doc walk-throughs that use it)',
  install: 'apt-get install php-cli php-soap',
  ...answersYes('php', ['-r', 'echo extension_loaded("soap") ? "yes" : "no";']),
};

export const ZEEP: RealProgram = {
  name: "Python's zeep",
  suites: 'the survey suites through zeep',
  install: 'apt-get install python3-zeep',
  ...answersYes(DEBIAN_PYTHON, ['-c', 'from zeep import Client; print("yes")']),
};

export const SUDS: RealProgram = {
  name: "Python's suds",
  suites: 'the survey suites through suds',
  install: 'apt-get install python3-suds',
  ...answersYes(DEBIAN_PYTHON, ['-c', 'from suds.client import Client; print("yes")']),
};

export const SYSTEMD_ANALYZE: RealProgram = {
  name: 'systemd-analyze',
  suites: "the check of docs/deployment.md's systemd unit",
  install: 'apt-get install systemd',
  ...answersYes('sh', ['-c', 'systemd-analyze --version >/dev/null 2>&1 && echo yes']),
};

export const PODMAN: RealProgram = {
  name: 'podman, podman-compose and debootstrap',
  suites: "the test of the Dockerfile and compose.yaml",
  install: 'apt-get install podman podman-compose runc debootstrap',
  ...answersYes('sh', ['-c', 'podman --version >/dev/null 2>&1 && podman-compose version >/dev/null 2>&1 && command -v debootstrap >/dev/null && echo yes']),
};

export const REAL_PROGRAMS: readonly RealProgram[] = [CHROMIUM, PHP_SOAP, ZEEP, SUDS, SYSTEMD_ANALYZE, PODMAN];

const underCi = () => process.env.CI === 'true';

function refusal(program: RealProgram): Error {
  return new Error(`${program.suites} need ${program.name}: ${program.install} (bash .ci/run installs it).`);
}

export type SuiteBlock = (name: string, body: () => void) => void;

/** `describe` where the program is installed; without it, `describe.skip`, or under CI a block that fails with instructions. */
export function describeWith(program: RealProgram): SuiteBlock {
  if (program.installed()) return describe;
  if (!underCi()) return describe.skip;
  return (name, body) =>
    describe(name, () => {
      beforeAll(() => {
        throw refusal(program);
      });
      body();
    });
}

/** The same for a whole test file: call it at the top of a file whose every test needs the program. */
export function requireForFile(program: RealProgram): void {
  if (program.installed()) return;
  if (!underCi()) {
    // Every test of the file reported as skipped.
    globalThis.test = test.skip;
    globalThis.it = it.skip;
    return;
  }
  beforeAll(() => {
    throw refusal(program);
  });
}
