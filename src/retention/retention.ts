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
  readonly clock: Clock;
  readonly logger: Logger;
  /** RETENTION_MONTHS; undefined: keep everything. */
  readonly months: number | undefined;
}

/**
 * Drops (or, `dryRun`, lists) the raw calls of the months before the cut-off that the app's clock gives,
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
