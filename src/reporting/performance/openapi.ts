import { JSON_TYPE } from '../../http/openapi/components';
import type { ExampleExchange, ExampleSession } from '../../http/openapi/examples';
import { exampleSeriesPath } from '../query/examples';
import { seriesPathSchema } from '../query/params';
import { onTheTwoDays } from '../series/examples';
import { seriesXmlSchema } from '../series/representation';
import { PERFORMANCE_PATH, performanceBodySchema } from './series';

/** GET /api/performance, declared with its answer in ./resource.ts. */
export const performanceOperation = {
  operationId: 'getPerformance',
  summary: 'Performance',
  description: 'Script and fetch errors, per call, and the average page load, per period.',
  expressPath: PERFORMANCE_PATH,
  params: seriesPathSchema,
  json: performanceBodySchema,
  xml: seriesXmlSchema,
};

export function performanceExamples(session: ExampleSession): ExampleExchange[] {
  const twoDays = (first: number, second: number) => onTheTwoDays(session, first, second);
  return [
    {
      name: 'days',
      summary: 'Two days, every number',
      operationId: 'getPerformance',
      params: exampleSeriesPath(session),
      response: {
        status: 200,
        mediaType: JSON_TYPE,
        body: {
          calls: twoDays(0, 2),
          js_errors: twoDays(0, 0),
          js_errors_per_call: twoDays(0, 0),
          fetch_errors: twoDays(0, 1),
          fetch_errors_per_call: twoDays(0, 0.5),
          average_page_load: twoDays(0, 0.33),
        },
      },
    },
  ];
}
