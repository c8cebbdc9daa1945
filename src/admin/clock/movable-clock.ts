import type { Clock } from '../../time/clock';

/**
 * The clock of a sandbox (SANDBOX_CLOCK): it runs with the clock it wraps, moved forward on request, so
 * that rate-limit windows roll over and temporary credentials age without waiting. It only moves forward:
 * a window or an expiry is never met twice. Each instance keeps its own offset.
 */
export class MovableClock implements Clock {
  private offsetMs = 0;

  constructor(private readonly base: Clock) {}

  now(): number {
    return this.base.now() + this.offsetMs;
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }
}
