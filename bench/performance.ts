/**
 * npm run bench: every figure of docs/performance.md in one run. Each group of figures runs in turn, its
 * servers in child processes of their own; a group that fails or lacks a prerequisite leaves its rows
 * "not measured" with the reason, and the others still run. Bounded by BENCH_TIMEOUT_SECONDS, after
 * which every child is killed and what was measured is written. BENCH_QUICK=1 for a short trial.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import type { GeneratorCheck } from './load';
import { describeMachine } from './machine';
import { ROW_GROUPS } from './performance-rows';
import { limitRunTime } from './processes';
import { checkTableLines, renderReport, tableLines, type Row } from './report';
import { settings } from './settings';
import { logLine } from './standalone';
import { wrkVersion } from './wrk';

async function main(): Promise<void> {
  const startedAt = new Date();
  const machine = describeMachine();
  let timedOut = false;
  limitRunTime(settings.timeoutSeconds, () => {
    timedOut = true;
    logLine(`BENCH_TIMEOUT_SECONDS=${settings.timeoutSeconds} ran out: every child process killed`);
  });
  const secondsLeft = () => settings.timeoutSeconds - (Date.now() - startedAt.getTime()) / 1000;
  const rows: Row[] = [];
  const more: string[] = [];
  const checks: GeneratorCheck[] = [];
  for (const group of ROW_GROUPS) {
    logLine(`== ${group.name}`);
    const notMeasured = (reason: string) => group.unmeasured.map((row) => ({ ...row, outcome: { notMeasured: reason } }));
    if (timedOut) {
      rows.push(...notMeasured(`BENCH_TIMEOUT_SECONDS=${settings.timeoutSeconds} ran out before it`));
      continue;
    }
    try {
      const measured = await group.measure((line) => logLine(`  ${line}`), secondsLeft());
      rows.push(...measured.rows);
      more.push(...measured.more);
      checks.push(...(measured.checks ?? []));
    } catch (error) {
      const reason = timedOut ? `BENCH_TIMEOUT_SECONDS=${settings.timeoutSeconds} ran out during it` : `failed: ${error instanceof Error ? error.message : String(error)}`;
      logLine(`  ${reason}`);
      rows.push(...notMeasured(reason));
    }
  }
  const report = renderReport({
    startedAt,
    minutes: (Date.now() - startedAt.getTime()) / 60_000,
    machine,
    reducedSizes: settings.belowFullRun,
    settings: settings.inEffect,
    methods: ROW_GROUPS.map((group) => group.method),
    rows,
    checks,
    more,
    wrk: await wrkVersion(),
    endLoadAverage: os.loadavg()[0] ?? 0,
  });
  await writeFile(settings.reportFile, report);
  logLine(['', ...tableLines(rows), '', ...checkTableLines(checks), '', `written to ${settings.reportFile}`].join('\n'));
  process.exit(timedOut ? 1 : 0);
}

void main();
