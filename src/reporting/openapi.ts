import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { RateLimitSettings } from '../rate-limit/settings';
import type { ReportingSettings } from './settings';
import { authenticationExamples, registerAuthenticationOperation } from './auth/openapi';
import { DATA_RESOURCES } from './data-resources';
import { eventsExamples } from './events/openapi';
import { flowExamples } from './path/openapi';
import { performanceExamples } from './performance/openapi';
import { callerProfileExamples, geographicExamples } from './profile/openapi';
import { volumeExamples } from './volume/openapi';
import { BASIC_AUTH, errorResponse, jsonOrXml, type SharedHeaders } from '../http/openapi/components';
import type { ExampleExchange, ExampleSession } from '../http/openapi/examples';
import { openApiPath } from '../http/openapi/paths';

export const RAW_DATA_TAG = 'Raw data';

interface DescribedReporting {
  readonly rateLimits: RateLimitSettings;
  readonly reporting: Pick<ReportingSettings, 'maxRangeDays' | 'credentialTtlSeconds'>;
}

/** POST /api/auth and the raw-data resources, mounted at /api. */
export function registerReportingOperations(registry: OpenAPIRegistry, headers: SharedHeaders, { rateLimits, reporting }: DescribedReporting): void {
  const tooMany = errorResponse('Past the limit of the window: retry after Retry-After seconds', {
    xml: true,
    headers: { ...headers.rateLimit, ...headers.retryAfter },
  });
  const failed = errorResponse(
    'unknown error: the cause is in the server log, under the request id; with Retry-After when PostgreSQL or Redis did not answer, ' +
      'which is worth retrying (the specification has no 503)',
    { xml: true, headers: headers.outageRetryAfterIfAny },
  );

  registerAuthenticationOperation(registry, headers, { rateLimits, credentialTtlSeconds: reporting.credentialTtlSeconds, tooMany, failed });

  for (const { operation: resource } of DATA_RESOURCES) {
    registry.registerPath({
      method: 'get',
      path: openApiPath('/api', resource.expressPath),
      operationId: resource.operationId,
      tags: [RAW_DATA_TAG],
      summary: resource.summary,
      description:
        `${resource.description} Dates are local days of the account's time zone, both included, at most ${reporting.maxRangeDays} days apart. ` +
        `JSON, or XML when Accept prefers application/xml. HEAD answers the same without the body. All the raw-data resources ` +
        `count together: ${rateLimits.data} requests per ${rateLimits.windowSeconds} s per account.`,
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

/** The reporting API's part of the session: a login, then every raw-data resource on the session's calls. */
export function reportingExamples(session: ExampleSession): ExampleExchange[] {
  return [
    ...authenticationExamples(session),
    ...eventsExamples(session),
    ...volumeExamples(session),
    ...performanceExamples(session),
    ...callerProfileExamples(session),
    ...geographicExamples(session),
    ...flowExamples(session),
  ];
}
