import { JSON_TYPE, XML_TYPE } from '../../http/openapi/components';
import type { ExampleExchange, ExampleSession } from '../../http/openapi/examples';
import { exampleSeriesPath } from '../query/examples';
import { seriesPathSchema } from '../query/params';
import { examplePeriodKey, onTheTwoDays } from '../series/examples';
import { seriesXmlSchema } from '../series/representation';
import { EVENTS_PATH, eventsBodySchema } from './series';

/** GET /api/events, declared with its answer in ./resource.ts. */
export const eventsOperation = {
  operationId: 'getEvents',
  summary: 'Event tracker',
  description: 'Calls, log events, loops and form items, and two averages, per period, as the event tracker of the reference.',
  expressPath: EVENTS_PATH,
  params: seriesPathSchema,
  json: eventsBodySchema,
  xml: seriesXmlSchema,
};

/** The event tracker's answer in XML: each series' value on the two days, nothing on the first. */
function eventsXml({ days: { first, second } }: ExampleSession): string {
  const series: [string, number][] = [
    ['calls', 2],
    ['log_events', 10],
    ['loops_per_call', 2],
    ['form_items', 7],
    ['loops', 4],
    ['average_form_items', 3.5],
  ];
  const periods = (value: number) =>
    `<period timestamp="${examplePeriodKey(first)}">0</period><period timestamp="${examplePeriodKey(second)}">${value}</period>`;
  return `<?xml version="1.0" encoding="UTF-8"?><result>${series.map(([name, value]) => `<${name}>${periods(value)}</${name}>`).join('')}</result>`;
}

/** The event tracker on the session's two days, and the refusals every raw-data resource shares: a range, a period, credentials. */
export function eventsExamples(session: ExampleSession): ExampleExchange[] {
  const path = exampleSeriesPath(session);
  const twoDays = (first: number, second: number) => onTheTwoDays(session, first, second);
  return [
    {
      name: 'days',
      summary: 'Two days, every number',
      operationId: 'getEvents',
      params: path,
      response: {
        status: 200,
        mediaType: JSON_TYPE,
        body: {
          calls: twoDays(0, 2),
          log_events: twoDays(0, 10),
          loops_per_call: twoDays(0, 2),
          form_items: twoDays(0, 7),
          loops: twoDays(0, 4),
          average_form_items: twoDays(0, 3.5),
        },
      },
    },
    {
      name: 'daysXml',
      summary: 'The same in XML',
      operationId: 'getEvents',
      params: path,
      response: { status: 200, mediaType: XML_TYPE, body: eventsXml(session) },
    },
    {
      name: 'endBeforeStart',
      summary: 'An end before the start',
      operationId: 'getEvents',
      params: { ...path, start: path.end, end: path.start },
      response: { status: 400, mediaType: JSON_TYPE, body: { error: `end ${path.start} is earlier than start ${path.end}` } },
    },
    {
      name: 'unknownPeriodXml',
      summary: 'A period that does not exist, in XML',
      operationId: 'getEvents',
      params: { ...path, period: 'hour' },
      response: {
        status: 400,
        mediaType: XML_TYPE,
        body: '<?xml version="1.0" encoding="UTF-8"?><result><error>period must be day, week or month, not "hour"</error></result>',
      },
    },
    {
      name: 'withoutCredentials',
      summary: 'No credentials',
      operationId: 'getEvents',
      params: path,
      withoutCredentials: true,
      response: {
        status: 401,
        mediaType: JSON_TYPE,
        headers: { 'WWW-Authenticate': 'Basic realm="IVR reporting API"' },
        body: { error: 'missing, invalid or expired credentials, or the account is inactive; authenticate at /api/auth' },
      },
    },
  ];
}
