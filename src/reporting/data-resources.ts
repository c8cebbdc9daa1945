import type { ReportTarget } from '../sandbox/sandbox';
import type { Store } from '../storage/store';
import type { ReportCache } from './report-cache/report-cache';
import { EVENTS_PATH, eventSeries } from './events/series';
import { FLOW_PATH, flowReporter } from './path/report';
import { flowRepresentation } from './path/representation';
import { GEOGRAPHIC_PATH, geographicReporter } from './profile/geographic-report';
import { geographicRepresentation } from './profile/geographic-representation';
import { PERFORMANCE_PATH, performanceSeries } from './performance/series';
import { CALLER_PROFILE_PATH, callerProfileSeries } from './profile/caller-series';
import { parseRangeQuery, parseSeriesQuery } from './query/params';
import type { WeekStart } from './query/periods';
import { resourceRoute, type ResourceAnswer } from './resource-route';
import { seriesRepresentation } from './series/representation';
import { seriesReporter, type SeriesDefinition } from './series/series-report';
import { VOLUME_PATH, volumeSeries } from './volume/series';

/** A raw-data resource: served on GET and HEAD behind Basic auth, in the shared data limit group. */
export interface DataResource {
  /** Its name as a scenario targets it (POST /admin/scenarios). */
  readonly name: ReportTarget;
  readonly path: string;
  readonly answer: ResourceAnswer;
}

export interface DataResourceSettings {
  readonly weekStart: WeekStart;
  readonly maxRangeDays: number;
  /** Finished reports kept across requests. */
  readonly reports: ReportCache | undefined;
}

/** The raw-data resources (specification.md §2.4, §2.5), each one declaration. */
export function dataResources(store: Store, { weekStart, maxRangeDays, reports }: DataResourceSettings): DataResource[] {
  const context = { store, reports, maxRangeDays, weekStart };
  const series = (name: ReportTarget, path: string, definition: SeriesDefinition): DataResource => ({
    name,
    path,
    answer: resourceRoute(
      { name, parse: parseSeriesQuery, report: seriesReporter(weekStart, definition), represent: seriesRepresentation },
      context,
    ),
  });
  return [
    series('volume', VOLUME_PATH, volumeSeries),
    series('events', EVENTS_PATH, eventSeries),
    series('performance', PERFORMANCE_PATH, performanceSeries),
    series('caller-profile', CALLER_PROFILE_PATH, callerProfileSeries),
    {
      name: 'geographic',
      path: GEOGRAPHIC_PATH,
      answer: resourceRoute(
        { name: 'geographic', parse: parseRangeQuery, report: geographicReporter(), represent: geographicRepresentation },
        context,
      ),
    },
    {
      name: 'flow',
      path: FLOW_PATH,
      answer: resourceRoute({ name: 'flow', parse: parseRangeQuery, report: flowReporter(), represent: flowRepresentation }, context),
    },
  ];
}
