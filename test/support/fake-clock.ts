import type { Clock } from '../../src/time/clock';

/** A clock that moves only when told to. */
export class FakeClock implements Clock {
  constructor(private current: number = Date.UTC(2018, 1, 7, 15, 0, 0)) {}

  now(): number {
    return this.current;
  }

  set(instantMs: number): void {
    this.current = instantMs;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
