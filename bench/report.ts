/**
 * docs/performance.md: the machine, the method, one table of every figure against its goal, the load
 * generator against the fastest server of each load figure, and the history (bench/performance-history.md,
 * the figures of record of earlier methods, copied as they are).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GENERATOR_MARGIN, type GeneratorCheck } from './load';
import type { Machine } from './machine';

export type Outcome =
  | { readonly measured: string; readonly baseline: string; readonly ratio: string; readonly met: boolean }
  | { readonly notMeasured: string };

export interface Row {
  readonly figure: string;
  readonly goal: string;
  readonly outcome: Outcome;
}

export interface Report {
  readonly startedAt: Date;
  readonly minutes: number;
  readonly machine: Machine;
  /** Fewer rounds, seconds or calls than a full run: the figures are a smoke test, not the figures of record. */
  readonly reducedSizes: boolean;
  readonly settings: readonly string[];
  readonly methods: readonly string[];
  readonly rows: readonly Row[];
  readonly checks: readonly GeneratorCheck[];
  readonly more: readonly string[];
  /** `wrk -v`'s first line, if wrk was there. */
  readonly wrk: string | undefined;
  /** One-minute load average when the run ended. */
  readonly endLoadAverage: number;
}

const cell = (text: string) => text.replaceAll('|', '\\|');

export function tableLines(rows: readonly Row[]): string[] {
  return [
    '| figure | measured | baseline | ratio/multiple | goal | met? |',
    '|---|---|---|---|---|---|',
    ...rows.map(({ figure, goal, outcome }) => {
      const values =
        'notMeasured' in outcome
          ? [`not measured: ${outcome.notMeasured}`, '', '', goal, '']
          : [outcome.measured, outcome.baseline, outcome.ratio, goal, outcome.met ? 'yes' : 'no'];
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

export function renderReport(report: Report): string {
  const { machine } = report;
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
    `- Node.js: ${machine.node}`,
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
    '## Figures',
    '',
    ...tableLines(report.rows),
    '',
    '## The load generator was not the limit',
    '',
    `For each load figure, in every round, wrk with the same options and requests also loaded a trivial node:http server ` +
      `(bench/ceiling-server.ts, on core 0 like the servers) that reads the request and sends the app's answer as captured (status, headers, ` +
      `bytes): that rate is wrk's ceiling, and its median must be at least ${GENERATOR_MARGIN}x the median of the fastest server measured ` +
      "with that answer, or the figures of that group could be held back by the generator. The last column is the lowest of the rounds' own " +
      'multiples: a low one is a round in which the machine, not the server, set the pace.',
    '',
    ...(report.checks.length === 0 ? ['No load figure was measured.'] : checkTableLines(report.checks)),
    '',
    '## More figures from the same run',
    '',
    ...report.more.map((line) => `- ${line}`),
    '',
    readFileSync(HISTORY, 'utf8').trimEnd(),
    '',
  ].join('\n');
}
