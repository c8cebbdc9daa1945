import type { DataResourceDeclaration } from '../resource-declaration';
import { seriesResource } from '../series/series-resource';
import { eventsOperation } from './openapi';
import { eventSeries } from './series';

export const eventsResource: DataResourceDeclaration = seriesResource('events', eventsOperation, eventSeries);
