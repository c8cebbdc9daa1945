import type { ProgressOutput } from '../import/progress';

/** How a mirror tells its reading of the source: requests made, and the wait left before the next. */
export interface MirrorProgress {
  requested(requests: number): void;
  /** Milliseconds left of a wait, 0 when it is over, and what it waits for: `for its rate limit`, `to retry after its 503 (1 of 5)`. */
  waiting(msLeft: number, why: string): void;
  /** Reading is over: leaves the terminal on a fresh line. */
  finish(): void;
  /** A line of its own, after reading: what the run is about to do. */
  announce(text: string): void;
}

const LOG_LINE_INTERVAL_MS = 10_000;

/**
 * On a terminal, one line redrawn in place; otherwise (a log, a pipe) a line when a wait begins and at
 * most one every ten seconds while it lasts, so that a long wait is seen to be one.
 */
export function mirrorProgress(output: ProgressOutput, now: () => number = Date.now): MirrorProgress {
  let requests = 0;
  let waitLeftMs = 0;
  let waitingFor = '';
  let lastLogged = Number.NEGATIVE_INFINITY;
  let drawn = false;
  const describe = () =>
    `mirror: ${requests} requests to the source` + (waitLeftMs > 0 ? `, waiting ${Math.ceil(waitLeftMs / 1000)} s ${waitingFor}` : '');
  const draw = () => {
    output.write(`\r${describe().slice(0, (output.columns ?? 80) - 1)}\u001b[K`);
    drawn = true;
  };
  return {
    requested(count) {
      requests = count;
      if (output.isTTY === true) draw();
    },
    waiting(msLeft, why) {
      const begins = waitLeftMs === 0 && msLeft > 0;
      waitLeftMs = msLeft;
      waitingFor = why;
      if (output.isTTY === true) return draw();
      if (msLeft === 0 || (!begins && now() - lastLogged < LOG_LINE_INTERVAL_MS)) return;
      lastLogged = now();
      output.write(`${describe()}\n`);
    },
    finish() {
      if (output.isTTY === true && drawn) output.write('\n');
    },
    announce(text) {
      output.write(`mirror: ${text}\n`);
    },
  };
}
