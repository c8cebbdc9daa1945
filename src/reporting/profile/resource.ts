import { parseRangeQuery } from '../query/params';
import type { DataResourceDeclaration } from '../resource-declaration';
import { resourceRoute } from '../resource-route';
import { seriesResource } from '../series/series-resource';
import { callerProfileSeries } from './caller-series';
import { geographicReporter } from './geographic-report';
import { geographicRepresentation } from './geographic-representation';
import { callerProfileOperation, geographicOperation } from './openapi';

/** /api/profile with a period: calls and distinct callers per period. */
export const callerProfileResource: DataResourceDeclaration = seriesResource('caller-profile', callerProfileOperation, callerProfileSeries);

/** /api/profile without one: calls over the range by where the caller is from. */
export const geographicResource: DataResourceDeclaration = {
  name: 'geographic',
  operation: geographicOperation,
  answer: (context) =>
    resourceRoute({ name: 'geographic', parse: parseRangeQuery, report: geographicReporter(), represent: geographicRepresentation }, context),
};
