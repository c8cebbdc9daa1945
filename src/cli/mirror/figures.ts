import type { PathStep } from '../../domain/call-record';
import type { Region } from '../../domain/caller-region';

/** A local day of the source account's time zone (`YYYYMMDD`), and the Unix second at which the source says it starts. */
export interface DayStart {
  readonly day: string;
  readonly startSecond: number;
}

/**
 * One number's day at the source, as its four series report it. The figures the source rounds to two
 * decimals are kept as whole hundredths, so that a sum of them is exact.
 */
export interface DayFigures extends DayStart {
  readonly calls: number;
  readonly logEvents: number;
  readonly loops: number;
  readonly formItems: number;
  readonly transfers: number;
  readonly jsErrors: number;
  readonly fetchErrors: number;
  /** Distinct callers of the day. */
  readonly callers: number;
  /** `call_minutes` × 100. */
  readonly callMinuteHundredths: number;
  /** `transfer_minutes` × 100. */
  readonly transferMinuteHundredths: number;
  /** `average_page_load` × 100, in hundredths of a second. */
  readonly pageLoadHundredths: number;
}

/** A day's calls and distinct callers, as the caller profile counts them: what periods of distinct callers are read against. */
export type DayCallerCount = Pick<DayFigures, 'day' | 'startSecond' | 'calls' | 'callers'>;

/** A report over a stretch of days that the source answers only as a whole (geographic, diagnostic flow). */
export interface RangeFigures<Value> {
  /** `YYYYMMDD`, both included. */
  readonly start: string;
  readonly end: string;
  readonly value: Value;
}

export interface RegionCalls {
  readonly region: Region;
  readonly calls: number;
}

/**
 * Distinct callers over periods of more than a day, by index of their days: each week and each month of
 * the range (cut at its ends), and each week's days within one month (pieces).
 */
export interface DistinctCallers {
  readonly pieces: readonly DistinctPeriod[];
  readonly weeks: readonly DistinctPeriod[];
  readonly months: readonly DistinctPeriod[];
}

/** Everything read of one number over the mirrored range. */
export interface NumberFigures {
  readonly phone: string;
  /** Every day of the range, in order. */
  readonly days: readonly DayFigures[];
  /** Calls per caller's region, over stretches that together cover the range once. */
  readonly regions: readonly RangeFigures<readonly RegionCalls[]>[];
  /** The diagnostic flow's rows, over stretches that together cover the range once. */
  readonly flow: readonly RangeFigures<readonly PathStep[]>[];
  readonly callers: DistinctCallers;
}

/** Distinct callers over consecutive days of the range, `first` and `last` (indexes of days) both included. */
export interface DistinctPeriod {
  readonly first: number;
  readonly last: number;
  readonly callers: number;
}

/** Calls per caller's region over consecutive days of the range, by index. */
export interface RegionStretch {
  readonly first: number;
  readonly last: number;
  readonly value: readonly RegionCalls[];
}

/**
 * One number's figures that decide who called when. Months and weeks each cover the range once, cut at its
 * ends; pieces are their intersections (a week's days within one month), so that each month and each week
 * is a run of whole pieces. A week holds one piece, or two when a month begins within it.
 */
export interface CallerFigures {
  readonly days: readonly { readonly calls: number; readonly callers: number }[];
  readonly pieces: readonly DistinctPeriod[];
  readonly weeks: readonly DistinctPeriod[];
  readonly months: readonly DistinctPeriod[];
  /** Over stretches that cover the range once. */
  readonly regions: readonly RegionStretch[];
}

/**
 * The account's distinct callers over all its numbers (the source's ALL), by index of the days of the
 * numbers' figures: per day, and over each piece, week and month as a number's.
 */
export interface AccountCallerFigures {
  readonly days: readonly { readonly callers: number }[];
  readonly pieces: readonly DistinctPeriod[];
  readonly weeks: readonly DistinctPeriod[];
  readonly months: readonly DistinctPeriod[];
}

/** What a run reads: every number's figures, and ALL's distinct callers when there are several numbers and ALL counts only theirs. */
export interface SourceFigures {
  readonly numbers: readonly NumberFigures[];
  readonly all: AccountCallerFigures | undefined;
}
