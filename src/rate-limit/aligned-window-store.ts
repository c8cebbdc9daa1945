import type { IncrementResponse, Store as RateLimitStore } from 'express-rate-limit';
import type { RateLimitCounters } from '../storage/store';
import type { Clock } from '../time/clock';

/**
 * An express-rate-limit store with fixed windows aligned to the clock (windows of 900 s start at :00,
 * :15, :30 and :45), where express-rate-limit's own stores start each client's window at its first hit.
 * Counting is delegated to the storage interface, so limits are shared wherever the counters are.
 */
export class AlignedWindowStore implements RateLimitStore {
  readonly localKeys = false;

  constructor(
    private readonly counters: RateLimitCounters,
    private readonly clock: Clock,
    private readonly windowMs: number,
    readonly prefix: string,
  ) {}

  private windowStart(): number {
    return Math.floor(this.clock.now() / this.windowMs) * this.windowMs;
  }

  /** The end of the window of the last count, as express-rate-limit takes it: one Date a window, not one a request. */
  private windowEnd = new Date(0);

  async increment(key: string): Promise<IncrementResponse> {
    const windowStart = this.windowStart();
    const totalHits = await this.counters.hit(this.prefix + key, windowStart, this.windowMs);
    if (this.windowEnd.getTime() !== windowStart + this.windowMs) this.windowEnd = new Date(windowStart + this.windowMs);
    return { totalHits, resetTime: this.windowEnd };
  }

  decrement(key: string): Promise<void> {
    return this.counters.decrement(this.prefix + key, this.windowStart());
  }

  resetKey(key: string): Promise<void> {
    return this.counters.reset(this.prefix + key);
  }
}
