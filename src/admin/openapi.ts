import type { OpenAPIRegistry, ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { accountViewSchema } from './accounts/account-admin';
import { accountChangesSchema, accountPathSchema, accountPhonePathSchema } from './accounts/params';
import { accountListSchema } from './accounts/routes';
import { importSummarySchema } from './calls/route';
import { clockAdvanceSchema, clockViewSchema } from '../sandbox/clock/routes';
import { retentionViewSchema } from './retention/routes';
import { MOST_DELAY_MS, scenarioListSchema, scenarioPathSchema, scenarioRuleSchema, scenarioViewSchema } from '../sandbox/scenarios/scenario';
import { MOST_STREAMS, surveyCallListSchema, surveyCallsQuerySchema } from '../sandbox/survey-calls/routes';
import { MOST_TEXT_CHARACTERS } from '../sandbox/survey-calls/call-entry';
import type { RateLimitSettings } from '../rate-limit/settings';
import { callRecordWireSchema } from '../domain/call-record';
import { BEARER_AUTH, errorResponse, JSON_TYPE, jsonOnly, type SharedHeaders } from '../http/openapi/components';

export const ADMIN_TAG = 'Admin API';

const NDJSON_TYPE = 'application/x-ndjson';
/** The 400 of a scenario's own routes: an id the routes refuse before they look it up. */
const NOT_A_SCENARIO_ID = 'An id that is not a UUID in lower case, as POST /admin/scenarios answers them (IVR_INVALID_PARAMETER)';


type AdminRoute = Omit<RouteConfig, 'responses' | 'tags' | 'security'> & { readonly responses: Record<number, ResponseConfig> };

/**
 * The admin API (only with ADMIN_TOKEN): JSON only, every answer counted in its limit group, the token
 * checked after the limit and before the path.
 */
export function registerAdminOperations(registry: OpenAPIRegistry, headers: SharedHeaders, rateLimits: RateLimitSettings): void {
  const limited = headers.rateLimit;
  const failure = (description: string): ResponseConfig => errorResponse(description, { xml: false, headers: limited });
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
  const account = (description: string): ResponseConfig => ({ description, headers: { ...limited }, content: jsonOnly(accountViewSchema) });
  const register = (route: AdminRoute): void =>
    registry.registerPath({ ...route, tags: [ADMIN_TAG], security: [{ [BEARER_AUTH]: [] }], responses: { ...route.responses, ...common } });

  register({
    method: 'get',
    path: '/admin/accounts',
    operationId: 'listAccounts',
    summary: 'Every account',
    description: 'Ordered by tool, then login; never a password, a hash or a credential.',
    responses: { 200: { description: 'The accounts', headers: { ...limited }, content: jsonOnly(accountListSchema) } },
  });
  register({
    method: 'get',
    path: '/admin/accounts/{tool}/{login}',
    operationId: 'getAccount',
    summary: 'One account',
    request: { params: accountPathSchema },
    responses: { 200: account('The account'), 400: failure('An invalid tool or login'), 404: failure('No such account') },
  });
  register({
    method: 'put',
    path: '/admin/accounts/{tool}/{login}',
    operationId: 'putAccount',
    summary: 'Create or change an account',
    description:
      'Creates the account (a password is required) or changes the fields given. Deactivating takes effect at once; a new password ' +
      "ends every temporary credential issued under the old one; a new time zone re-buckets the account's calls before the answer.",
    request: { params: accountPathSchema, body: { required: false, content: jsonOnly(accountChangesSchema) } },
    responses: {
      200: account('Changed (an empty body changes nothing)'),
      201: {
        description: 'Created',
        headers: {
          ...limited,
          Location: { description: 'The account: /admin/accounts/{tool}/{login}', required: true, schema: { type: 'string' } },
        },
        content: jsonOnly(accountViewSchema),
      },
      400: failure('An invalid field (named), an unknown field, a time zone the server does not know (an IANA name such as America/New_York), a body that is not a JSON object, or no password to create'),
      415: failure('A body in another type than application/json'),
    },
  });
  register({
    method: 'delete',
    path: '/admin/accounts/{tool}/{login}/credentials',
    operationId: 'revokeCredentials',
    summary: "Revoke the account's temporary credentials",
    description: 'Every pair issued so far gets 401 at once, for good; POST /api/auth issues new ones. Nothing else changes.',
    request: { params: accountPathSchema },
    responses: { 200: account('Revoked'), 400: failure('An invalid tool or login'), 404: failure('No such account') },
  });
  register({
    method: 'post',
    path: '/admin/accounts/{tool}/{login}/credentials/expire',
    operationId: 'expireCredentials',
    summary: "Expire the account's temporary credentials now",
    description:
      'For testing a client: the next data request with any pair issued so far gets the 401 of credentials unused for ' +
      'CREDENTIAL_TTL_SECONDS, and the client must authenticate again. The same as DELETE on the credentials.',
    request: { params: accountPathSchema },
    responses: { 200: account('Expired'), 400: failure('An invalid tool or login'), 404: failure('No such account') },
  });
  register({
    method: 'put',
    path: '/admin/accounts/{tool}/{login}/phones/{phone}',
    operationId: 'assignPhone',
    summary: 'Assign a number to an account',
    description: "The number's calls go with it: they are reported to the account, in its time zone.",
    request: { params: accountPhonePathSchema },
    responses: {
      200: account('The account had the number already'),
      201: account('Assigned'),
      400: failure('An invalid tool, login or phone number'),
      404: failure('No such account'),
      409: failure('The number is on another account: release it there first'),
    },
  });
  register({
    method: 'delete',
    path: '/admin/accounts/{tool}/{login}/phones/{phone}',
    operationId: 'releasePhone',
    summary: 'Release a number',
    description: 'While a number is on no account, calls for it are refused.',
    request: { params: accountPhonePathSchema },
    responses: {
      200: account('Released'),
      400: failure('An invalid tool, login or phone number'),
      404: failure('No such account, or the number is not on it'),
    },
  });
  const clock = (description: string): ResponseConfig => ({ description, headers: { ...limited }, content: jsonOnly(clockViewSchema) });
  register({
    method: 'get',
    path: '/admin/clock',
    operationId: 'getClock',
    summary: "The server's time",
    description: 'What every rate-limit window and credential expiry reads, how far it has been moved, and whether it may be.',
    responses: { 200: clock("The server's time") },
  });
  register({
    method: 'post',
    path: '/admin/clock',
    operationId: 'advanceClock',
    summary: "Move the server's time forward",
    description:
      'Only on a server started with SANDBOX_CLOCK=true: rate-limit windows roll over and temporary credentials age as if the ' +
      'time had passed. It never moves back, nor more than a hundred years ahead in all. Each instance keeps its own clock.',
    request: { body: { required: true, content: jsonOnly(clockAdvanceSchema) } },
    responses: {
      200: clock('Moved'),
      400: failure(
        'advance_seconds missing, not a whole number, below 1 or over ten years, or another field (IVR_INVALID_PARAMETER); or ' +
          'an advance that would take the clock more than a hundred years ahead in all (IVR_CLOCK_LIMIT: the message says how ' +
          'far it may still move; the clock is unchanged)',
      ),
      409: failure('The server was started without SANDBOX_CLOCK=true: its clock does not move'),
      415: failure('A body in another type than application/json'),
    },
  });
  const retention = (description: string): ResponseConfig => ({ description, headers: { ...limited }, content: jsonOnly(retentionViewSchema) });
  register({
    method: 'get',
    path: '/admin/retention',
    operationId: 'previewRetention',
    summary: 'The raw calls that RETENTION_MONTHS would drop now',
    description:
      'Whole UTC months of raw calls before the cut-off (RETENTION_MONTHS months before the current one, by the server\'s clock), ' +
      'with their number of calls; nothing is dropped. Without RETENTION_MONTHS, none.',
    responses: { 200: retention('What would be dropped') },
  });
  register({
    method: 'post',
    path: '/admin/retention',
    operationId: 'applyRetention',
    summary: 'Drop the raw calls older than RETENTION_MONTHS now',
    description:
      'What the server does at start and every hour, done now: the months of raw calls before the cut-off are dropped whole, ' +
      'each logged with its number of calls. Every rollup stays, so reports over those days answer as before, and their call ' +
      'ids stay known, so an import of one of them again counts a duplicate. Without RETENTION_MONTHS nothing is dropped.',
    responses: { 200: retention('Dropped') },
  });
  const scenario = (description: string): ResponseConfig => ({ description, headers: { ...limited }, content: jsonOnly(scenarioViewSchema) });
  register({
    method: 'post',
    path: '/admin/scenarios',
    operationId: 'addScenario',
    summary: 'Make requests fail or slow down on purpose',
    description:
      'The next `times` requests of the target (every one until deleted, without `times`), of the account and client address ' +
      `if named, wait delay_ms (at most ${MOST_DELAY_MS}) and then get the status as the real rule answers it: a 429 with ` +
      "Retry-After and the group's X-RateLimit-* headers, a 401 with its challenge, in JSON or XML by Accept. The oldest " +
      'matching scenario answers first. Forced and delayed answers carry X-Sandbox-Scenario (the id); the answers of auth, data ' +
      'and survey requests carry X-Sandbox-Scenarios-Active while scenarios matching them have answers left. Kept in the store: ' +
      'every instance on the same database shares them and their count. At most SANDBOX_MAX_SCENARIOS (default 100) may have ' +
        'answers left at once; used-up ones are listed but no longer matched.',
    request: { body: { required: true, content: jsonOnly(scenarioRuleSchema) } },
    responses: {
      201: {
        description: 'Added',
        headers: {
          ...limited,
          Location: { description: 'The scenario: /admin/scenarios/{id}', required: true, schema: { type: 'string' } },
        },
        content: jsonOnly(scenarioViewSchema),
      },
      400: failure('A field missing, out of range or not for the target (named), or an unknown field'),
      409: failure(
        'The server was started with SANDBOX_SCENARIOS=false (IVR_SCENARIOS_OFF), or SANDBOX_MAX_SCENARIOS scenarios (default ' +
          '100) have answers left already (IVR_TOO_MANY_SCENARIOS): delete one, or let one be used up',
      ),
      415: failure('A body in another type than application/json'),
    },
  });
  register({
    method: 'get',
    path: '/admin/scenarios',
    operationId: 'listScenarios',
    summary: 'Every scenario, with how many requests each has answered',
    description: 'Oldest first; used-up scenarios stay (active false) until deleted, no longer matched nor counted against SANDBOX_MAX_SCENARIOS.',
    responses: { 200: { description: 'The scenarios', headers: { ...limited }, content: jsonOnly(scenarioListSchema) } },
  });
  register({
    method: 'delete',
    path: '/admin/scenarios',
    operationId: 'removeScenarios',
    summary: 'Remove every scenario',
    responses: {
      200: {
        description: 'How many went',
        headers: { ...limited },
        content: jsonOnly(z.strictObject({ removed: z.number().int() }).meta({ id: 'ScenariosRemoved' })),
      },
    },
  });
  register({
    method: 'get',
    path: '/admin/scenarios/{id}',
    operationId: 'getScenario',
    summary: 'One scenario',
    request: { params: scenarioPathSchema },
    responses: { 200: scenario('The scenario'), 400: failure(NOT_A_SCENARIO_ID), 404: failure('No such scenario') },
  });
  register({
    method: 'delete',
    path: '/admin/scenarios/{id}',
    operationId: 'removeScenario',
    summary: 'Remove one scenario',
    request: { params: scenarioPathSchema },
    responses: { 204: { description: 'Removed', headers: { ...limited } }, 400: failure(NOT_A_SCENARIO_ID), 404: failure('No such scenario') },
  });
  register({
    method: 'get',
    path: '/admin/survey/calls',
    operationId: 'listSurveyCalls',
    summary: 'The last survey calls (the call inspector)',
    description:
      'The last SURVEY_INSPECT_CALLS calls of the survey web service that this instance read (svcEval, plumEval and the REST ' +
      'twin), newest first: each with its time, service, session, parts, answer or fault, and how long answering took. ' +
      `Recordings are shown by their size, type and first bytes, never whole; a text is cut at ${MOST_TEXT_CHARACTERS} characters. ` +
      'Calls refused before they were read (malformed XML, a bound passed, a rate limit) are not kept. In memory, per instance.',
    request: { query: surveyCallsQuerySchema },
    responses: {
      200: { description: 'The calls kept', headers: { ...limited }, content: jsonOnly(surveyCallListSchema) },
      400: failure('A session that is not a session id, or an after that is not a whole number'),
    },
  });
  register({
    method: 'get',
    path: '/admin/survey/calls/stream',
    operationId: 'streamSurveyCalls',
    summary: 'The survey calls as they come (server-sent events)',
    description:
      'Each call kept from now on as an `event: call` whose `id` is its seq and whose `data` is the SurveyCallEntry in JSON; ' +
      'with Last-Event-ID (as EventSource sends it when it reconnects), first the kept calls after that seq, oldest first. ' +
      `A comment line every few seconds keeps it open. At most ${MOST_STREAMS} streams at once per instance: one more gets 503 ` +
      '(IVR_TOO_MANY_STREAMS) with Retry-After.',
    request: {
      headers: z.object({
        'Last-Event-ID': z.string().regex(/^[0-9]+$/).optional().meta({ description: 'The seq of the last call received' }),
      }),
    },
    responses: {
      200: {
        description: 'The stream, which ends only when the client closes it or the server stops',
        headers: { ...limited },
        content: { 'text/event-stream': { schema: z.string().meta({ description: 'Server-sent events' }) } },
      },
      400: failure('A Last-Event-ID that is not a whole number'),
    },
  });
  register({
    method: 'post',
    path: '/admin/calls',
    operationId: 'importCalls',
    summary: 'Import call records',
    description:
      'Read as it arrives and stored in batches, never held whole; answered once every good record is stored. A bad record is ' +
      'rejected alone (one the CallRecord schema refuses, or one for a number on no account), listed in the answer; a record stored ' +
      'before (by call_id) is a duplicate and left as it was, so sending a body again is safe.',
    request: {
      body: {
        required: true,
        content: {
          [NDJSON_TYPE]: {
            schema: z.string().meta({ description: 'One CallRecord per line (\\n or \\r\\n); blank lines are skipped' }),
          },
          [JSON_TYPE]: { schema: z.array(callRecordWireSchema) },
        },
      },
    },
    responses: {
      200: { description: 'What became of the records', headers: { ...limited }, content: jsonOnly(importSummarySchema) },
      400: failure('An application/json body that is not a JSON array'),
      415: failure('A body in another type than application/x-ndjson or application/json'),
    },
  });
}
