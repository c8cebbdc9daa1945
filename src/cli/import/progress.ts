import { count } from '../counts';

export interface Progress {
  /** Records sent so far and file bytes read so far. */
  update(records: number, bytesRead: number): void;
  /** The import is over: leaves the terminal on a fresh line. */
  finish(): void;
}

/** Where progress is written: standard error, or a test's fake of it. */
export interface ProgressOutput {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): boolean;
}

const BAR_WIDTH = 30;
const TERMINAL_REFRESH_MS = 100;
const LOG_LINE_INTERVAL_MS = 2_000;

/**
 * Progress of an import on standard error: a bar redrawn in place on a terminal, a plain line every two
 * seconds otherwise (a log or a pipe). The share done is by bytes of the file, the only total known
 * before the end; the rate is records per second since the start.
 */
export function progressReporter(totalBytes: number, output: ProgressOutput, now: () => number = Date.now): Progress {
  const started = now();
  let lastShown = Number.NEGATIVE_INFINITY;
  let latest = { records: 0, bytesRead: 0 };
  let drawn = false;

  const describe = () => {
    const share = totalBytes === 0 ? 1 : Math.min(1, latest.bytesRead / totalBytes);
    const seconds = Math.max((now() - started) / 1000, 0.001);
    const rate = Math.round(latest.records / seconds);
    return { share, text: `${Math.floor(share * 100)}%  ${count(latest.records)} records  ${count(rate)} records/s` };
  };

  const draw = () => {
    const { share, text } = describe();
    const filled = Math.round(share * BAR_WIDTH);
    const line = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${text}`;
    output.write(`\r${line.slice(0, (output.columns ?? 80) - 1)}\u001b[K`);
    drawn = true;
  };

  return {
    update(records, bytesRead) {
      latest = { records, bytesRead };
      const interval = output.isTTY === true ? TERMINAL_REFRESH_MS : LOG_LINE_INTERVAL_MS;
      if (now() - lastShown < interval) return;
      lastShown = now();
      if (output.isTTY === true) draw();
      else output.write(`imported ${describe().text}\n`);
    },
    finish() {
      if (output.isTTY !== true) return;
      draw();
      if (drawn) output.write('\n');
    },
  };
}
