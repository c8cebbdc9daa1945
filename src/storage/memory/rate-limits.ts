import type { Store } from '../store';

interface WindowCount {
  windowStart: number;
  windowEnd: number;
  count: number;
}

/** Counters per key and fixed window; a window that has ended is forgotten once a later one begins. */
export function memoryRateLimits(): Store['rateLimits'] {
  const windows = new Map<string, WindowCount>();
  let latestWindowStart = Number.NEGATIVE_INFINITY;

  function forgetEndedWindows(now: number): void {
    for (const [key, window] of windows) {
      if (window.windowEnd <= now) windows.delete(key);
    }
  }

  return {
    hit: (key, windowStart, windowMs) => {
      if (windowStart > latestWindowStart) {
        latestWindowStart = windowStart;
        forgetEndedWindows(windowStart);
      }
      const current = windows.get(key);
      if (current === undefined || current.windowStart !== windowStart) {
        windows.set(key, { windowStart, windowEnd: windowStart + windowMs, count: 1 });
        return Promise.resolve(1);
      }
      current.count += 1;
      return Promise.resolve(current.count);
    },
    decrement: (key, windowStart) => {
      const current = windows.get(key);
      if (current !== undefined && current.windowStart === windowStart && current.count > 0) {
        current.count -= 1;
      }
      return Promise.resolve();
    },
    reset: (key) => {
      windows.delete(key);
      return Promise.resolve();
    },
  };
}
