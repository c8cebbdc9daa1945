import type { ReportTarget } from '../sandbox/sandbox';
import type { Store } from '../storage/store';
import type { ReportCache } from './report-cache/report-cache';
import { eventsResource } from './events/resource';
import { flowResource } from './path/resource';
import { performanceResource } from './performance/resource';
import { callerProfileResource, geographicResource } from './profile/resource';
import type { WeekStart } from './query/periods';
import type { DataResourceDeclaration } from './resource-declaration';
import type { ResourceAnswer } from './resource-route';
import { volumeResource } from './volume/resource';

/**
 * The raw-data resources (specification.md §2.4, §2.5), each declared once in its folder: the router
 * serves them from this list, and the OpenAPI document describes them from it, in this order.
 */
export const DATA_RESOURCES: readonly DataResourceDeclaration[] = [
  volumeResource,
  eventsResource,
  performanceResource,
  callerProfileResource,
  geographicResource,
  flowResource,
];

/** A raw-data resource as served: served on GET and HEAD behind Basic auth, in the shared data limit group. */
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

/** The raw-data resources over a store and the reporting settings. */
export function dataResources(store: Store, { weekStart, maxRangeDays, reports }: DataResourceSettings): DataResource[] {
  const context = { store, reports, maxRangeDays, weekStart };
  return DATA_RESOURCES.map(({ name, operation, answer }) => ({ name, path: operation.expressPath, answer: answer(context) }));
}
