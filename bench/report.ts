/**
 * docs/performance.md: the machine, the method, then for each Node.js measured (the one of record first)
 * one table of every figure against its goal, the load generator against the fastest server of each load
 * figure and the more figures; and the history (bench/performance-history.md, the figures of record of
 * earlier methods, copied as they are).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GENERATOR_MARGIN, type GeneratorCheck } from './load';
import type { Machine, Runtime } from './machine';

export type Outcome =
  | {
      readonly measured: string;
      readonly baseline: string;
      readonly ratio: string;
      readonly met: boolean;
      /** Whether the figure met its milestone, for a goal that has one (a step on the way to it). */
      readonly milestoneMet?: boolean;
    }
  | { readonly notMeasured: string };

export interface Row {
  readonly figure: string;
  readonly goal: string;
  readonly outcome: Outcome;
}

/** Every row measured on one Node.js: all of a pass's child processes ran on its binary. */
export interface Pass {
  readonly runtime: Runtime;
  readonly rows: readonly Row[];
  readonly checks: readonly GeneratorCheck[];
  readonly more: readonly string[];
  /** Each Node.js version the pass's child processes said they ran on, with how many did. */
  readonly childVersions: ReadonlyMap<string, number>;
}

export interface Report {
  readonly startedAt: Date;
  readonly minutes: number;
  readonly machine: Machine;
  /** Fewer rounds, seconds or calls than a full run: the figures are a smoke test, not the figures of record. */
  readonly reducedSizes: boolean;
  readonly settings: readonly string[];
  readonly methods: readonly string[];
  readonly passes: readonly Pass[];
  /** `wrk -v`'s first line, if wrk was there. */
  readonly wrk: string | undefined;
  /** One-minute load average when the run ended. */
  readonly endLoadAverage: number;
}

const cell = (text: string) => text.replaceAll('|', '\\|');

function metCell({ met, milestoneMet }: { readonly met: boolean; readonly milestoneMet?: boolean }): string {
  if (met) return 'yes';
  if (milestoneMet === undefined) return 'no';
  return milestoneMet ? 'no (milestone met)' : 'no (milestone not met either)';
}

export function tableLines(rows: readonly Row[]): string[] {
  return [
    '| figure | measured | baseline | ratio/multiple | goal | met? |',
    '|---|---|---|---|---|---|',
    ...rows.map(({ figure, goal, outcome }) => {
      const values =
        'notMeasured' in outcome
          ? [`not measured: ${outcome.notMeasured}`, '', '', goal, '']
          : [outcome.measured, outcome.baseline, outcome.ratio, goal, metCell(outcome)];
      return `| ${[figure, ...values].map(cell).join(' | ')} |`;
    }),
  ];
}

const rate = (value: number) => `${Math.round(value).toLocaleString('en-US')} req/s`;

export function checkTableLines(checks: readonly GeneratorCheck[]): string[] {
  return [
    `| load figure, answer | generator ceiling: wrk against a node:http server sending that answer | fastest server measured beside it | ceiling / fastest | >= ${GENERATOR_MARGIN}x? | lowest round |`,
    '|---|---|---|---|---|---|',
    ...checks.map((check) => {
      const cells = [check.answer, rate(check.ceiling), `${rate(check.fastest)} (${check.fastestServer})`, `${check.multiple.toFixed(2)}x`, check.pass ? 'pass' : 'FAIL'];
      return `| ${[...cells, `${check.lowestRound.toFixed(2)}x`].map(cell).join(' | ')} |`;
    }),
  ];
}

const HISTORY = path.join(__dirname, 'performance-history.md');
const ROOT = path.resolve(__dirname, '..');

/** "Node.js v24.21.0 (of record)". */
export const passName = ({ version, ofRecord }: Runtime) => `Node.js ${version}${ofRecord ? ' (of record)' : ''}`;

const shownBinary = (binary: string) => (path.isAbsolute(binary) && binary.startsWith(`${ROOT}/`) ? path.relative(ROOT, binary) : binary);

/** What a pass's child processes said they ran on: the proof that the pass measured the runtime it names. */
function childrenLine({ runtime, childVersions }: Pass): string {
  const versions = [...childVersions.entries()];
  if (versions.length === 0) return `No child process of this pass reported its Node.js (none was started, or none got that far).`;
  const counted = versions.map(([version, count]) => `${count} on ${version}`).join(', ');
  return `Run on \`${shownBinary(runtime.binary)}\`: each bench script run as a child process of this pass (servers, baselines, generator ceilings, measuring processes) said which Node.js ran it: ${counted}.`;
}

function passLines(pass: Pass): string[] {
  const name = passName(pass.runtime);
  return [
    `## Figures on ${name}`,
    '',
    childrenLine(pass),
    '',
    ...tableLines(pass.rows),
    '',
    `### The load generator was not the limit, on ${name}`,
    '',
    ...(pass.checks.length === 0 ? ['No load figure was measured.'] : checkTableLines(pass.checks)),
    '',
    `### More figures from the same run, on ${name}`,
    '',
    ...(pass.more.length === 0 ? ['None.'] : pass.more.map((line) => `- ${line}`)),
    '',
  ];
}

export function renderReport(report: Report): string {
  const { machine, passes } = report;
  const runtimes = passes.map(({ runtime }) => `${runtime.version} (${runtime.ofRecord ? 'of record; ' : ''}\`${shownBinary(runtime.binary)}\`)`);
  return [
    '# Performance',
    '',
    `Measured by \`npm run bench\` (\`bench/performance.ts\`) on ${report.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, ` +
      `${report.minutes.toFixed(0)} minutes in all. Every figure is a ratio or multiple against a baseline measured in the same run ` +
      '(except where the goal is an absolute figure), so it holds on machines whose speed drifts. Where the time and memory ' +
      'go, and why the goals not met are not, is in [performance-costs.md](performance-costs.md).',
    ...(report.reducedSizes
      ? ['', '**Reduced sizes or rounds (BENCH_QUICK or smaller values): these figures are a smoke test of the harness, not the figures of record.**']
      : []),
    '',
    '## Machine',
    '',
    `- CPU: ${machine.cpu}, ${machine.logicalCores} logical cores`,
    `- Memory: ${machine.memoryGiB.toFixed(1)} GiB`,
    `- OS: ${machine.os}`,
    `- Node.js: ${runtimes.join(' and ')}: every row was measured on each in turn, a pass each, in that order; in a pass, every process ` +
      "under measurement (servers, baselines, the generator's ceilings, the processes measuring memory, PostgreSQL and the scenarios' " +
      `matching) ran on that pass's binary, but the peers' programs, whose Node.js their method names. The orchestrating process (bench/performance.ts, which drives wrk and sends the requests ` +
      `sent one at a time) ran on ${machine.node} in every pass.`,
    `- Load: the load figures (event tracker, svcEval, logins, scenarios) were sent by ${report.wrk ?? 'wrk'} (one thread, pinned to core 1 with taskset) ` +
      'over loopback to servers each in a child process of its own pinned to core 0, running the compiled app (dist/, as npm start runs it) ' +
      "with its standard output, the access log, into a file; each load figure's table line below says the generator's own rate beside " +
      'the fastest server it measured. The other figures send their requests one at a time with fetch from the orchestrating process, ' +
      'their servers unpinned, in child processes of their own, but for the PostgreSQL figures, whose servers (PostgreSQL and memory alike, ' +
      `compiled too) bench/postgres.ts runs in its own process. One-minute load average at the start ${machine.loadAverage.toFixed(2)}, ` +
      `at the end ${report.endLoadAverage.toFixed(2)} (the machine's other work shares both cores).`,
    '',
    '## How each figure is measured',
    '',
    `Settings of this run: ${report.settings.join(', ')}.`,
    '',
    ...report.methods.map((method) => `- ${method}`),
    '',
    `The load generator was not the limit: for each load figure, in every round, wrk with the same options and requests also loaded a trivial node:http server ` +
      `(bench/ceiling-server.ts, on core 0 like the servers, on the pass's Node.js) that reads the request and sends the app's answer as captured (status, headers, ` +
      `bytes): that rate is wrk's ceiling, and its median must be at least ${GENERATOR_MARGIN}x the median of the fastest server measured ` +
      "with that answer, or the figures of that group could be held back by the generator. The last column of each pass's table of it is the lowest of the rounds' own " +
      'multiples: a low one is a round in which the machine, not the server, set the pace.',
    '',
    ...passes.flatMap(passLines),
    readFileSync(HISTORY, 'utf8').trimEnd(),
    '',
  ].join('\n');
}
