import { parseRangeQuery } from '../query/params';
import type { DataResourceDeclaration } from '../resource-declaration';
import { resourceRoute } from '../resource-route';
import { flowOperation } from './openapi';
import { flowReporter } from './report';
import { flowRepresentation } from './representation';

/** /api/path: the form items callers went through, per application. */
export const flowResource: DataResourceDeclaration = {
  name: 'flow',
  operation: flowOperation,
  answer: (context) => resourceRoute({ name: 'flow', parse: parseRangeQuery, report: flowReporter(), represent: flowRepresentation }, context),
};
