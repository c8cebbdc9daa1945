/**
 * npm run bench: every figure of docs/performance.md in one run, once per Node.js of BENCH_NODES (by
 * default Node.js 24, of record, then the machine's node when it is another major version): a pass each,
 * every child process of a pass on its binary. Each group of figures runs in turn, its servers in child
 * processes of their own; a group that fails or lacks a prerequisite leaves its rows "not measured" with
 * the reason, and the others still run. Bounded by BENCH_TIMEOUT_SECONDS for all the passes together,
 * after which every child is killed and what was measured is written. BENCH_QUICK=1 for a short trial.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import type { GeneratorCheck } from './load';
import { describeMachine, describeRuntimes, type Runtime } from './machine';
import { ROW_GROUPS } from './performance-rows';
import { childVersions, limitRunTime, runChildrenOn } from './processes';
import { checkTableLines, passName, renderReport, tableLines, type Pass, type Row } from './report';
import { settings } from './settings';
import { logLine } from './standalone';
import { wrkVersion } from './wrk';

async function measurePass(runtime: Runtime, timedOut: () => boolean, secondsLeft: () => number): Promise<Pass> {
  runChildrenOn(runtime.binary, runtime.version);
  const rows: Row[] = [];
  const more: string[] = [];
  const checks: GeneratorCheck[] = [];
  for (const group of ROW_GROUPS) {
    logLine(`== ${passName(runtime)}: ${group.name}`);
    const notMeasured = (reason: string) => group.unmeasured.map((row) => ({ ...row, outcome: { notMeasured: reason } }));
    if (timedOut()) {
      rows.push(...notMeasured(`BENCH_TIMEOUT_SECONDS=${settings.timeoutSeconds} ran out before it`));
      continue;
    }
    try {
      const measured = await group.measure((line) => logLine(`  ${line}`), secondsLeft());
      rows.push(...measured.rows);
      more.push(...measured.more);
      checks.push(...(measured.checks ?? []));
    } catch (error) {
      const reason = timedOut() ? `BENCH_TIMEOUT_SECONDS=${settings.timeoutSeconds} ran out during it` : `failed: ${error instanceof Error ? error.message : String(error)}`;
      logLine(`  ${reason}`);
      rows.push(...notMeasured(reason));
    }
  }
  return { runtime, rows, checks, more, childVersions: new Map(childVersions()) };
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const machine = describeMachine();
  const runtimes = describeRuntimes(settings.nodes);
  logLine(`passes: ${runtimes.map((runtime) => `${passName(runtime)} at ${runtime.binary}`).join(', then ')}; this process on Node.js ${machine.node}`);
  let timedOut = false;
  limitRunTime(settings.timeoutSeconds, () => {
    timedOut = true;
    logLine(`BENCH_TIMEOUT_SECONDS=${settings.timeoutSeconds} ran out: every child process killed`);
  });
  const secondsLeft = () => settings.timeoutSeconds - (Date.now() - startedAt.getTime()) / 1000;
  const passes: Pass[] = [];
  for (const runtime of runtimes) passes.push(await measurePass(runtime, () => timedOut, secondsLeft));
  const report = renderReport({
    startedAt,
    minutes: (Date.now() - startedAt.getTime()) / 60_000,
    machine,
    reducedSizes: settings.belowFullRun,
    settings: settings.inEffect,
    methods: ROW_GROUPS.map((group) => group.method),
    passes,
    wrk: await wrkVersion(),
    endLoadAverage: os.loadavg()[0] ?? 0,
  });
  await writeFile(settings.reportFile, report);
  const passOutput = (pass: Pass) => [
    '',
    `${passName(pass.runtime)}; its child processes: ${[...pass.childVersions].map(([version, count]) => `${count} on ${version}`).join(', ') || 'none reported'}`,
    ...tableLines(pass.rows),
    ...(pass.checks.length === 0 ? [] : ['', ...checkTableLines(pass.checks)]),
  ];
  logLine([...passes.flatMap(passOutput), '', `written to ${settings.reportFile}`].join('\n'));
  process.exit(timedOut ? 1 : 0);
}

void main();
