import { monthStart } from '../time/months';
import { applyRetention, repairRetentionHorizon, type Retention } from './retention';

/** Months made ready ahead of the current one, so that the calls of a month never wait for its partition. */
export const MONTHS_AHEAD = 3;

/** Often enough that a month is made ready months before it starts and retention follows the clock within the hour. */
export const MAINTENANCE_INTERVAL_MS = 3_600_000;

/** One round: the current month and the next MONTHS_AHEAD made ready, by the system's clock, then retention applied. */
export async function maintainCalls(retention: Retention): Promise<void> {
  const now = retention.clock.now();
  await retention.store.calls.prepareMonths(monthStart(now), monthStart(now, MONTHS_AHEAD));
  await applyRetention(retention, false);
}

export interface Maintenance {
  /** Resolves once a round in progress is over; no round starts after it. */
  stop(): Promise<void>;
}

/**
 * The server's upkeep of the raw calls: at start a retention horizon past what the system's clock allows
 * set back and a round (awaited, so a failure there stops the start), then a round every
 * MAINTENANCE_INTERVAL_MS, a failed round logged and tried again at the next. Several instances may run it
 * at once: the store makes and drops each month once (under a lock on PostgreSQL).
 */
export async function startMaintenance(retention: Retention, intervalMs = MAINTENANCE_INTERVAL_MS): Promise<Maintenance> {
  await repairRetentionHorizon(retention);
  await maintainCalls(retention);
  let round: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    round = round.then(() =>
      maintainCalls(retention).catch((error: unknown) => retention.logger.error({ err: error }, 'the upkeep of raw calls failed; tried again at the next round')),
    );
  }, intervalMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      return round;
    },
  };
}
