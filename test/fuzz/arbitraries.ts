import fc from 'fast-check';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { RawRequest } from './raw-http';

/** What a request may carry that the server issued or was configured with, so fuzzing reaches past the guards. */
export interface Secrets {
  readonly adminToken: string;
  readonly login: string;
  readonly password: string;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'get', 'GETT'];

/** Path parts: good values, and what breaks parsers (escapes, other scripts' digits, control bytes, overlong). */
const pathPart = fc.oneof(
  fc.constantFrom('20180201', '20180228', '20180230', '19991231', '99999999', 'day', 'week', 'month', 'year', 'ALL', 'all'),
  fc.constantFrom('18005550100', '+18005550100', '15550001', '0', '1234567890123456', 'dev', 'fuse', 'insight', 'fuseplus', 'excel'),
  fc.constantFrom('%E0%A4%A', '%FF', '%', '%%', '%00', '%2F', '%C0%AF', '%ED%A0%80', '..', '.', '%2e%2e', '٢٠١٨٠٢٠١', '２０１８', '\u0660'),
  fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', 'x'.repeat(5_000), '1'.repeat(300)),
  fc.string({ maxLength: 20 }).map((text) => encodeURIComponent(text)),
  fc.stringMatching(/^[A-Za-z0-9%._~+-]{0,16}$/),
);

const route = fc.oneof(
  fc.constant(['api', 'auth']),
  fc.tuple(fc.constantFrom('events', 'volume', 'performance', 'profile', 'path'), fc.array(pathPart, { minLength: 0, maxLength: 5 })).map(
    ([resource, parts]) => ['api', resource, ...parts],
  ),
  fc.array(pathPart, { minLength: 0, maxLength: 2 }).map((parts) => ['admin', 'accounts', ...parts]),
  fc.tuple(pathPart, pathPart, fc.constantFrom('phones', 'credentials', 'other'), fc.array(pathPart, { maxLength: 2 })).map(
    ([tool, login, child, rest]) => ['admin', 'accounts', tool, login, child, ...rest],
  ),
  fc.constant(['admin', 'calls']),
  fc.constant(['survey']),
  fc.constant(['survey', 'rest']),
  // Every spelling of a SOAP path that Express routes to the service: any letter case, a trailing slash.
  fc.constantFrom(['SURVEY'], ['survey', ''], ['Survey', 'Plum'], ['survey', 'plum', '']),
  fc.array(pathPart, { minLength: 0, maxLength: 4 }),
);

const query = fc.oneof(
  fc.constant(''),
  fc.constant('?wsdl'),
  fc.constantFrom('?tool=dev&login=alice&password=secret-password', '?tool=%FF&login=%E0%A4%A', '?a=1&a=2&a[b]=3', '?password'),
  fc.string({ maxLength: 30 }).map((text) => `?${encodeURIComponent(text)}`),
);

const target = fc.tuple(route, query).map(([parts, search]) => `/${parts.join('/')}${search}`);

function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

const authorization = (secrets: Secrets) =>
  fc.option(
    fc.oneof(
      fc.constant(basic(secrets.login, secrets.password)),
      fc.constant(`Bearer ${secrets.adminToken}`),
      fc.constantFrom('Basic', 'Basic ', 'Basic !!!', 'Basic Og==', 'Bearer', 'Bearer x', 'Digest x', 'basic YTpi'),
      fc.tuple(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 })).map(([login, password]) => basic(login, password)),
      fc.constant(basic(`${'0'.repeat(31)}\u0000`, '0'.repeat(32))),
      fc.constant(`Basic ${Buffer.from('\u00ff\u00fe:\u0000').toString('base64')}`),
    ),
    { nil: undefined },
  );

const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/json; charset=latin1',
    'application/x-www-form-urlencoded',
    'application/x-ndjson',
    'text/csv',
    'text/xml; charset=utf-8',
    'application/soap+xml',
    'multipart/form-data; boundary=x',
    'garbage',
    '',
  ),
  { nil: undefined },
);

const accept = fc.option(fc.constantFrom('application/xml', 'application/json', 'text/html', '*/*', 'application/xml;q=0.1, application/json', ';;;'), {
  nil: undefined,
});

const deepJson = fc.integer({ min: 1, max: 3_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`);

const soapEnvelope = fc.tuple(fc.array(fc.string({ maxLength: 20 }), { maxLength: 4 }), fc.array(fc.string({ maxLength: 20 }), { maxLength: 4 })).map(
  ([questions, answers]) => {
    const items = (values: readonly string[]) =>
      values.map((value) => `<item xsi:type="xsd:string">${value.replace(/[<&]/g, '')}</item>`).join('');
    return (
      '<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ' +
      'xmlns:tns="urn:SampleWebservice"><soap:Body><tns:svcEval>' +
      `<question_texts>${items(questions)}</question_texts><answers>${items(answers)}</answers>` +
      '</tns:svcEval></soap:Body></soap:Envelope>'
    );
  },
);

const textBody = fc.oneof(
  fc.constant(''),
  fc.constantFrom('tool=dev&login=alice&password=secret-password', 'tool=dev&login=%00&password=x', '{"tool":"dev","login":"alice"', 'null', '[]', '"x"'),
  fc.json({ maxDepth: 4 }),
  deepJson,
  soapEnvelope,
  soapEnvelope.map((xml) => xml.slice(0, Math.floor(xml.length / 2))),
  fc.constant('<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>'),
  fc.constant('{"call_id":"c1","phone":"18005550100","started_at":"2018-02-01T10:00:00Z","log_events":1,"loops":0,"form_items":0}\n{"call_id":'),
  fc.string({ maxLength: 200 }),
);

/** A body and the Content-Encoding it claims: honest, lying, or truncated. */
const encodedBody = fc.tuple(textBody, fc.constantFrom('none', 'gzip', 'deflate', 'br', 'lie-gzip', 'truncated-gzip', 'x-squash')).map(
  ([text, encoding]): { body: Buffer; contentEncoding?: string } => {
    const bytes = Buffer.from(text, 'utf8');
    switch (encoding) {
      case 'gzip':
        return { body: gzipSync(bytes), contentEncoding: 'gzip' };
      case 'deflate':
        return { body: deflateSync(bytes), contentEncoding: 'deflate' };
      case 'br':
        return { body: brotliCompressSync(bytes), contentEncoding: 'br' };
      case 'lie-gzip':
        return { body: bytes, contentEncoding: 'gzip' };
      case 'truncated-gzip':
        return { body: gzipSync(bytes).subarray(0, 12), contentEncoding: 'gzip' };
      case 'x-squash':
        return { body: bytes, contentEncoding: 'x-squash' };
      default:
        return { body: bytes };
    }
  },
);

/** Extra headers: duplicated, huge, or odd. */
const oddHeaders = fc.array(
  fc.oneof(
    fc.constant(['Accept', 'application/xml'] as const),
    fc.constant(['Authorization', 'Basic Og=='] as const),
    fc.constant(['Content-Type', 'application/json'] as const),
    fc.constant(['SOAPAction', '"urn:SampleWebserviceAction"'] as const),
    fc.constant(['SOAPAction', '"urn:Other"'] as const),
    fc.constant(['Cookie', 'survey_session=%FF; survey_session=x'] as const),
    fc.constant(['X-Forwarded-For', '1.2.3.4, garbage'] as const),
    fc.constant(['X-Large', 'x'.repeat(8_000)] as const),
  ),
  { maxLength: 3 },
);

/** Any request a client, broken or hostile, might send to any route. */
export function anyRequest(secrets: Secrets): fc.Arbitrary<RawRequest> {
  return fc
    .record({
      method: fc.constantFrom(...METHODS),
      target,
      authorization: authorization(secrets),
      contentType,
      accept,
      encoded: encodedBody,
      extra: oddHeaders,
    })
    .map(({ method, target: path, authorization: auth, contentType: type, accept: acceptValue, encoded, extra }) => {
      const headers: [string, string][] = [];
      if (auth !== undefined) headers.push(['Authorization', auth]);
      if (type !== undefined) headers.push(['Content-Type', type]);
      if (acceptValue !== undefined) headers.push(['Accept', acceptValue]);
      if (encoded.contentEncoding !== undefined) headers.push(['Content-Encoding', encoded.contentEncoding]);
      headers.push(...extra.map(([name, value]) => [name, value] as [string, string]));
      return { method, target: path, headers, body: encoded.body };
    });
}

/** Mostly a good value, sometimes one of the odd path parts. */
const mostly = (good: fc.Arbitrary<string>) => fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: pathPart, weight: 1 });

const date = mostly(fc.date({ min: new Date('2017-01-01T00:00:00Z'), max: new Date('2019-12-31T00:00:00Z'), noInvalidDate: true }).map((day) => day.toISOString().slice(0, 10).replaceAll('-', '')));
const period = mostly(fc.constantFrom('day', 'week', 'month'));
const phone = mostly(fc.constantFrom('ALL', '18005550100', '+18005550100', '15550001', '15559999'));
const tool = mostly(fc.constantFrom('dev', 'fuse', 'insight', 'fuseplus'));
// Not alice, the account whose temporary credentials the requests carry: a new password would revoke them.
const login = mostly(fc.constantFrom('bob', 'acme'));
const oddValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ maxLength: 30 }), fc.constantFrom('', '\u0000', 'x'.repeat(2_000), '\ud800'));

const callLine = fc
  .record({
    call_id: fc.oneof(fc.uuid(), oddValue),
    phone: fc.oneof(fc.constantFrom('18005550100', '15550001', '15559999'), oddValue),
    started_at: fc.oneof(fc.constant('2018-02-07T10:15:00-05:00'), fc.date({ noInvalidDate: true }).map((day) => day.toISOString()), oddValue),
    log_events: fc.oneof(fc.nat(100), oddValue),
    loops: fc.oneof(fc.nat(10), oddValue),
    form_items: fc.oneof(fc.nat(10), oddValue),
  })
  .map((record) => JSON.stringify(record));

/** A request as a client that read the documentation sends it, with some part of it made odd. */
const FORM_BOUNDARY = 'fuzz-form-boundary';

/** The REST twin's multipart form: known and unknown fields, files named or not, sometimes cut short. */
const surveyForm = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom('question_texts[]', 'answers[]', 'answers', 'ani_ip', 'session_id', 'other', ''), fc.string({ maxLength: 20 })), { maxLength: 6 }),
    fc.array(fc.tuple(fc.constantFrom('file-1.wav', '', 'a"b', '../x'), fc.string({ maxLength: 40 })), { maxLength: 2 }),
    fc.boolean(),
  )
  .map(([fields, files, cutShort]) => {
    const parts = [
      ...fields.map(([name, value]) => `--${FORM_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
      ...files.map(
        ([name, content]) =>
          `--${FORM_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}"\r\nContent-Type: audio/wav\r\n\r\n${content}\r\n`,
      ),
    ];
    const body = `${parts.join('')}--${FORM_BOUNDARY}--\r\n`;
    return cutShort ? body.slice(0, Math.floor(body.length / 2)) : body;
  });

export function nearlyValidRequest(secrets: Secrets): fc.Arbitrary<RawRequest> {
  const basicAuth = ['Authorization', basic(secrets.login, secrets.password)] as const;
  const bearer = ['Authorization', `Bearer ${secrets.adminToken}`] as const;
  const json = ['Content-Type', 'application/json'] as const;
  const routes = fc.oneof(
    fc.tuple(fc.constantFrom('dev', 'fuse', 'x'), fc.oneof(fc.constant('alice'), oddValue.map(String)), fc.oneof(fc.constant('secret-password'), oddValue.map(String))).map(
      ([toolName, user, password]) => ({
        method: 'POST',
        target: '/api/auth',
        headers: [['Content-Type', 'application/x-www-form-urlencoded']] as [string, string][],
        body: new URLSearchParams({ tool: toolName, login: user, password }).toString(),
      }),
    ),
    fc.tuple(fc.constantFrom('events', 'volume', 'performance', 'profile'), date, date, period, phone).map(([resource, start, end, per, number]) => ({
      method: 'GET',
      target: `/api/${resource}/${start}/${end}/${per}/${number}`,
      headers: [[...basicAuth]] as [string, string][],
      body: '',
    })),
    fc.tuple(tool, login, fc.record({ password: oddValue, active: oddValue, timezone: fc.oneof(fc.constantFrom('UTC', 'America/New_York', 'Mars/Base'), oddValue) }, { requiredKeys: [] })).map(
      ([toolName, user, body]) => ({ method: 'PUT', target: `/admin/accounts/${toolName}/${user}`, headers: [[...bearer], [...json]] as [string, string][], body: JSON.stringify(body) }),
    ),
    fc.tuple(fc.constantFrom('PUT', 'DELETE'), tool, login, phone).map(([method, toolName, user, number]) => ({
      method,
      target: `/admin/accounts/${toolName}/${user}/phones/${number}`,
      headers: [[...bearer]] as [string, string][],
      body: '',
    })),
    fc.tuple(tool, login).map(([toolName, user]) => ({ method: 'DELETE', target: `/admin/accounts/${toolName}/${user}/credentials`, headers: [[...bearer]] as [string, string][], body: '' })),
    fc.tuple(fc.array(callLine, { maxLength: 5 }), fc.constantFrom('application/x-ndjson', 'application/json')).map(([lines, type]) => ({
      method: 'POST',
      target: '/admin/calls',
      headers: [[...bearer], ['Content-Type', type]] as [string, string][],
      body: type === 'application/json' ? `[${lines.join(',')}]` : lines.join('\n'),
    })),
    fc.tuple(soapEnvelope, fc.constantFrom('/survey', '/survey/', '/SURVEY', '/survey/plum', '/Survey/Plum/')).map(([xml, soapPath]) => ({
      method: 'POST',
      target: soapPath,
      headers: [['Content-Type', 'text/xml; charset=utf-8'], ['SOAPAction', '"urn:SampleWebserviceAction"']] as [string, string][],
      body: xml,
    })),
    surveyForm.map((form) => ({
      method: 'POST',
      target: '/survey/rest',
      headers: [['Content-Type', `multipart/form-data; boundary=${FORM_BOUNDARY}`]] as [string, string][],
      body: form,
    })),
  );
  return fc.tuple(routes, accept, oddHeaders).map(([built, acceptValue, extra]) => ({
    method: built.method,
    target: built.target,
    headers: [...built.headers, ...(acceptValue === undefined ? [] : [['Accept', acceptValue] as [string, string]]), ...extra.map(([name, value]) => [name, value] as [string, string])],
    body: Buffer.from(built.body, 'utf8'),
  }));
}
