/**
 * Runs a task now, or once one of the tasks running finishes, so that at most `max` run at once. A task
 * whose `signal` aborts before it starts never starts: the promise rejects with the signal's reason.
 */
export type ConcurrencyLimit = <Result>(task: () => Promise<Result>, signal?: AbortSignal) => Promise<Result>;

/** The line is as long as it may be: the task was refused at once, not queued. */
export class LineFullError extends Error {
  override readonly name = 'LineFullError';
}

/** Why the signal aborted, as the error the task's promise rejects with. */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error('the task was abandoned before it started', { cause: reason });
}

/**
 * A counting semaphore with a first-in, first-out line of at most `mostWaiting` tasks. Written here
 * because p-limit, the usual package, ships only as an ES module since version 4, and this project
 * compiles to CommonJS.
 */
export function limitConcurrency(max: number, mostWaiting = Number.POSITIVE_INFINITY): ConcurrencyLimit {
  let running = 0;
  const waiting: Array<() => void> = [];

  /** Resolves when the task may start: at once, or when a slot passes to it. */
  function slot(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(abortReason(signal));
    if (running < max) {
      running += 1;
      return Promise.resolve();
    }
    if (waiting.length >= mostWaiting) return Promise.reject(new LineFullError(`${waiting.length} tasks are waiting already`));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        // Leaves the line at once, so that a client that went away holds no place in it.
        waiting.splice(waiting.indexOf(start), 1);
        reject(abortReason(signal));
      };
      const start = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      waiting.push(start);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  return async (task, signal) => {
    await slot(signal);
    try {
      return await task();
    } finally {
      // The slot passes straight to the next in line, so `running` counts it without a gap.
      const next = waiting.shift();
      if (next === undefined) running -= 1;
      else next();
    }
  };
}
