import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { accountExamples, accountOperations } from './accounts/openapi';
import { callExamples, callOperations } from './calls/openapi';
import { retentionOperations } from './retention/openapi';
import { clockOperations } from '../sandbox/clock/openapi';
import { scenarioOperations } from '../sandbox/scenarios/openapi';
import { surveyCallOperations } from '../sandbox/survey-calls/openapi';
import type { RateLimitSettings } from '../rate-limit/settings';
import { adminAnswers } from '../http/openapi/admin-operation';
import { BEARER_AUTH, errorResponse, type SharedHeaders } from '../http/openapi/components';
import type { ExampleExchange, ExampleSession } from '../http/openapi/examples';

export const ADMIN_TAG = 'Admin API';

/**
 * The admin API (only with ADMIN_TOKEN), each operation written beside its route, the sandbox's among
 * them: JSON only, every answer counted in its limit group, the token checked after the limit and before
 * the path.
 */
export function registerAdminOperations(registry: OpenAPIRegistry, headers: SharedHeaders, rateLimits: RateLimitSettings): void {
  const limited = headers.rateLimit;
  const common: Record<number, ResponseConfig> = {
    401: errorResponse('Missing or wrong admin token', { xml: false, headers: { ...limited, ...headers.bearerChallenge } }),
    429: errorResponse(
      `Past the admin API's limit (${rateLimits.admin} requests per ${rateLimits.windowSeconds} s per client address): ` +
        'retry after Retry-After seconds',
      { xml: false, headers: { ...limited, ...headers.retryAfter } },
    ),
    500: errorResponse('unknown error: the cause is in the server log, under the request id', { xml: false }),
    503: errorResponse('PostgreSQL or Redis did not answer, as the error says: retry after Retry-After seconds', {
      xml: false,
      headers: headers.outageRetryAfter,
    }),
  };
  const answers = adminAnswers(headers);
  const operations = [
    ...accountOperations(answers),
    ...clockOperations(answers),
    ...retentionOperations(answers),
    ...scenarioOperations(answers),
    ...surveyCallOperations(answers),
    ...callOperations(answers),
  ];
  for (const operation of operations) {
    registry.registerPath({ ...operation, tags: [ADMIN_TAG], security: [{ [BEARER_AUTH]: [] }], responses: { ...operation.responses, ...common } });
  }
}

/** The admin API's part of the session: the account, its number and its calls first (`setUp`), and at the end, undoing them (`tornDown`). */
export function adminExamples(session: ExampleSession): { readonly setUp: ExampleExchange[]; readonly tornDown: ExampleExchange[] } {
  const accounts = accountExamples(session);
  return { setUp: [...accounts.setUp, ...callExamples(session), ...accounts.shown], tornDown: accounts.undone };
}
