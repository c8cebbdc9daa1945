import { DateTime } from 'luxon';
import type { CallRecordInput } from '../domain/call-record';
import { errors } from '../errors/catalogue';
import { DEMO_ACCOUNT } from '../startup-data/demo/demo-account';

/**
 * One request and the answer the server gives it, in the order a session would send them: the API
 * reference shows each as an example, and examples.test.ts replays the whole list against a live server
 * that starts empty, comparing every answer. So every example in the document is an answer the server
 * really gives. The account is the demo account's, and the days those of the demo data (the two days
 * before the server's today in the account's time zone), so the examples and the "Try it out" values
 * they give the page at /docs work as they are against `npm start`.
 */
export interface ExampleExchange {
  /** Names the example wherever the document shows it. */
  readonly name: string;
  readonly summary: string;
  readonly operationId: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly body?: { readonly mediaType: string; readonly value: unknown };
  /** Request headers the operation documents as parameters; Accept is the response's media type, credentials the scheme's. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent without the credentials the operation's security scheme asks for. */
  readonly withoutCredentials?: true;
  readonly response: {
    readonly status: number;
    readonly mediaType?: string;
    readonly body?: unknown;
    readonly headers?: Readonly<Record<string, string>>;
    /** The server draws these values at random: the example shows their form, not the values a call gets. */
    readonly drawnAtRandom?: true;
  };
}

const { tool, login, password, timeZone } = DEMO_ACCOUNT;
const phone = DEMO_ACCOUNT.phones[0];
const account = { tool, login };
const JSON_TYPE = 'application/json';
const XML_TYPE = 'application/xml';
const FORM_TYPE = 'application/x-www-form-urlencoded';

const APPLICATION = 'https://ivr.example.com/start.vxml';

/** The two local days the session reports on, the second with its calls: the day before today, complete. */
interface ExampleDays {
  readonly first: DateTime;
  readonly second: DateTime;
}

function exampleDays(now: number): ExampleDays {
  const second = DateTime.fromMillis(now, { zone: timeZone }).startOf('day').minus({ days: 1 });
  return { first: second.minus({ days: 1 }), second };
}

/** The day whose calls the examples show, as YYYYMMDD: the examples of two instants of one day are equal. */
export function exampleDay(now: number): string {
  return yyyymmdd(exampleDays(now).second);
}

function yyyymmdd(day: DateTime): string {
  return day.toFormat('yyyyMMdd');
}

/** The server keys a series' periods by their local midnights, in seconds. */
function periodKey(day: DateTime): string {
  return String(day.toSeconds());
}

function at(day: DateTime, hour: number, minute: number): string {
  return day.set({ hour, minute }).toISO({ suppressMilliseconds: true }) as string;
}

/** The example data: two calls on the second day in New York, and one for a number on no account. */
function exampleCalls({ second }: ExampleDays): CallRecordInput[] {
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
        { application: APPLICATION, page: 'main.vxml', form: 'main_menu', item: 'selection', visits: 2, filled: 1, nomatch: 1 },
        { application: APPLICATION, page: 'billing.vxml', form: 'pay', item: 'amount', visits: 1, filled: 1, transfer: 1 },
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
      path: [{ application: APPLICATION, page: 'main.vxml', form: 'main_menu', item: 'selection', visits: 1, filled: 1 }],
    },
    { call_id: 'example-3', phone: '18005550199', started_at: at(second, 11, 0), log_events: 1, loops: 0, form_items: 1 },
  ];
}

const SOAP_CALL =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns1="urn:SampleWebservice" ' +
  'xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:SOAP-ENC="http://schemas.xmlsoap.org/soap/encoding/" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" SOAP-ENV:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">\n' +
  '  <SOAP-ENV:Body>\n' +
  '    <ns1:svcEval>\n' +
  '      <question_texts SOAP-ENC:arrayType="xsd:string[1]" xsi:type="ns1:ArrayOfstring">\n' +
  '        <item xsi:type="xsd:string">Do you agree?</item>\n' +
  '      </question_texts>\n' +
  '      <answers SOAP-ENC:arrayType="xsd:string[1]" xsi:type="ns1:ArrayOfstring">\n' +
  '        <item xsi:type="xsd:string">yes</item>\n' +
  '      </answers>\n' +
  '    </ns1:svcEval>\n' +
  '  </SOAP-ENV:Body>\n' +
  '</SOAP-ENV:Envelope>\n';

/** The event tracker's answer in XML: each series' value on the two days, nothing on the first. */
function eventsXml({ first, second }: ExampleDays): string {
  const series: [string, number][] = [
    ['calls', 2],
    ['log_events', 10],
    ['loops_per_call', 2],
    ['form_items', 7],
    ['loops', 4],
    ['average_form_items', 3.5],
  ];
  const periods = (value: number) =>
    `<period timestamp="${periodKey(first)}">0</period><period timestamp="${periodKey(second)}">${value}</period>`;
  return `<?xml version="1.0" encoding="UTF-8"?><result>${series.map(([name, value]) => `<${name}>${periods(value)}</${name}>`).join('')}</result>`;
}

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

const FLOW = {
  applications: {
    [APPLICATION]: [
      { page: 'main.vxml', form: 'main_menu', item: 'selection', visits: 3, filled: 2, nomatch: 1, noinput: 0, transfer: 0, disconnect: 0 },
      { page: 'billing.vxml', form: 'pay', item: 'amount', visits: 1, filled: 1, nomatch: 0, noinput: 0, transfer: 1, disconnect: 0 },
    ],
  },
};

const FLOW_XML =
  '<?xml version="1.0" encoding="UTF-8"?><result><applications><application url="https://ivr.example.com/start.vxml">' +
  '<entry><page>main.vxml</page><form>main_menu</form><item>selection</item><visits>3</visits><filled>2</filled>' +
  '<nomatch>1</nomatch><noinput>0</noinput><transfer>0</transfer><disconnect>0</disconnect></entry>' +
  '<entry><page>billing.vxml</page><form>pay</form><item>amount</item><visits>1</visits><filled>1</filled>' +
  '<nomatch>0</nomatch><noinput>0</noinput><transfer>1</transfer><disconnect>0</disconnect></entry>' +
  '</application></applications></result>';

const SOAP_ANSWER =
  '<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
  'xmlns:tns="urn:SampleWebservice" soap:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><soap:Body>' +
  '<tns:svcEvalResponse><svcEvalResponse>accepted</svcEvalResponse></tns:svcEvalResponse></soap:Body></soap:Envelope>';

/** The admin API's part of the session: the account, its number and the calls first, and at the end, undoing them. */
function adminSetup(days: ExampleDays): ExampleExchange[] {
  const calls = exampleCalls(days);
  return [
  {
    name: 'create',
    summary: 'Create the account',
    operationId: 'putAccount',
    params: account,
    body: { mediaType: JSON_TYPE, value: { password, timezone: timeZone } },
    response: {
      status: 201,
      mediaType: JSON_TYPE,
      headers: { Location: `/admin/accounts/${tool}/${login}` },
      body: { tool, login, active: true, timezone: timeZone, phones: [] },
    },
  },
  {
    name: 'assign',
    summary: 'Assign a number',
    operationId: 'assignPhone',
    params: { ...account, phone },
    response: { status: 201, mediaType: JSON_TYPE, body: { tool, login, active: true, timezone: timeZone, phones: [phone] } },
  },
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
    body: { mediaType: 'application/x-ndjson', value: `${JSON.stringify(calls[0])}\n` },
    response: { status: 200, mediaType: JSON_TYPE, body: { received: 1, inserted: 0, duplicates: 1, rejected: [] } },
  },
  {
    name: 'show',
    summary: 'The account',
    operationId: 'getAccount',
    params: account,
    response: { status: 200, mediaType: JSON_TYPE, body: { tool, login, active: true, timezone: timeZone, phones: [phone] } },
  },
  {
    name: 'list',
    summary: 'Every account',
    operationId: 'listAccounts',
    response: { status: 200, mediaType: JSON_TYPE, body: { accounts: [{ tool, login, active: true, timezone: timeZone, phones: [phone] }] } },
  },
  {
    name: 'unknownAccount',
    summary: 'An account that does not exist',
    operationId: 'getAccount',
    params: { tool, login: 'nobody' },
    response: { status: 404, mediaType: JSON_TYPE, body: { error: `no account ${tool}/nobody` } },
  },
  {
    name: 'withoutToken',
    summary: 'No admin token',
    operationId: 'listAccounts',
    withoutCredentials: true,
    response: {
      status: 401,
      mediaType: JSON_TYPE,
      headers: { 'WWW-Authenticate': 'Bearer realm="ivr-reporting admin"' },
      body: { error: 'missing or wrong admin token; send Authorization: Bearer <ADMIN_TOKEN>' },
    },
  },
  ];
}

function reporting(days: ExampleDays): ExampleExchange[] {
  const range = { start: yyyymmdd(days.first), end: yyyymmdd(days.second) };
  const seriesQuery = { ...range, period: 'day', phone: 'ALL' };
  const rangeQuery = { ...range, phone: 'ALL' };
  /** A series' values on the two days, keyed as the server keys them. */
  const twoDays = (first: number, second: number) => ({ [periodKey(days.first)]: first, [periodKey(days.second)]: second });
  return [
  {
    name: 'form',
    summary: 'The demo account, as a form',
    operationId: 'authenticate',
    body: { mediaType: FORM_TYPE, value: { tool, login, password } },
    response: {
      status: 200,
      mediaType: JSON_TYPE,
      drawnAtRandom: true,
      body: { login: 'c414aebaa298ef899306203a63e1985c', password: '21be7ebab7ed5c23fa78c0878b7db083' },
    },
  },
  {
    name: 'invalidTool',
    summary: 'A tool that does not exist',
    operationId: 'authenticate',
    body: { mediaType: FORM_TYPE, value: { tool: 'nope', login, password } },
    response: { status: 400, mediaType: JSON_TYPE, body: { error: errors.invalidTool().message } },
  },
  {
    name: 'wrongPassword',
    summary: 'A wrong password, as JSON',
    operationId: 'authenticate',
    body: { mediaType: JSON_TYPE, value: { tool, login, password: 'wrong-password' } },
    response: {
      status: 401,
      mediaType: JSON_TYPE,
      headers: { 'WWW-Authenticate': 'Form realm="IVR reporting API"' },
      body: { error: 'invalid login or password, or the account is inactive' },
    },
  },
  {
    name: 'days',
    summary: 'Two days, every number',
    operationId: 'getEvents',
    params: seriesQuery,
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
    params: seriesQuery,
    response: { status: 200, mediaType: XML_TYPE, body: eventsXml(days) },
  },
  {
    name: 'endBeforeStart',
    summary: 'An end before the start',
    operationId: 'getEvents',
    params: { ...seriesQuery, start: range.end, end: range.start },
    response: { status: 400, mediaType: JSON_TYPE, body: { error: `end ${range.start} is earlier than start ${range.end}` } },
  },
  {
    name: 'unknownPeriodXml',
    summary: 'A period that does not exist, in XML',
    operationId: 'getEvents',
    params: { ...seriesQuery, period: 'hour' },
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
    params: seriesQuery,
    withoutCredentials: true,
    response: {
      status: 401,
      mediaType: JSON_TYPE,
      headers: { 'WWW-Authenticate': 'Basic realm="IVR reporting API"' },
      body: { error: 'missing, invalid or expired credentials, or the account is inactive; authenticate at /api/auth' },
    },
  },
  {
    name: 'days',
    summary: 'Two days, every number',
    operationId: 'getVolume',
    params: seriesQuery,
    response: {
      status: 200,
      mediaType: JSON_TYPE,
      body: { calls: twoDays(0, 2), call_minutes: twoDays(0, 3.83), transfers: twoDays(0, 1), transfer_minutes: twoDays(0, 1) },
    },
  },
  {
    name: 'days',
    summary: 'Two days, every number',
    operationId: 'getPerformance',
    params: seriesQuery,
    response: {
      status: 200,
      mediaType: JSON_TYPE,
      body: {
        calls: twoDays(0, 2),
        js_errors: twoDays(0, 0),
        js_errors_per_call: twoDays(0, 0),
        fetch_errors: twoDays(0, 1),
        fetch_errors_per_call: twoDays(0, 0.5),
        average_page_load: twoDays(0, 0.33),
      },
    },
  },
  {
    name: 'days',
    summary: 'Two days, every number',
    operationId: 'getCallerProfile',
    params: seriesQuery,
    response: { status: 200, mediaType: JSON_TYPE, body: { calls: twoDays(0, 2), callers: twoDays(0, 2) } },
  },
  {
    name: 'range',
    summary: 'Two days, every number',
    operationId: 'getGeographic',
    params: rangeQuery,
    response: { status: 200, mediaType: JSON_TYPE, body: GEOGRAPHIC },
  },
  {
    name: 'range',
    summary: 'Two days, every number',
    operationId: 'getFlow',
    params: rangeQuery,
    response: { status: 200, mediaType: JSON_TYPE, body: FLOW },
  },
  {
    name: 'rangeXml',
    summary: 'The same in XML',
    operationId: 'getFlow',
    params: rangeQuery,
    response: { status: 200, mediaType: XML_TYPE, body: FLOW_XML },
  },
  ];
}

/** The survey examples, on the operations given (the first service's of each flavour); none for a flavour no service answers. */
function survey(operations: { readonly svcEval?: string; readonly rest?: string }): ExampleExchange[] {
  return SURVEY.flatMap((exchange) => {
    const operationId = exchange.operationId === 'svcEval' ? operations.svcEval : operations.rest;
    return operationId === undefined ? [] : [{ ...exchange, operationId }];
  });
}

/** Written on the single service's operations: survey() puts them on those of the services there are. */
const SURVEY: readonly ExampleExchange[] = [
  {
    name: 'yes',
    summary: "A page answered 'yes': accepted",
    operationId: 'svcEval',
    headers: { SOAPAction: '"urn:SampleWebserviceAction"' },
    body: { mediaType: 'text/xml', value: SOAP_CALL },
    response: { status: 200, mediaType: 'text/xml', body: SOAP_ANSWER },
  },
  {
    name: 'yes',
    summary: "A page answered 'yes': accepted",
    operationId: 'svcEvalRest',
    body: { mediaType: FORM_TYPE, value: { question_texts: ['Do you agree?'], answers: ['yes'] } },
    response: { status: 200, mediaType: 'text/plain', body: 'accepted' },
  },
  {
    name: 'unequalArrays',
    summary: 'Two questions, one answer',
    operationId: 'svcEvalRest',
    body: { mediaType: FORM_TYPE, value: { question_texts: ['Do you agree?', 'May we call you?'], answers: ['yes'] } },
    response: {
      status: 400,
      mediaType: JSON_TYPE,
      body: { error: 'question_texts has 2 items but answers has 1 item; answers[i] must be the answer to question_texts[i]' },
    },
  },
];

const MONITORING: readonly ExampleExchange[] = [
  { name: 'alive', summary: 'The process answers', operationId: 'getLiveness', response: { status: 200, mediaType: JSON_TYPE, body: { status: 'ok' } } },
  {
    name: 'ready',
    summary: 'The in-memory store, ready',
    operationId: 'getReadiness',
    response: { status: 200, mediaType: JSON_TYPE, body: { status: 'ready', checks: { store: { status: 'ready' } } } },
  },
];

const ADMIN_TEARDOWN: readonly ExampleExchange[] = [
  {
    name: 'revoke',
    summary: "Revoke the account's temporary credentials",
    operationId: 'revokeCredentials',
    params: account,
    response: { status: 200, mediaType: JSON_TYPE, body: { tool, login, active: true, timezone: timeZone, phones: [phone] } },
  },
  {
    name: 'release',
    summary: 'Release the number',
    operationId: 'releasePhone',
    params: { ...account, phone },
    response: { status: 200, mediaType: JSON_TYPE, body: { tool, login, active: true, timezone: timeZone, phones: [] } },
  },
  {
    name: 'notOnAccount',
    summary: 'A number the account does not have',
    operationId: 'releasePhone',
    params: { ...account, phone },
    response: { status: 404, mediaType: JSON_TYPE, body: { error: `phone ${phone} is not on account ${tool}/${login}` } },
  },
  {
    name: 'deactivate',
    summary: 'Deactivate the account',
    operationId: 'putAccount',
    params: account,
    body: { mediaType: JSON_TYPE, value: { active: false } },
    response: { status: 200, mediaType: JSON_TYPE, body: { tool, login, active: false, timezone: timeZone, phones: [] } },
  },
];

/**
 * The session, in order, on the days before `now`'s day; without the admin API, its examples are left
 * out (the others are answers to the same data).
 */
export function exampleExchanges(adminApi: boolean, now: number, surveyOperations: { readonly svcEval?: string; readonly rest?: string }): readonly ExampleExchange[] {
  const days = exampleDays(now);
  return adminApi
    ? [...adminSetup(days), ...reporting(days), ...survey(surveyOperations), ...MONITORING, ...ADMIN_TEARDOWN]
    : [...reporting(days), ...survey(surveyOperations), ...MONITORING];
}
