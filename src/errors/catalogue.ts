import { TOOLS, TOOLS_IN_WORDS } from '../domain/tool';
/**
 * Every error the server reports, defined once: a stable code (sent in X-Error-Code, logged, asserted by
 * tests), its HTTP status (specification.md §2.1 for the reporting API), and the message a person reads.
 * Handlers throw or pass these; the error handler alone turns them into a body.
 */
export class AppError extends Error {
  override readonly name = 'AppError';

  constructor(
    readonly code: string,
    readonly statusCode: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    /** What failed underneath, for the log; never sent. */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

interface CatalogueEntry {
  readonly status: number;
  /** When it is answered, for docs/errors.md. */
  readonly when: string;
}

/**
 * Every code the server answers with, its status and when: the factories below make errors of these,
 * docs/errors.md is written from this table (npm run docs:errors; a test keeps it in step), and the
 * OpenAPI document lists the codes as the values X-Error-Code takes.
 */
export const ERROR_CODES = {
  IVR_INVALID_PARAMETER: { status: 400, when: 'a path, query or body field is malformed or out of range (the message names it)' },
  IVR_INVALID_TOOL: { status: 400, when: `POST /api/auth names a tool other than ${TOOLS_IN_WORDS}` },
  IVR_MISSING_FIELD: { status: 400, when: 'a required field is absent (tool, login, password; a new account\'s password)' },
  IVR_END_BEFORE_START: { status: 400, when: 'a report\'s end date is earlier than its start date' },
  IVR_RANGE_TOO_LONG: { status: 400, when: 'a report\'s range covers more days than MAX_RANGE_DAYS' },
  IVR_PERIOD_BEFORE_EPOCH: { status: 400, when: 'a report\'s first day, week or month starts before 1970-01-01T00:00:00Z in the account\'s time zone, so that its key in Unix seconds would be negative (the message names the earliest start accepted)' },
  IVR_CLOCK_LIMIT: { status: 400, when: 'POST /admin/clock would move the sandbox clock more than a hundred years ahead in all (the message says how far it may still move)' },
  IVR_PHONE_NOT_OWNED: { status: 400, when: 'a report asks for a number that is not on the authenticated account' },
  IVR_FLOW_TOO_LARGE: { status: 400, when: 'the diagnostic flow of the range would hold more than 10,000 form items' },
  IVR_INVALID_BODY: { status: 400, when: 'a JSON body is not of the shape the route takes (an object for /api/auth, an array of records for /admin/calls)' },
  IVR_MALFORMED_BODY: { status: 400, when: 'the body cannot be parsed as its Content-Type says' },
  IVR_BODY_TOO_LARGE: { status: 400, when: 'a body of the reporting or admin API is over its size limit' },
  IVR_UNSUPPORTED_CHARSET: { status: 400, when: 'the body\'s charset is not UTF-8' },
  IVR_UNSUPPORTED_CONTENT_ENCODING: { status: 400, when: 'the body\'s Content-Encoding is not identity, gzip, deflate or br' },
  IVR_CORRUPT_CONTENT_ENCODING: { status: 400, when: 'the compressed body is corrupt or cut short' },
  IVR_TOO_MANY_PARAMETERS: { status: 400, when: 'a form body has more than 1,000 fields' },
  IVR_BODY_STALLED: { status: 400, when: 'nothing of the body came for REQUEST_IDLE_TIMEOUT_SECONDS; the connection is closed' },
  IVR_BODY_TOO_SLOW: { status: 408, when: 'the body came slower than MIN_BODY_RATE_BYTES_PER_SECOND over a window (400 on the reporting API); the connection is closed' },
  IVR_MALFORMED_REQUEST: { status: 400, when: 'Node\'s HTTP parser refused the request (a method or header line that is not HTTP); the connection is closed' },
  IVR_HEADERS_TOO_LARGE: { status: 400, when: 'the request headers are over 16 KiB; the connection is closed' },
  IVR_TOO_MANY_HEADERS: { status: 400, when: 'the request has more than 2,000 headers; the connection is closed' },
  IVR_MISSING_HOST: { status: 400, when: 'an HTTP/1.1 request has no Host header; the connection is closed' },
  IVR_HEADERS_STALLED: { status: 400, when: 'the request headers did not all arrive within REQUEST_IDLE_TIMEOUT_SECONDS; the connection is closed' },
  IVR_UNSUPPORTED_EXPECT: { status: 400, when: 'the request has an Expect other than 100-continue' },
  IVR_MALFORMED_PATH_PART: { status: 400, when: 'a path part is not valid percent-encoded UTF-8' },
  IVR_INVALID_LOGIN: { status: 401, when: 'POST /api/auth with an unknown login, a wrong password or an inactive account' },
  IVR_UNAUTHORIZED: { status: 401, when: 'a raw-data resource without valid temporary credentials, or for an inactive account' },
  IVR_ADMIN_UNAUTHORIZED: { status: 401, when: 'the admin API without the right Bearer ADMIN_TOKEN' },
  IVR_METRICS_UNAUTHORIZED: { status: 401, when: 'GET /metrics without the right Bearer METRICS_TOKEN' },
  IVR_NOT_FOUND: { status: 404, when: 'no route has the path' },
  IVR_ACCOUNT_NOT_FOUND: { status: 404, when: 'the admin API names an account that does not exist' },
  IVR_PHONE_NOT_ON_ACCOUNT: { status: 404, when: 'the admin API releases a number the account does not have' },
  IVR_SCENARIO_NOT_FOUND: { status: 404, when: 'the admin API names a scenario that does not exist (or was removed)' },
  IVR_METHOD_NOT_ALLOWED: { status: 405, when: 'the path does not take the method (Allow says which it takes), or CONNECT' },
  IVR_PHONE_OWNED_BY_ANOTHER: { status: 409, when: 'the admin API assigns a number that another account has' },
  IVR_CLOCK_NOT_MOVABLE: { status: 409, when: 'POST /admin/clock on a server started without SANDBOX_CLOCK=true' },
  IVR_TOO_MANY_SCENARIOS: { status: 409, when: 'POST /admin/scenarios while SANDBOX_MAX_SCENARIOS scenarios have answers left' },
  IVR_SCENARIOS_OFF: { status: 409, when: 'POST /admin/scenarios on a server started with SANDBOX_SCENARIOS=false, or with NODE_ENV=production without SANDBOX_SCENARIOS=true' },
  IVR_PAYLOAD_TOO_LARGE: { status: 413, when: 'a survey call\'s body is over SOAP_MAX_BYTES' },
  IVR_UNSUPPORTED_MEDIA_TYPE: { status: 415, when: 'the body\'s Content-Type is not one the route takes' },
  IVR_UNSUPPORTED_IMPORT_ENCODING: { status: 415, when: 'POST /admin/calls with a Content-Encoding other than identity: the import takes its body uncompressed' },
  IVR_RATE_LIMITED: { status: 429, when: 'past a rate limit\'s window (Retry-After says when it ends)' },
  IVR_TOO_MANY_CONNECTIONS: { status: 429, when: 'the client address has MAX_CONNECTIONS_PER_ADDRESS connections open already; answered before the request is read' },
  IVR_INTERNAL: { status: 500, when: 'a failure the caller did not cause: unknown error, its cause in the log' },
  IVR_SURVEY_HANDLER_FAILED: { status: 500, when: 'the survey handler threw, timed out or returned what cannot be sent' },
  IVR_SURVEY_RESPONSE_TOO_LARGE: { status: 500, when: 'the survey handler returned a response of more than SOAP_MAX_BYTES bytes in UTF-8' },
  IVR_SURVEY_STATE_TOO_LARGE: { status: 500, when: 'the survey handler returned a state whose JSON is more than SURVEY_MAX_STATE_BYTES bytes in UTF-8' },
  IVR_SURVEY_CALLS_BUSY: { status: 503, when: 'the survey calls being read or answered hold SURVEY_MAX_BYTES_HELD bytes of bodies already; Retry-After' },
  IVR_SURVEY_PATTERNS_BUSY: { status: 503, when: 'a call\'s long texts would wait for the pattern worker behind more than it queues (32 texts or 64 Mi characters); Retry-After' },
  IVR_PASSWORD_HASH_LINE_FULL: { status: 503, when: 'more logins wait for a password hash than PASSWORD_HASH_QUEUE (500 with Retry-After on the reporting API)' },
  IVR_TOO_MANY_STREAMS: { status: 503, when: 'GET /admin/survey/calls/stream while as many streams are open as the server allows (Retry-After)' },
  IVR_DEPENDENCY_UNAVAILABLE: { status: 503, when: 'PostgreSQL or Redis did not answer (500 with Retry-After on the reporting API, a soap:Server fault on the SOAP service)' },
  IVR_INVALID_SURVEY_CALL: { status: 400, when: 'a survey call\'s parts break a rule of the call (arrays of different lengths, a missing part)' },
  IVR_SURVEY_LIMIT_EXCEEDED: { status: 400, when: 'a survey call is beyond a SURVEY_MAX_* bound' },
  IVR_MALFORMED_XML: { status: 400, when: 'a SOAP body is not well-formed XML' },
  IVR_DOCTYPE_REFUSED: { status: 400, when: 'a SOAP body declares a document type or entities' },
  IVR_INVALID_ENVELOPE: { status: 400, when: 'a SOAP body is not one SOAP 1.1 envelope of one call as the WSDL describes it' },
  IVR_UNKNOWN_OPERATION: { status: 400, when: 'a SOAP call names an operation other than svcEval or plumEval' },
  IVR_UNKNOWN_SOAP_ACTION: { status: 400, when: 'a SOAP call\'s SOAPAction is not the service\'s' },
  IVR_SOAP_MUST_UNDERSTAND: { status: 500, when: 'a SOAP header for this service is marked mustUnderstand' },
  IVR_UNREADABLE_BODY: { status: 400, when: 'a survey call\'s body cannot be read: truncated, not valid in its charset, or not as its Content-Encoding says' },
  IVR_INVALID_FORM: { status: 400, when: 'a REST twin form breaks a rule of the form (a field twice, mixed item names, a malformed part)' },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

function make(code: ErrorCode, message: string, headers: Readonly<Record<string, string>> = {}, cause?: unknown): AppError {
  return new AppError(code, ERROR_CODES[code].status, message, headers, cause);
}

/** How long a client is asked to wait before it tries again a request that a dependency's outage failed. */
const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** A place in a full line of password hashes frees every few tens of milliseconds: a second frees many. */
const LINE_FULL_RETRY_AFTER_SECONDS = 1;

/** Connections of a busy client end within seconds. */
const TOO_MANY_CONNECTIONS_RETRY_AFTER_SECONDS = 1;

/** How an answer names a dependency of the store (src/storage/dependency-error.ts's names). */
const DEPENDENCY_NAMES: Readonly<Record<string, string>> = { store: 'the database', redis: 'Redis' };

export const errors = {
  invalidParameter: (message: string) => make('IVR_INVALID_PARAMETER', message),
  invalidBody: (message: string) => make('IVR_INVALID_BODY', message),
  endBeforeStart: (start: string, end: string) => make('IVR_END_BEFORE_START', `end ${end} is earlier than start ${start}`),
  rangeTooLong: (days: number, maxDays: number) =>
    make('IVR_RANGE_TOO_LONG', `the range covers ${days} days; at most ${maxDays} days can be asked for at once`),
  periodBeforeEpoch: (start: string, period: string, timeZone: string, earliest: string) =>
    make(
      'IVR_PERIOD_BEFORE_EPOCH',
      `start ${start}: its ${period} starts before 1970-01-01T00:00:00Z in ${timeZone}, and a period is keyed by the Unix second it starts at; ` +
        `the earliest start for ${period} periods is ${earliest}`,
    ),
  phoneNotOwned: (phone: string) => make('IVR_PHONE_NOT_OWNED', `phone ${phone} is not on this account`),
  flowTooLarge: (mostEntries: number) =>
    make(
      'IVR_FLOW_TOO_LARGE',
      `the range holds more than ${mostEntries} form items, the most the diagnostic flow reports at once: ask for a shorter range or one number`,
    ),
  invalidTool: () =>
    make('IVR_INVALID_TOOL', `Invalid tool parameter. Allowed values are: ${TOOLS.join(', ')}`),
  missingField: (field: string) => make('IVR_MISSING_FIELD', `${field} is required`),
  malformedBody: () => make('IVR_MALFORMED_BODY', 'request body could not be parsed'),
  bodyTooLarge: (limitBytes: number) =>
    make('IVR_BODY_TOO_LARGE', `request body is larger than ${limitBytes} bytes`),
  unsupportedCharset: (charset: string) =>
    make('IVR_UNSUPPORTED_CHARSET', `charset ${charset} is not supported; send the body in UTF-8`),
  unsupportedContentEncoding: (encoding: string) =>
    make('IVR_UNSUPPORTED_CONTENT_ENCODING', `Content-Encoding ${encoding} is not supported; send the body uncompressed, or as gzip, deflate or br`),
  tooManyParameters: () => make('IVR_TOO_MANY_PARAMETERS', 'request body has too many form fields'),
  corruptContentEncoding: (encoding: string) =>
    make('IVR_CORRUPT_CONTENT_ENCODING', `request body is not valid ${encoding} data, as its Content-Encoding says: it is corrupt or cut short`),
  bodyStalled: (seconds: number) =>
    make('IVR_BODY_STALLED', `the request body stopped arriving: nothing came for ${seconds} s`, { Connection: 'close' }),
  bodyTooSlow: (bytesPerSecond: number, windowSeconds: number) =>
    make('IVR_BODY_TOO_SLOW', `the request body arrives too slowly: less than ${bytesPerSecond} bytes/s over ${windowSeconds} s (MIN_BODY_RATE_BYTES_PER_SECOND)`,
      { Connection: 'close' },
    ),
  // Refused before any route, most by Node's HTTP parser (src/http/client-error.ts); the connection closes.
  malformedRequest: (reason: string) => make('IVR_MALFORMED_REQUEST', reason, { Connection: 'close' }),
  headersTooLarge: (limitBytes: number) =>
    make('IVR_HEADERS_TOO_LARGE', `the request headers are larger than ${limitBytes} bytes`, { Connection: 'close' }),
  tooManyHeaders: (most: number) =>
    make('IVR_TOO_MANY_HEADERS', `the request has more than ${most.toLocaleString('en-US')} headers`, { Connection: 'close' }),
  missingHost: () => make('IVR_MISSING_HOST', 'an HTTP/1.1 request must have a Host header', { Connection: 'close' }),
  headersStalled: (seconds: number) =>
    make('IVR_HEADERS_STALLED', `the request headers did not all arrive within ${seconds} s`, { Connection: 'close' }),
  unsupportedExpectation: (expect: string) =>
    make('IVR_UNSUPPORTED_EXPECT', `Expect: ${expect} is not supported; send the request without it, or with Expect: 100-continue`, {
      Connection: 'close',
    }),
  notAProxy: () =>
    make('IVR_METHOD_NOT_ALLOWED', 'CONNECT is not allowed: this server is not a proxy', {
      Allow: 'GET, HEAD, POST, PUT, DELETE',
      Connection: 'close',
    }),
  tooManyConnections: (most: number) =>
    make('IVR_TOO_MANY_CONNECTIONS', `too many connections from this address at once (MAX_CONNECTIONS_PER_ADDRESS, ${most}); close some, or retry after Retry-After`,
      { 'Retry-After': String(TOO_MANY_CONNECTIONS_RETRY_AFTER_SECONDS), Connection: 'close' },
    ),
  malformedPathPart: (part: string) =>
    make('IVR_MALFORMED_PATH_PART', `path part ${part} is not valid percent-encoded UTF-8`),
  // Every 401 carries a challenge (RFC 9110). The login is a form post, not Basic: a Basic challenge
  // here would make a browser ask for a password that /api/auth does not take that way.
  invalidLogin: (realm: string) =>
    make('IVR_INVALID_LOGIN', 'invalid login or password, or the account is inactive', {
      'WWW-Authenticate': `Form realm="${realm}"`,
    }),
  unauthorized: (realm: string) =>
    make('IVR_UNAUTHORIZED', 'missing, invalid or expired credentials, or the account is inactive; authenticate at /api/auth',
      { 'WWW-Authenticate': `Basic realm="${realm}"` },
    ),
  notFound: (path: string) => make('IVR_NOT_FOUND', `no resource at ${path}`),
  methodNotAllowed: (method: string, allowed: readonly string[]) =>
    make('IVR_METHOD_NOT_ALLOWED', `method ${method} is not allowed here; use ${allowed.join(' or ')}`,
      { Allow: allowed.join(', ') },
    ),
  // The survey web service's cap (specification.md §3.1: 413); the HTTP APIs answer bodyTooLarge instead.
  payloadTooLarge: (limitBytes: number) =>
    make('IVR_PAYLOAD_TOO_LARGE', `request body is larger than ${limitBytes} bytes`),
  rateLimited: () =>
    make('IVR_RATE_LIMITED', 'rate limit exceeded; retry after the time in Retry-After'),
  internal: () => make('IVR_INTERNAL', 'unknown error'),
  // More logins (or admin password changes) waiting for a password hash than PASSWORD_HASH_QUEUE.
  passwordHashLineFull: (mostWaiting: number) =>
    make('IVR_PASSWORD_HASH_LINE_FULL', `too many logins are waiting (PASSWORD_HASH_QUEUE, ${mostWaiting}); retry later`,
      { 'Retry-After': String(LINE_FULL_RETRY_AFTER_SECONDS) },
    ),
  // PostgreSQL or Redis failed to answer (down, frozen past DEPENDENCY_TIMEOUT_SECONDS, refusing
  // connections): worth retrying, unlike a bug's 500.
  dependencyUnavailable: (dependency: string, cause: unknown) =>
    make('IVR_DEPENDENCY_UNAVAILABLE', `${DEPENDENCY_NAMES[dependency] ?? dependency} is unavailable; retry later`,
      { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
      cause,
    ),
  // The survey web service: its REST twin answers these statuses as they are; the SOAP service sends
  // each as a SOAP 1.1 Fault (status 500, as the HTTP binding requires, unless the HTTP layer refused
  // the request), and survey/soap/soap-fault.ts picks the faultcode from the status.
  invalidSurveyCall: (message: string) => make('IVR_INVALID_SURVEY_CALL', message),
  malformedXml: (detail: string) => make('IVR_MALFORMED_XML', `the request is not well-formed XML: ${detail}`),
  doctypeRefused: () => make('IVR_DOCTYPE_REFUSED', 'document type and entity declarations are not accepted'),
  invalidEnvelope: (message: string) => make('IVR_INVALID_ENVELOPE', message),
  unknownOperation: (operation: string, answered: readonly string[]) =>
    make('IVR_UNKNOWN_OPERATION', `unknown operation ${operation}; this service answers ${answered.join(' and ')}`),
  unknownSoapAction: (action: string, answered: string) =>
    make('IVR_UNKNOWN_SOAP_ACTION', `unknown SOAPAction ${action}; this service answers ${answered}`),
  unsupportedSurveyEncoding: () =>
    make('IVR_UNSUPPORTED_CONTENT_ENCODING', 'this Content-Encoding is not supported; send identity, gzip, deflate or br'),
  unsupportedSurveyCharset: (charset: string) => make('IVR_UNSUPPORTED_CHARSET', `charset ${charset} is not supported; send UTF-8`),
  unreadableBody: (message: string) => make('IVR_UNREADABLE_BODY', message),
  invalidForm: (message: string) => make('IVR_INVALID_FORM', message),
  surveyLimitExceeded: (what: string, limit: number, variable: string) =>
    make('IVR_SURVEY_LIMIT_EXCEEDED', `${what} exceeds the limit of ${limit} (${variable})`),
  soapHeaderNotUnderstood: (header: string) =>
    make('IVR_SOAP_MUST_UNDERSTAND', `the SOAP header ${header} is marked mustUnderstand, and this service understands no SOAP headers`),
  surveyHandlerFailed: () =>
    make('IVR_SURVEY_HANDLER_FAILED', 'the survey handler failed; the server log has the cause'),
  // A handler's answer and state are the survey builder's code's, but their size is bounded like a call's.
  surveyResponseTooLarge: (limitBytes: number) =>
    make('IVR_SURVEY_RESPONSE_TOO_LARGE', `the survey handler returned a response larger than ${limitBytes} bytes (SOAP_MAX_BYTES)`),
  surveyStateTooLarge: (limitBytes: number) =>
    make('IVR_SURVEY_STATE_TOO_LARGE', `the survey handler returned a state larger than ${limitBytes} bytes as JSON (SURVEY_MAX_STATE_BYTES)`),
  surveyCallsBusy: (maxBytes: number) =>
    make('IVR_SURVEY_CALLS_BUSY', `the survey calls under way hold ${maxBytes} bytes already (SURVEY_MAX_BYTES_HELD); retry after Retry-After`,
      { 'Retry-After': String(LINE_FULL_RETRY_AFTER_SECONDS) },
    ),
  surveyPatternsBusy: (maxWaiting: number, maxWaitingCharacters: number) =>
    make('IVR_SURVEY_PATTERNS_BUSY', `too many long answers wait to be matched against the rules' patterns (at most ${maxWaiting} texts, ${maxWaitingCharacters} characters); retry after Retry-After`,
      { 'Retry-After': String(LINE_FULL_RETRY_AFTER_SECONDS) },
    ),
  // The admin API (/admin, on only when ADMIN_TOKEN is set).
  adminUnauthorized: (realm: string) =>
    make('IVR_ADMIN_UNAUTHORIZED', 'missing or wrong admin token; send Authorization: Bearer <ADMIN_TOKEN>', {
      'WWW-Authenticate': `Bearer realm="${realm}"`,
    }),
  // GET /metrics when METRICS_TOKEN is set.
  metricsUnauthorized: (realm: string) =>
    make('IVR_METRICS_UNAUTHORIZED', 'missing or wrong metrics token; send Authorization: Bearer <METRICS_TOKEN>', {
      'WWW-Authenticate': `Bearer realm="${realm}"`,
    }),
  accountNotFound: (tool: string, login: string) =>
    make('IVR_ACCOUNT_NOT_FOUND', `no account ${tool}/${login}`),
  phoneNotOnAccount: (phone: string, tool: string, login: string) =>
    make('IVR_PHONE_NOT_ON_ACCOUNT', `phone ${phone} is not on account ${tool}/${login}`),
  phoneOwnedByAnother: (phone: string) =>
    make('IVR_PHONE_OWNED_BY_ANOTHER', `phone ${phone} is on another account; release it there first`),
  tooManyStreams: (most: number) =>
    make('IVR_TOO_MANY_STREAMS', `${most} streams of the call inspector are open already, the most at once; close one, or retry after Retry-After`, {
      'Retry-After': '5',
    }),
  clockNotMovable: () =>
    make('IVR_CLOCK_NOT_MOVABLE', "this server's clock does not move: start it with SANDBOX_CLOCK=true to move it forward"),
  clockLimit: (seconds: number, mostSeconds: number, secondsLeft: number) =>
    make(
      'IVR_CLOCK_LIMIT',
      `advance_seconds: ${seconds} would move the clock past its limit of ${mostSeconds} seconds (a hundred years) ahead in all: ` +
        `it may still move ${secondsLeft} seconds`,
    ),
  scenarioNotFound: (id: string) => make('IVR_SCENARIO_NOT_FOUND', `no scenario ${id}`),
  scenariosOff: () =>
    make('IVR_SCENARIOS_OFF', 'scenarios are off on this server: start it with SANDBOX_SCENARIOS=true (the default, but with NODE_ENV=production) to add them'),
  tooManyScenarios: (mostActive: number) =>
    make(
      'IVR_TOO_MANY_SCENARIOS',
      `${mostActive} scenarios have answers left, the most SANDBOX_MAX_SCENARIOS allows: delete some ` +
        '(DELETE /admin/scenarios/{id}, or DELETE /admin/scenarios for all) before adding another',
    ),
  unsupportedImportEncoding: () =>
    make(
      'IVR_UNSUPPORTED_IMPORT_ENCODING',
      'POST /admin/calls takes its body uncompressed: send it without Content-Encoding (or with Content-Encoding: identity)',
      { 'Accept-Encoding': 'identity' },
    ),
  unsupportedMediaType: (accepted: readonly string[]) =>
    make('IVR_UNSUPPORTED_MEDIA_TYPE', `send the body as ${accepted.join(' or ')} (Content-Type)`),
} as const;
