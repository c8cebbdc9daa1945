import type { AdminAnswers, AdminOperation } from '../../http/openapi/admin-operation';
import { jsonOnly } from '../../http/openapi/components';
import { clockAdvanceSchema, clockViewSchema } from './routes';

/** /admin/clock: the server's time, and moving it forward. */
export function clockOperations({ json, failure }: AdminAnswers): AdminOperation[] {
  return [
    {
      method: 'get',
      path: '/admin/clock',
      operationId: 'getClock',
      summary: "The server's time",
      description: 'What every rate-limit window and credential expiry reads, how far it has been moved, and whether it may be.',
      responses: { 200: json("The server's time", clockViewSchema) },
    },
    {
      method: 'post',
      path: '/admin/clock',
      operationId: 'advanceClock',
      summary: "Move the server's time forward",
      description:
        'Only on a server started with SANDBOX_CLOCK=true: rate-limit windows roll over and temporary credentials age as if the ' +
        'time had passed. It never moves back, nor more than a hundred years ahead in all. Each instance keeps its own clock.',
      request: { body: { required: true, content: jsonOnly(clockAdvanceSchema) } },
      responses: {
        200: json('Moved', clockViewSchema),
        400: failure(
          'advance_seconds missing, not a whole number, below 1 or over ten years, or another field (IVR_INVALID_PARAMETER); or ' +
            'an advance that would take the clock more than a hundred years ahead in all (IVR_CLOCK_LIMIT: the message says how ' +
            'far it may still move; the clock is unchanged)',
        ),
        409: failure('The server was started without SANDBOX_CLOCK=true: its clock does not move'),
        415: failure('A body in another type than application/json'),
      },
    },
  ];
}
