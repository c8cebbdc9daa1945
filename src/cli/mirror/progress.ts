import type { ProgressOutput } from '../import/progress';

/** How a mirror tells its reading of the source: requests made, and the wait left for a rate-limit window. */
export interface MirrorProgress {
  requested(requests: number): void;
  /** Milliseconds left of a wait for the source's rate limit; 0 when it is over. */
  waiting(msLeft: number): void;
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
  let lastLogged = Number.NEGATIVE_INFINITY;
  let drawn = false;
  const describe = () =>
    `mirror: ${requests} requests to the source` + (waitLeftMs > 0 ? `, waiting ${Math.ceil(waitLeftMs / 1000)} s for its rate limit` : '');
  const draw = () => {
    output.write(`\r${describe().slice(0, (output.columns ?? 80) - 1)}\u001b[K`);
    drawn = true;
  };
  return {
    requested(count) {
      requests = count;
      if (output.isTTY === true) draw();
    },
    waiting(msLeft) {
      const begins = waitLeftMs === 0 && msLeft > 0;
      waitLeftMs = msLeft;
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
