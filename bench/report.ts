/** docs/performance.md: the machine, the method, and one table of every figure against its goal. */
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
  readonly more: readonly string[];
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
    `- Load: the load generator (autocannon, fetch) ran on the same machine over loopback, each server under test in a ` +
      `child process of its own, running the compiled app (dist/, as npm start runs it), but for the PostgreSQL figures, whose servers (PostgreSQL and memory alike, compiled too) bench/postgres.ts runs in its own process, its requests one at a time; one-minute load average at the start ${machine.loadAverage.toFixed(2)}.`,
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
    '## More figures from the same run',
    '',
    ...report.more.map((line) => `- ${line}`),
    '',
  ].join('\n');
}
