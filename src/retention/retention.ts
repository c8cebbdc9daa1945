import type { Logger } from 'pino';
import type { RawCallMonths, Store } from '../storage/store';
import type { Clock } from '../time/clock';
import { monthStart } from '../time/months';

/** What retention drops, or would drop: the raw calls before the cut-off, by month. */
export interface RetentionOutcome {
  /** The first instant of the oldest month kept; undefined when RETENTION_MONTHS is unset (nothing goes). */
  readonly cutoffMs: number | undefined;
  readonly dryRun: boolean;
  readonly months: readonly RawCallMonths[];
}

/** The first instant of the oldest UTC month kept: `months` whole months before the current one. */
export const retentionCutoff = (nowMs: number, months: number): number => monthStart(nowMs, -months);

export interface Retention {
  readonly store: Store;
  /**
   * The system's clock, never a sandbox's (SANDBOX_CLOCK): what retention drops cannot come back, so a
   * clock moved a year on for a try must not drop this year's calls, nor record a horizon a year ahead.
   */
  readonly clock: Clock;
  readonly logger: Logger;
  /** RETENTION_MONTHS; undefined: keep everything. */
  readonly months: number | undefined;
}

/**
 * Drops (or, `dryRun`, lists) the raw calls of the months before the cut-off that the system's clock gives,
 * each part dropped logged with its months and its number of calls. The server's schedule and
 * POST /admin/retention (`ivr-reporting retention`) both come here.
 */
export async function applyRetention({ store, clock, logger, months }: Retention, dryRun: boolean): Promise<RetentionOutcome> {
  if (months === undefined) return { cutoffMs: undefined, dryRun, months: [] };
  const cutoffMs = retentionCutoff(clock.now(), months);
  const parts = await store.calls.dropRawCallsBefore(cutoffMs, dryRun);
  if (!dryRun) {
    for (const part of parts) {
      logger.info({ firstMonth: part.firstMonth ?? null, lastMonth: part.lastMonth, calls: part.calls }, 'raw calls dropped by retention');
    }
  }
  return { cutoffMs, dryRun, months: parts };
}

/**
 * Sets the store's retention horizon back to the latest cut-off retention can reach now (RETENTION_MONTHS=1's,
 * whatever the setting) when it is later, with a warning: such a horizon was recorded by a clock ahead of
 * the system's (before retention read the system's, a sandbox's clock moved on), and would otherwise keep
 * every rollup rebuild (a time-zone change, a number assigned) away from the days before it for good. Its
 * raw calls are gone either way; from then on a rebuild computes the days after the cut-off again from the
 * calls kept.
 */
export async function repairRetentionHorizon({ store, clock, logger }: Retention): Promise<void> {
  const latestMs = retentionCutoff(clock.now(), 1);
  const replaced = await store.calls.capRetentionHorizon(latestMs);
  if (replaced === undefined) return;
  logger.warn(
    { horizon: new Date(replaced).toISOString(), setTo: new Date(latestMs).toISOString() },
    'retention horizon later than retention can reach by the system clock: set back',
  );
}
