import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { RateLimitSettings } from '../rate-limit/settings';
import type { ReportingSettings } from './settings';
import { authenticationFieldsSchema, authenticationQuerySchema } from './auth/params';
import { issuedCredentialsSchema } from './auth/route';
import { EVENTS_PATH, eventsBodySchema } from './events/series';
import { FLOW_PATH, MAX_FLOW_ENTRIES } from './path/report';
import { flowBodySchema, flowXmlSchema } from './path/representation';
import { GEOGRAPHIC_PATH } from './profile/geographic-report';
import { geographicBodySchema, geographicXmlSchema } from './profile/geographic-representation';
import { PERFORMANCE_PATH, performanceBodySchema } from './performance/series';
import { CALLER_PROFILE_PATH, callerProfileBodySchema } from './profile/caller-series';
import { rangePathSchema, seriesPathSchema } from './query/params';
import { seriesXmlSchema } from './series/representation';
import { VOLUME_PATH, volumeBodySchema } from './volume/series';
import { BASIC_AUTH, errorResponse, JSON_TYPE, jsonOrXml, type SharedHeaders } from '../http/openapi/components';
import { openApiPath } from '../http/openapi/paths';

export const AUTHENTICATION_TAG = 'Authentication';
export const RAW_DATA_TAG = 'Raw data';

interface DescribedReporting {
  readonly rateLimits: RateLimitSettings;
  readonly reporting: Pick<ReportingSettings, 'maxRangeDays' | 'credentialTtlSeconds'>;
}

interface DataResourceOperation {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly expressPath: string;
  readonly params: typeof rangePathSchema | typeof seriesPathSchema;
  readonly json: z.ZodType;
  readonly xml: z.ZodType;
}

/** The raw-data resources of data-resources.ts, each under the name the reference documents it by. */
const DATA_RESOURCE_OPERATIONS: readonly DataResourceOperation[] = [
  {
    operationId: 'getVolume',
    summary: 'Call volume',
    description: 'Calls, their minutes, transfers and the minutes spent in them, per period.',
    expressPath: VOLUME_PATH,
    params: seriesPathSchema,
    json: volumeBodySchema,
    xml: seriesXmlSchema,
  },
  {
    operationId: 'getEvents',
    summary: 'Event tracker',
    description: 'Calls, log events, loops and form items, and two averages, per period, as the event tracker of the reference.',
    expressPath: EVENTS_PATH,
    params: seriesPathSchema,
    json: eventsBodySchema,
    xml: seriesXmlSchema,
  },
  {
    operationId: 'getPerformance',
    summary: 'Performance',
    description: 'Script and fetch errors, per call, and the average page load, per period.',
    expressPath: PERFORMANCE_PATH,
    params: seriesPathSchema,
    json: performanceBodySchema,
    xml: seriesXmlSchema,
  },
  {
    operationId: 'getCallerProfile',
    summary: 'Caller profile',
    description: 'Calls and distinct callers per period. Four segments after /api/profile; three are the geographic report.',
    expressPath: CALLER_PROFILE_PATH,
    params: seriesPathSchema,
    json: callerProfileBodySchema,
    xml: seriesXmlSchema,
  },
  {
    operationId: 'getGeographic',
    summary: 'Geographic',
    description: 'Calls over the whole range by where the caller is from. Three segments after /api/profile; four are the caller profile.',
    expressPath: GEOGRAPHIC_PATH,
    params: rangePathSchema,
    json: geographicBodySchema,
    xml: geographicXmlSchema,
  },
  {
    operationId: 'getFlow',
    summary: 'Diagnostic flow',
    description: `The form items callers went through over the range, per application; a range of more than ${MAX_FLOW_ENTRIES} form items is a 400.`,
    expressPath: FLOW_PATH,
    params: rangePathSchema,
    json: flowBodySchema,
    xml: flowXmlSchema,
  },
];

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** POST /api/auth and the raw-data resources, mounted at /api. */
export function registerReportingOperations(registry: OpenAPIRegistry, headers: SharedHeaders, { rateLimits, reporting }: DescribedReporting): void {
  const window = `${rateLimits.windowSeconds} s`;
  const tooMany = errorResponse('Past the limit of the window: retry after Retry-After seconds', {
    xml: true,
    headers: { ...headers.rateLimit, ...headers.retryAfter },
  });
  const failed = errorResponse(
    'unknown error: the cause is in the server log, under the request id; with Retry-After when PostgreSQL or Redis did not answer, ' +
      'which is worth retrying (the specification has no 503)',
    { xml: true, headers: headers.outageRetryAfterIfAny },
  );

  registry.registerPath({
    method: 'post',
    path: '/api/auth',
    operationId: 'authenticate',
    tags: [AUTHENTICATION_TAG],
    summary: 'Temporary credentials for the raw-data resources',
    description:
      "Trades a tool account's login and password for a temporary login and password, to send as HTTP Basic " +
      `credentials to the raw-data resources. A new pair on every success; each works until it is unused for ${reporting.credentialTtlSeconds} s, ` +
      "or the account is deactivated, its password changed or its credentials revoked. Each of tool, login and password comes from " +
      "the body (a form or a JSON object) or the query string, where the reference documents them; where both have one, the body's is read, " +
      `and one in neither is a 400. Counts against the authentication group: ${rateLimits.auth} requests per ${window} per client address.`,
    security: [],
    request: {
      query: authenticationQuerySchema,
      body: {
        required: false,
        content: { [FORM_TYPE]: { schema: authenticationFieldsSchema }, [JSON_TYPE]: { schema: authenticationFieldsSchema } },
      },
    },
    responses: {
      200: { description: 'The temporary credentials', headers: { ...headers.rateLimit }, content: jsonOrXml(issuedCredentialsSchema) },
      400: errorResponse(
        'An invalid tool, a login or password missing from both the body and the query string or not as the schema says, or a body that cannot be read',
        { xml: true, headers: headers.rateLimit },
      ),
      401: errorResponse('Unknown login, wrong password or inactive account: one answer for the three', {
        xml: true,
        headers: { ...headers.rateLimit, ...headers.formChallenge },
      }),
      429: tooMany,
      500: failed,
    },
  });

  for (const resource of DATA_RESOURCE_OPERATIONS) {
    registry.registerPath({
      method: 'get',
      path: openApiPath('/api', resource.expressPath),
      operationId: resource.operationId,
      tags: [RAW_DATA_TAG],
      summary: resource.summary,
      description:
        `${resource.description} Dates are local days of the account's time zone, both included, at most ${reporting.maxRangeDays} days apart. ` +
        `JSON, or XML when Accept prefers application/xml. HEAD answers the same without the body. All the raw-data resources ` +
        `count together: ${rateLimits.data} requests per ${window} per account.`,
      security: [{ [BASIC_AUTH]: [] }],
      request: {
        params: resource.params,
        headers: z.object({
          'If-None-Match': z.string().optional().meta({ description: 'The ETag of a report received before: 304 while the data are unchanged' }),
        }),
      },
      responses: {
        200: {
          description: 'The report',
          headers: { ...headers.rateLimit, ...headers.entityTag },
          content: jsonOrXml(resource.json, resource.xml),
        },
        304: { description: 'The report is the one If-None-Match names', headers: { ...headers.rateLimit, ...headers.entityTag } },
        400: errorResponse(
          'A path part that is not valid (dates, range, period, phone), a number that is not on the account, or a first period ' +
            "(a day for the geographic and flow reports) that starts before 1970-01-01T00:00:00Z in the account's time zone " +
            '(IVR_PERIOD_BEFORE_EPOCH, naming the earliest start accepted): keys are Unix seconds, never negative',
          { xml: true, headers: headers.rateLimit },
        ),
        401: errorResponse('Missing, unknown or expired temporary credentials, or an inactive account', {
          xml: true,
          headers: { ...headers.rateLimit, ...headers.basicChallenge },
        }),
        429: tooMany,
        500: failed,
      },
    });
  }
}
