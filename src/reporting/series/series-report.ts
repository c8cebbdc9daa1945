import type { Account } from '../../accounts/account';
import type { CallReads, PhoneScope } from '../../storage/store';
import type { SeriesQuery } from '../query/params';
import { periodsOverlapping, type PeriodSpan, type WeekStart } from '../query/periods';
import { periodKeys, type PeriodKeys } from './period-keys';

/** One named series, a value per period, aligned by position with the report's keys. */
export type NamedSeries = readonly [name: string, values: ArrayLike<number>];

/** A series resource's answer: period keys (Unix seconds of each period's local start) and its series in order. */
export interface SeriesReport {
  readonly keys: PeriodKeys;
  readonly series: readonly NamedSeries[];
}

/** What a series resource reads its series from: the rollups of the numbers in scope, over the query's periods. */
export interface SeriesSource {
  readonly calls: CallReads;
  readonly scope: PhoneScope;
  readonly query: SeriesQuery;
  /** The periods overlapping the range, clipped to it. */
  readonly spans: readonly PeriodSpan[];
}

/** The series of one resource, in the order its specification lists them. */
export type SeriesDefinition = (source: SeriesSource) => Promise<readonly NamedSeries[]>;

/** `calls`: where the report reads (the store's, or its replicas', as the request decides). */
export type SeriesReporter = (account: Account, query: SeriesQuery, scope: PhoneScope, calls: CallReads) => Promise<SeriesReport>;

/** Periods and keys as the event tracker defines them (specification.md §2.4), for any series resource. */
export function seriesReporter(weekStart: WeekStart, definition: SeriesDefinition): SeriesReporter {
  return async (account, query, scope, calls) => {
    const spans = periodsOverlapping(query.from, query.to, query.period, weekStart);
    const series = await definition({ calls, scope, query, spans });
    return { keys: periodKeys(spans, query.period, account.timeZone), series };
  };
}
