import type { DataResourceDeclaration } from '../resource-declaration';
import { seriesResource } from '../series/series-resource';
import { performanceOperation } from './openapi';
import { performanceSeries } from './series';

export const performanceResource: DataResourceDeclaration = seriesResource('performance', performanceOperation, performanceSeries);
