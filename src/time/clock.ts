/** The source of the current time, injected so that windows and expiry can be tested with a fake. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
