/** Runs a task now, or once one of the tasks running finishes, so that at most `max` run at once. */
export type ConcurrencyLimit = <Result>(task: () => Promise<Result>) => Promise<Result>;

/**
 * A counting semaphore with a first-in, first-out line. Written here because p-limit, the usual package,
 * ships only as an ES module since version 4, and this project compiles to CommonJS.
 */
export function limitConcurrency(max: number): ConcurrencyLimit {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running < max) running += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
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
