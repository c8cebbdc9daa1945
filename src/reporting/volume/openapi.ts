import { JSON_TYPE } from '../../http/openapi/components';
import type { ExampleExchange, ExampleSession } from '../../http/openapi/examples';
import { exampleSeriesPath } from '../query/examples';
import { seriesPathSchema } from '../query/params';
import { onTheTwoDays } from '../series/examples';
import { seriesXmlSchema } from '../series/representation';
import { VOLUME_PATH, volumeBodySchema } from './series';

/** GET /api/volume, declared with its answer in ./resource.ts. */
export const volumeOperation = {
  operationId: 'getVolume',
  summary: 'Call volume',
  description: 'Calls, their minutes, transfers and the minutes spent in them, per period.',
  expressPath: VOLUME_PATH,
  params: seriesPathSchema,
  json: volumeBodySchema,
  xml: seriesXmlSchema,
};

export function volumeExamples(session: ExampleSession): ExampleExchange[] {
  const twoDays = (first: number, second: number) => onTheTwoDays(session, first, second);
  return [
    {
      name: 'days',
      summary: 'Two days, every number',
      operationId: 'getVolume',
      params: exampleSeriesPath(session),
      response: {
        status: 200,
        mediaType: JSON_TYPE,
        body: { calls: twoDays(0, 2), call_minutes: twoDays(0, 3.83), transfers: twoDays(0, 1), transfer_minutes: twoDays(0, 1) },
      },
    },
  ];
}
