import { z } from 'zod';
import type { AdminAnswers, AdminOperation } from '../../http/openapi/admin-operation';
import { jsonOnly } from '../../http/openapi/components';
import { MOST_DELAY_MS } from './delay';
import { scenarioListSchema, scenarioPathSchema, scenarioRuleSchema, scenarioViewSchema } from './scenario';

/** The 400 of a scenario's own routes: an id the routes refuse before they look it up. */
const NOT_A_SCENARIO_ID = 'An id that is not a UUID in lower case, as POST /admin/scenarios answers them (IVR_INVALID_PARAMETER)';

/** /admin/scenarios: requests made to fail or slow down on purpose. */
export function scenarioOperations({ limited, json, failure }: AdminAnswers): AdminOperation[] {
  return [
    {
      method: 'post',
      path: '/admin/scenarios',
      operationId: 'addScenario',
      summary: 'Make requests fail or slow down on purpose',
      description:
        'The next `times` requests of the target (every one until deleted, without `times`), of the account and client address ' +
        `if named, wait delay_ms (at most ${MOST_DELAY_MS}; or drawn for each request from {"uniform": [min, max]} or a log-normal ` +
        '{"median": m, "p99": n}) and then get the status as the real rule answers it: a 429 with ' +
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
    },
    {
      method: 'get',
      path: '/admin/scenarios',
      operationId: 'listScenarios',
      summary: 'Every scenario, with how many requests each has answered',
      description: 'Oldest first; used-up scenarios stay (active false) until deleted, no longer matched nor counted against SANDBOX_MAX_SCENARIOS.',
      responses: { 200: json('The scenarios', scenarioListSchema) },
    },
    {
      method: 'delete',
      path: '/admin/scenarios',
      operationId: 'removeScenarios',
      summary: 'Remove every scenario',
      responses: { 200: json('How many went', z.strictObject({ removed: z.number().int() }).meta({ id: 'ScenariosRemoved' })) },
    },
    {
      method: 'get',
      path: '/admin/scenarios/{id}',
      operationId: 'getScenario',
      summary: 'One scenario',
      request: { params: scenarioPathSchema },
      responses: { 200: json('The scenario', scenarioViewSchema), 400: failure(NOT_A_SCENARIO_ID), 404: failure('No such scenario') },
    },
    {
      method: 'delete',
      path: '/admin/scenarios/{id}',
      operationId: 'removeScenario',
      summary: 'Remove one scenario',
      request: { params: scenarioPathSchema },
      responses: { 204: { description: 'Removed', headers: { ...limited } }, 400: failure(NOT_A_SCENARIO_ID), 404: failure('No such scenario') },
    },
  ];
}
