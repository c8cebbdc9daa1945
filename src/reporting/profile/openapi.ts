import { JSON_TYPE } from '../../http/openapi/components';
import type { ExampleExchange, ExampleSession } from '../../http/openapi/examples';
import { exampleRangePath, exampleSeriesPath } from '../query/examples';
import { rangePathSchema, seriesPathSchema } from '../query/params';
import { onTheTwoDays } from '../series/examples';
import { seriesXmlSchema } from '../series/representation';
import { CALLER_PROFILE_PATH, callerProfileBodySchema } from './caller-series';
import { GEOGRAPHIC_PATH } from './geographic-report';
import { geographicBodySchema, geographicXmlSchema } from './geographic-representation';

/** GET /api/profile with a period, declared with its answer in ./resource.ts. */
export const callerProfileOperation = {
  operationId: 'getCallerProfile',
  summary: 'Caller profile',
  description: 'Calls and distinct callers per period. Four segments after /api/profile; three are the geographic report.',
  expressPath: CALLER_PROFILE_PATH,
  params: seriesPathSchema,
  json: callerProfileBodySchema,
  xml: seriesXmlSchema,
};

/** GET /api/profile without a period, declared with its answer in ./resource.ts. */
export const geographicOperation = {
  operationId: 'getGeographic',
  summary: 'Geographic',
  description: 'Calls over the whole range by where the caller is from. Three segments after /api/profile; four are the caller profile.',
  expressPath: GEOGRAPHIC_PATH,
  params: rangePathSchema,
  json: geographicBodySchema,
  xml: geographicXmlSchema,
};

export function callerProfileExamples(session: ExampleSession): ExampleExchange[] {
  const twoDays = (first: number, second: number) => onTheTwoDays(session, first, second);
  return [
    {
      name: 'days',
      summary: 'Two days, every number',
      operationId: 'getCallerProfile',
      params: exampleSeriesPath(session),
      response: { status: 200, mediaType: JSON_TYPE, body: { calls: twoDays(0, 2), callers: twoDays(0, 2) } },
    },
  ];
}

/** The session's two calls: one from Massachusetts, one from the United Kingdom. */
const GEOGRAPHIC = {
  US: {
    AL: 0, AK: 0, AZ: 0, AR: 0, CA: 0, CO: 0, CT: 0, DC: 0, DE: 0, FL: 0, GA: 0, HI: 0, ID: 0, IL: 0, IN: 0, IA: 0,
    KS: 0, KY: 0, LA: 0, ME: 0, MD: 0, MA: 1, MI: 0, MN: 0, MS: 0, MO: 0, MT: 0, NE: 0, NV: 0, NH: 0, NJ: 0, NM: 0,
    NY: 0, NC: 0, ND: 0, OH: 0, OK: 0, OR: 0, PA: 0, RI: 0, SC: 0, SD: 0, TN: 0, TX: 0, UT: 0, VT: 0, VA: 0, WA: 0,
    WV: 0, WI: 0, WY: 0,
    'US Toll-Free': 0,
  },
  NON_US: [{ country: 'GB', calls: 1 }],
};

export function geographicExamples(session: ExampleSession): ExampleExchange[] {
  return [
    {
      name: 'range',
      summary: 'Two days, every number',
      operationId: 'getGeographic',
      params: exampleRangePath(session),
      response: { status: 200, mediaType: JSON_TYPE, body: GEOGRAPHIC },
    },
  ];
}
