/** How a benchmark module runs on its own (npm run bench:<name>): bounded, its lines on stdout, exit 1 on failure. */
import { limitRunTime } from './processes';
import { settings } from './settings';

export type Log = (line: string) => void;

export const logLine: Log = (line) => process.stdout.write(`${line}\n`);

export function runStandalone(name: string, measure: (log: Log) => Promise<readonly string[]>): void {
  limitRunTime(settings.timeoutSeconds, () => process.stderr.write(`${name}: still running after BENCH_TIMEOUT_SECONDS=${settings.timeoutSeconds}; stopped\n`));
  measure(logLine).then(
    (lines) => {
      logLine(lines.join('\n'));
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
