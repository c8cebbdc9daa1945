import type { DataResourceDeclaration } from '../resource-declaration';
import { seriesResource } from '../series/series-resource';
import { volumeOperation } from './openapi';
import { volumeSeries } from './series';

export const volumeResource: DataResourceDeclaration = seriesResource('volume', volumeOperation, volumeSeries);
