/**
 * Every error the server reports, defined once: a stable code (for logs and tests), the HTTP status of
 * section 7 of the specification, and the message a person reads. Handlers throw or pass these; the
 * error handler alone turns them into a body.
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

/** How long a client is asked to wait before it tries again a request that a dependency's outage failed. */
const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** A place in a full line of password hashes frees every few tens of milliseconds: a second frees many. */
const LINE_FULL_RETRY_AFTER_SECONDS = 1;

/** Connections of a busy client end within seconds. */
const TOO_MANY_CONNECTIONS_RETRY_AFTER_SECONDS = 1;

/** How an answer names a dependency of the store (src/storage/dependency-error.ts's names). */
const DEPENDENCY_NAMES: Readonly<Record<string, string>> = { store: 'the database', redis: 'Redis' };

export const errors = {
  badRequest: (message: string) => new AppError('IVR_BAD_REQUEST', 400, message),
  invalidTool: () =>
    new AppError(
      'IVR_INVALID_TOOL',
      400,
      'Invalid tool parameter. Allowed values are: dev, fuse, insight, fuseplus',
    ),
  missingField: (field: string) => new AppError('IVR_MISSING_FIELD', 400, `${field} is required`),
  malformedBody: () => new AppError('IVR_MALFORMED_BODY', 400, 'request body could not be parsed'),
  bodyTooLarge: (limitBytes: number) =>
    new AppError('IVR_BODY_TOO_LARGE', 400, `request body is larger than ${limitBytes} bytes`),
  unsupportedCharset: (charset: string) =>
    new AppError('IVR_UNSUPPORTED_CHARSET', 400, `charset ${charset} is not supported; send the body in UTF-8`),
  unsupportedContentEncoding: (encoding: string) =>
    new AppError(
      'IVR_UNSUPPORTED_CONTENT_ENCODING',
      400,
      `Content-Encoding ${encoding} is not supported; send the body uncompressed, or as gzip, deflate or br`,
    ),
  tooManyParameters: () => new AppError('IVR_TOO_MANY_PARAMETERS', 400, 'request body has too many form fields'),
  corruptContentEncoding: (encoding: string) =>
    new AppError(
      'IVR_CORRUPT_CONTENT_ENCODING',
      400,
      `request body is not valid ${encoding} data, as its Content-Encoding says: it is corrupt or cut short`,
    ),
  bodyStalled: (seconds: number) =>
    new AppError('IVR_BODY_STALLED', 400, `the request body stopped arriving: nothing came for ${seconds} s`, { Connection: 'close' }),
  bodyTooSlow: (bytesPerSecond: number, windowSeconds: number) =>
    new AppError(
      'IVR_BODY_TOO_SLOW',
      408,
      `the request body arrives too slowly: less than ${bytesPerSecond} bytes/s over ${windowSeconds} s (MIN_BODY_RATE_BYTES_PER_SECOND)`,
      { Connection: 'close' },
    ),
  // Refused before any route, most by Node's HTTP parser (src/http/client-error.ts); the connection closes.
  malformedRequest: (reason: string) => new AppError('IVR_MALFORMED_REQUEST', 400, reason, { Connection: 'close' }),
  headersTooLarge: (limitBytes: number) =>
    new AppError('IVR_HEADERS_TOO_LARGE', 400, `the request headers are larger than ${limitBytes} bytes`, { Connection: 'close' }),
  tooManyHeaders: (most: number) =>
    new AppError('IVR_TOO_MANY_HEADERS', 400, `the request has more than ${most.toLocaleString('en-US')} headers`, { Connection: 'close' }),
  missingHost: () => new AppError('IVR_MISSING_HOST', 400, 'an HTTP/1.1 request must have a Host header', { Connection: 'close' }),
  headersStalled: (seconds: number) =>
    new AppError('IVR_HEADERS_STALLED', 400, `the request headers did not all arrive within ${seconds} s`, { Connection: 'close' }),
  unsupportedExpectation: (expect: string) =>
    new AppError('IVR_UNSUPPORTED_EXPECT', 400, `Expect: ${expect} is not supported; send the request without it, or with Expect: 100-continue`, {
      Connection: 'close',
    }),
  notAProxy: () =>
    new AppError('IVR_METHOD_NOT_ALLOWED', 405, 'CONNECT is not allowed: this server is not a proxy', {
      Allow: 'GET, HEAD, POST, PUT, DELETE',
      Connection: 'close',
    }),
  tooManyConnections: (most: number) =>
    new AppError(
      'IVR_TOO_MANY_CONNECTIONS',
      429,
      `too many connections from this address at once (MAX_CONNECTIONS_PER_ADDRESS, ${most}); close some, or retry after Retry-After`,
      { 'Retry-After': String(TOO_MANY_CONNECTIONS_RETRY_AFTER_SECONDS), Connection: 'close' },
    ),
  malformedPathPart: (part: string) =>
    new AppError('IVR_MALFORMED_PATH_PART', 400, `path part ${part} is not valid percent-encoded UTF-8`),
  // Every 401 carries a challenge (RFC 9110). The login is a form post, not Basic: a Basic challenge
  // here would make a browser ask for a password that /api/auth does not take that way.
  invalidLogin: (realm: string) =>
    new AppError('IVR_INVALID_LOGIN', 401, 'invalid login or password, or the account is inactive', {
      'WWW-Authenticate': `Form realm="${realm}"`,
    }),
  unauthorized: (realm: string) =>
    new AppError(
      'IVR_UNAUTHORIZED',
      401,
      'missing, invalid or expired credentials, or the account is inactive; authenticate at /api/auth',
      { 'WWW-Authenticate': `Basic realm="${realm}"` },
    ),
  notFound: (path: string) => new AppError('IVR_NOT_FOUND', 404, `no resource at ${path}`),
  methodNotAllowed: (method: string, allowed: readonly string[]) =>
    new AppError(
      'IVR_METHOD_NOT_ALLOWED',
      405,
      `method ${method} is not allowed here; use ${allowed.join(' or ')}`,
      { Allow: allowed.join(', ') },
    ),
  // The survey web service's cap (decisions.md: 413); the HTTP APIs answer bodyTooLarge instead.
  payloadTooLarge: (limitBytes: number) =>
    new AppError('IVR_PAYLOAD_TOO_LARGE', 413, `request body is larger than ${limitBytes} bytes`),
  rateLimited: () =>
    new AppError('IVR_RATE_LIMITED', 429, 'rate limit exceeded; retry after the time in Retry-After'),
  internal: () => new AppError('IVR_INTERNAL', 500, 'unknown error'),
  // More logins (or admin password changes) waiting for a password hash than PASSWORD_HASH_QUEUE.
  passwordHashLineFull: (mostWaiting: number) =>
    new AppError(
      'IVR_PASSWORD_HASH_LINE_FULL',
      503,
      `too many logins are waiting (PASSWORD_HASH_QUEUE, ${mostWaiting}); retry later`,
      { 'Retry-After': String(LINE_FULL_RETRY_AFTER_SECONDS) },
    ),
  // PostgreSQL or Redis failed to answer (down, frozen past DEPENDENCY_TIMEOUT_SECONDS, refusing
  // connections): worth retrying, unlike a bug's 500.
  dependencyUnavailable: (dependency: string, cause: unknown) =>
    new AppError(
      'IVR_DEPENDENCY_UNAVAILABLE',
      503,
      `${DEPENDENCY_NAMES[dependency] ?? dependency} is unavailable; retry later`,
      { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
      cause,
    ),
  // The survey web service: its REST twin answers these statuses as they are; the SOAP service sends
  // each as a SOAP 1.1 Fault (status 500, as the HTTP binding requires, unless the HTTP layer refused
  // the request), and survey/soap-fault.ts picks the faultcode from the status.
  invalidSurveyCall: (message: string) => new AppError('IVR_INVALID_SURVEY_CALL', 400, message),
  surveyLimitExceeded: (what: string, limit: number, variable: string) =>
    new AppError('IVR_SURVEY_LIMIT_EXCEEDED', 400, `${what} exceeds the limit of ${limit} (${variable})`),
  soapHeaderNotUnderstood: (header: string) =>
    new AppError(
      'IVR_SOAP_MUST_UNDERSTAND',
      500,
      `the SOAP header ${header} is marked mustUnderstand, and this service understands no SOAP headers`,
    ),
  surveyHandlerFailed: () =>
    new AppError('IVR_SURVEY_HANDLER_FAILED', 500, 'the survey handler failed; the server log has the cause'),
  // The admin API (/admin, on only when ADMIN_TOKEN is set).
  adminUnauthorized: (realm: string) =>
    new AppError('IVR_ADMIN_UNAUTHORIZED', 401, 'missing or wrong admin token; send Authorization: Bearer <ADMIN_TOKEN>', {
      'WWW-Authenticate': `Bearer realm="${realm}"`,
    }),
  // GET /metrics when METRICS_TOKEN is set.
  metricsUnauthorized: (realm: string) =>
    new AppError('IVR_METRICS_UNAUTHORIZED', 401, 'missing or wrong metrics token; send Authorization: Bearer <METRICS_TOKEN>', {
      'WWW-Authenticate': `Bearer realm="${realm}"`,
    }),
  accountNotFound: (tool: string, login: string) =>
    new AppError('IVR_ACCOUNT_NOT_FOUND', 404, `no account ${tool}/${login}`),
  phoneNotOnAccount: (phone: string, tool: string, login: string) =>
    new AppError('IVR_PHONE_NOT_ON_ACCOUNT', 404, `phone ${phone} is not on account ${tool}/${login}`),
  phoneOwnedByAnother: (phone: string) =>
    new AppError('IVR_PHONE_OWNED_BY_ANOTHER', 409, `phone ${phone} is on another account; release it there first`),
  unsupportedMediaType: (accepted: readonly string[]) =>
    new AppError('IVR_UNSUPPORTED_MEDIA_TYPE', 415, `send the body as ${accepted.join(' or ')} (Content-Type)`),
} as const;
