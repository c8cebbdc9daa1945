import { z } from 'zod';
import type { AdminAnswers, AdminOperation } from '../../http/openapi/admin-operation';
import { MOST_TEXT_CHARACTERS } from './call-entry';
import { MOST_STREAMS, surveyCallListSchema, surveyCallsQuerySchema } from './routes';

/** /admin/survey/calls: the call inspector, as a list and as server-sent events. */
export function surveyCallOperations({ limited, json, failure }: AdminAnswers): AdminOperation[] {
  return [
    {
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
        200: json('The calls kept', surveyCallListSchema),
        400: failure('A session that is not a session id, or an after that is not a whole number'),
      },
    },
    {
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
    },
  ];
}
