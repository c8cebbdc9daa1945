import type { ReportTarget } from '../../sandbox/sandbox';
import { parseSeriesQuery } from '../query/params';
import type { DataResourceDeclaration, DataResourceOperation } from '../resource-declaration';
import { resourceRoute } from '../resource-route';
import { seriesRepresentation } from './representation';
import { seriesReporter, type SeriesDefinition } from './series-report';

/** A series resource (volume, events, performance, caller profile): its path read with a period, its series per period, JSON or XML. */
export function seriesResource(name: ReportTarget, operation: DataResourceOperation, definition: SeriesDefinition): DataResourceDeclaration {
  return {
    name,
    operation,
    answer: (context) =>
      resourceRoute({ name, parse: parseSeriesQuery, report: seriesReporter(context.weekStart, definition), represent: seriesRepresentation }, context),
  };
}
