import { readFileSync } from 'node:fs';
import path from 'node:path';

// npm run test:timings [FILE]: where the last jest run's time went, from what test/support/timings-reporter.cjs
// wrote (.ci/tmp/test-timings.json unless FILE is given): the run's wall time, each project's files, tests
// and time, and the slowest files. `.ci/run` prints it after the main run.

interface FileTiming {
  readonly project: string;
  readonly file: string;
  readonly seconds: number;
  readonly tests: number;
  readonly skipped: number;
}

interface Timings {
  readonly wallSeconds: number;
  readonly files: readonly FileTiming[];
}

const SLOWEST = 20;

const source = process.argv[2] ?? path.join(__dirname, '..', '.ci', 'tmp', 'test-timings.json');
const { wallSeconds, files } = JSON.parse(readFileSync(source, 'utf8')) as Timings;

const seconds = (value: number) => `${value.toFixed(1)} s`;
const sum = (rows: readonly FileTiming[], field: 'seconds' | 'tests' | 'skipped') => rows.reduce((total, row) => total + row[field], 0);

const lines = [
  `${sum(files, 'tests')} tests (${sum(files, 'skipped')} skipped) in ${files.length} file runs: ${seconds(wallSeconds)} of wall time, ` +
    `${seconds(sum(files, 'seconds'))} of files' time`,
  '',
  'project      files  tests  files\' time',
];
for (const project of [...new Set(files.map((row) => row.project))]) {
  const rows = files.filter((row) => row.project === project);
  lines.push(`${project.padEnd(12)} ${String(rows.length).padStart(5)}  ${String(sum(rows, 'tests')).padStart(5)}  ${seconds(sum(rows, 'seconds')).padStart(11)}`);
}
lines.push('', `the ${SLOWEST} slowest file runs:`);
for (const row of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST)) {
  lines.push(`${seconds(row.seconds).padStart(8)}  ${row.project.padEnd(11)} ${row.file} (${row.tests} tests)`);
}
process.stdout.write(`${lines.join('\n')}\n`);
