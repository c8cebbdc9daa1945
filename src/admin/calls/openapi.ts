import type { DateTime } from 'luxon';
import { z } from 'zod';
import { callRecordWireSchema, type CallRecordInput } from '../../domain/call-record';
import { JSON_TYPE } from '../../http/openapi/components';
import type { AdminAnswers, AdminOperation } from '../../http/openapi/admin-operation';
import type { ExampleExchange, ExampleSession } from '../../http/openapi/examples';
import { importSummarySchema } from './route';

const NDJSON_TYPE = 'application/x-ndjson';

/** POST /admin/calls. */
export function callOperations({ json, failure }: AdminAnswers): AdminOperation[] {
  return [
    {
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
        200: json('What became of the records', importSummarySchema),
        400: failure('An application/json body that is not a JSON array'),
        415: failure(
          'A body in another type than application/x-ndjson or application/json (IVR_UNSUPPORTED_MEDIA_TYPE), or with a ' +
            'Content-Encoding other than identity (IVR_UNSUPPORTED_IMPORT_ENCODING, with Accept-Encoding: identity): the import is not decoded',
        ),
      },
    },
  ];
}

function at(day: DateTime, hour: number, minute: number): string {
  return day.set({ hour, minute }).toISO({ suppressMilliseconds: true }) as string;
}

/** The session's data: two calls on the second day in New York, and one for a number on no account. */
function exampleCalls({ account: { phone }, days: { second }, application }: ExampleSession): CallRecordInput[] {
  return [
    {
      call_id: 'example-1',
      phone,
      started_at: at(second, 10, 15),
      log_events: 7,
      loops: 3,
      form_items: 5,
      caller: '+16175550123',
      duration_seconds: 184.5,
      transfers: 1,
      transfer_seconds: 60,
      js_errors: 0,
      fetch_errors: 1,
      page_loads: 4,
      page_load_seconds: 1.2,
      path: [
        { application, page: 'main.vxml', form: 'main_menu', item: 'selection', visits: 2, filled: 1, nomatch: 1 },
        { application, page: 'billing.vxml', form: 'pay', item: 'amount', visits: 1, filled: 1, transfer: 1 },
      ],
    },
    {
      call_id: 'example-2',
      phone,
      started_at: at(second, 16, 40),
      log_events: 3,
      loops: 1,
      form_items: 2,
      caller: '+447700900123',
      duration_seconds: 45,
      page_loads: 2,
      page_load_seconds: 0.8,
      path: [{ application, page: 'main.vxml', form: 'main_menu', item: 'selection', visits: 1, filled: 1 }],
    },
    { call_id: 'example-3', phone: '18005550199', started_at: at(second, 11, 0), log_events: 1, loops: 0, form_items: 1 },
  ];
}

/** The session's calls imported, then one of them again. */
export function callExamples(session: ExampleSession): ExampleExchange[] {
  const calls = exampleCalls(session);
  return [
    {
      name: 'jsonArray',
      summary: 'Three records as a JSON array: two stored, one for a number on no account',
      operationId: 'importCalls',
      body: { mediaType: JSON_TYPE, value: calls },
      response: {
        status: 200,
        mediaType: JSON_TYPE,
        body: { received: 3, inserted: 2, duplicates: 0, rejected: [{ line: 3, error: 'phone 18005550199 is on no account' }] },
      },
    },
    {
      name: 'ndjson',
      summary: 'A record sent again, as NDJSON: a duplicate',
      operationId: 'importCalls',
      body: { mediaType: NDJSON_TYPE, value: `${JSON.stringify(calls[0])}\n` },
      response: { status: 200, mediaType: JSON_TYPE, body: { received: 1, inserted: 0, duplicates: 1, rejected: [] } },
    },
  ];
}
