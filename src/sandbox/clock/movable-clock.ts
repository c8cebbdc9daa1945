import { errors } from '../../errors/catalogue';
import type { Clock } from '../../time/clock';

/**
 * The most the clock may be moved ahead in all: a hundred years (of 365 days), ten of the largest single
 * advances. A sandbox tries expiries (hours), rate-limit windows (minutes) and the dashboard's "today"
 * moved on (months to a few years); a century covers all of them many times over, keeps every date the
 * server writes (the Date header, ISO times, report paths) a four-digit year, and stays far below what a
 * JavaScript date holds (about 275,000 years on), past which every answer failed.
 */
export const MOST_OFFSET_SECONDS = 3_153_600_000;

/**
 * The clock of a sandbox (SANDBOX_CLOCK): it runs with the clock it wraps, moved forward on request, so
 * that rate-limit windows roll over and temporary credentials age without waiting. It only moves forward:
 * a window or an expiry is never met twice. Each instance keeps its own offset. Retention never reads it
 * (composition-root.ts): what it drops would stay dropped once a restart sets the time back.
 */
export class MovableClock implements Clock {
  private offsetMs = 0;

  constructor(private readonly base: Clock) {}

  now(): number {
    return this.base.now() + this.offsetMs;
  }

  /** Moves the time forward, or throws IVR_CLOCK_LIMIT, unmoved, when that would pass MOST_OFFSET_SECONDS in all. */
  advance(seconds: number): void {
    if (seconds > this.secondsLeft) throw errors.clockLimit(seconds, MOST_OFFSET_SECONDS, this.secondsLeft);
    this.offsetMs += seconds * 1000;
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }

  /** How much further the clock may still move. */
  get secondsLeft(): number {
    return MOST_OFFSET_SECONDS - this.offsetSeconds;
  }
}
