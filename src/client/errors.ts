import type { ErrorBody } from './types';

/** A code of the server's catalogue (docs/errors.md), as its `X-Error-Code` header names it. */
export type ErrorCode =
  | 'IVR_INVALID_PARAMETER'
  | 'IVR_INVALID_TOOL'
  | 'IVR_MISSING_FIELD'
  | 'IVR_END_BEFORE_START'
  | 'IVR_RANGE_TOO_LONG'
  | 'IVR_PERIOD_BEFORE_EPOCH'
  | 'IVR_CLOCK_LIMIT'
  | 'IVR_PHONE_NOT_OWNED'
  | 'IVR_FLOW_TOO_LARGE'
  | 'IVR_INVALID_BODY'
  | 'IVR_MALFORMED_BODY'
  | 'IVR_BODY_TOO_LARGE'
  | 'IVR_UNSUPPORTED_CHARSET'
  | 'IVR_UNSUPPORTED_CONTENT_ENCODING'
  | 'IVR_CORRUPT_CONTENT_ENCODING'
  | 'IVR_TOO_MANY_PARAMETERS'
  | 'IVR_BODY_STALLED'
  | 'IVR_BODY_TOO_SLOW'
  | 'IVR_MALFORMED_REQUEST'
  | 'IVR_HEADERS_TOO_LARGE'
  | 'IVR_TOO_MANY_HEADERS'
  | 'IVR_MISSING_HOST'
  | 'IVR_HEADERS_STALLED'
  | 'IVR_UNSUPPORTED_EXPECT'
  | 'IVR_MALFORMED_PATH_PART'
  | 'IVR_INVALID_LOGIN'
  | 'IVR_UNAUTHORIZED'
  | 'IVR_ADMIN_UNAUTHORIZED'
  | 'IVR_METRICS_UNAUTHORIZED'
  | 'IVR_NOT_FOUND'
  | 'IVR_ACCOUNT_NOT_FOUND'
  | 'IVR_PHONE_NOT_ON_ACCOUNT'
  | 'IVR_SCENARIO_NOT_FOUND'
  | 'IVR_METHOD_NOT_ALLOWED'
  | 'IVR_PHONE_OWNED_BY_ANOTHER'
  | 'IVR_CLOCK_NOT_MOVABLE'
  | 'IVR_TOO_MANY_SCENARIOS'
  | 'IVR_SCENARIOS_OFF'
  | 'IVR_PAYLOAD_TOO_LARGE'
  | 'IVR_UNSUPPORTED_MEDIA_TYPE'
  | 'IVR_UNSUPPORTED_IMPORT_ENCODING'
  | 'IVR_RATE_LIMITED'
  | 'IVR_TOO_MANY_CONNECTIONS'
  | 'IVR_INTERNAL'
  | 'IVR_SURVEY_HANDLER_FAILED'
  | 'IVR_SURVEY_RESPONSE_TOO_LARGE'
  | 'IVR_SURVEY_STATE_TOO_LARGE'
  | 'IVR_SURVEY_CALLS_BUSY'
  | 'IVR_SURVEY_PATTERNS_BUSY'
  | 'IVR_PASSWORD_HASH_LINE_FULL'
  | 'IVR_TOO_MANY_STREAMS'
  | 'IVR_DEPENDENCY_UNAVAILABLE'
  | 'IVR_INVALID_SURVEY_CALL'
  | 'IVR_SURVEY_LIMIT_EXCEEDED'
  | 'IVR_MALFORMED_XML'
  | 'IVR_DOCTYPE_REFUSED'
  | 'IVR_INVALID_ENVELOPE'
  | 'IVR_UNKNOWN_OPERATION'
  | 'IVR_UNKNOWN_SOAP_ACTION'
  | 'IVR_SOAP_MUST_UNDERSTAND'
  | 'IVR_UNREADABLE_BODY'
  | 'IVR_INVALID_FORM';

/**
 * The code an answer carried: one of the catalogue's, or another string, since a server of another
 * version may answer with a code this client does not know. `Record<never, never>` keeps the catalogue's
 * codes offered by editors where a plain `string` would swallow them.
 */
export type AnsweredErrorCode = ErrorCode | (string & Record<never, never>);

/** Anything the client throws: an answer refusing the request, no answer at all, or one it cannot read. */
export class ReportingClientError extends Error {
  override readonly name: string = 'ReportingClientError';
}

/** What every refusal carries besides its message. */
export interface RefusalDetails {
  readonly status: number;
  readonly code: AnsweredErrorCode | undefined;
  readonly requestId: string | undefined;
  readonly url: string;
}

/** The server answered with an error status; `message` is the server's own. */
export class ApiError extends ReportingClientError {
  override readonly name: string = 'ApiError';
  readonly status: number;
  /** From `X-Error-Code`: stable where the message may change. Undefined when the answer had none (not from this server: a proxy). */
  readonly code: AnsweredErrorCode | undefined;
  /** From `X-Request-Id`: names the request in the server's log. */
  readonly requestId: string | undefined;
  readonly url: string;

  constructor(message: string, { status, code, requestId, url }: RefusalDetails) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.url = url;
  }
}

/** 400: a parameter the server refused; the message names it. */
export class InvalidRequestError extends ApiError {
  override readonly name: string = 'InvalidRequestError';
}

/**
 * 401: the tool account's login or password was refused (`IVR_INVALID_LOGIN`), or a data request was
 * refused again after the client had authenticated afresh (`IVR_UNAUTHORIZED`).
 */
export class UnauthorizedError extends ApiError {
  override readonly name: string = 'UnauthorizedError';
}

/** When the server said a refusal ends; both undefined when it said neither. */
export interface RetryTiming {
  readonly retryAfterSeconds: number | undefined;
  readonly resetAt: Date | undefined;
}

/** 429: past the rate limit, and the wait until the window ends is beyond the client's `maxRateLimitWaitMs`. */
export class RateLimitedError extends ApiError {
  override readonly name: string = 'RateLimitedError';
  /** From `Retry-After`, else from `X-RateLimit-Reset`. */
  readonly retryAfterSeconds: number | undefined;
  /** When the window ends and requests are counted afresh: from `X-RateLimit-Reset`, else from `Retry-After`. */
  readonly resetAt: Date | undefined;

  constructor(message: string, details: RefusalDetails, { retryAfterSeconds, resetAt }: RetryTiming) {
    super(message, details);
    this.retryAfterSeconds = retryAfterSeconds;
    this.resetAt = resetAt;
  }
}

/**
 * 500 and above: a failure the caller did not cause. With `retryAfterSeconds` when PostgreSQL or Redis
 * did not answer the server, which is worth retrying then; the client does not retry it itself.
 */
export class ServerError extends ApiError {
  override readonly name: string = 'ServerError';
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, details: RefusalDetails, retryAfterSeconds: number | undefined) {
    super(message, details);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** No answer: the server could not be reached, or the connection failed before the whole answer came. The cause is fetch's error. */
export class NetworkError extends ReportingClientError {
  override readonly name: string = 'NetworkError';

  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`no answer from ${url}: ${reasonOf(cause)}`, { cause });
  }
}

/** An answer of a success status that is not what this server sends (not JSON, or not the credentials): is `baseUrl` this server? */
export class UnexpectedResponseError extends ReportingClientError {
  override readonly name: string = 'UnexpectedResponseError';

  constructor(
    message: string,
    readonly status: number,
    readonly url: string,
  ) {
    super(message);
  }
}

/** fetch rejects with `TypeError: fetch failed`, the reason (ECONNREFUSED, ...) in its cause. */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** An error answer as it came: its status and headers, and its body as text. */
export interface ErrorAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  readonly body: string;
  readonly url: string;
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(?:#x([0-9a-f]+)|#([0-9]+)|(amp|lt|gt|quot|apos));/gi, (entity, hex?: string, decimal?: string, name?: string) => {
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16));
    if (decimal !== undefined) return String.fromCodePoint(parseInt(decimal, 10));
    return XML_ENTITIES[name?.toLowerCase() ?? ''] ?? entity;
  });
}

/** The server's message: `{"error": "..."}`, or `<result><error>...</error></result>` when XML was asked for. */
function messageOf({ headers, body }: ErrorAnswer): string | undefined {
  const type = headers.get('Content-Type') ?? '';
  if (type.includes('json')) {
    try {
      const parsed = JSON.parse(body) as Partial<ErrorBody> | null;
      return typeof parsed?.error === 'string' ? parsed.error : undefined;
    } catch {
      return undefined;
    }
  }
  if (type.includes('xml')) {
    const element = /<error>([^<]*)<\/error>/.exec(body);
    return element?.[1] === undefined ? undefined : unescapeXml(element[1]);
  }
  return undefined;
}

/** `Retry-After` in seconds: a number of seconds, or an HTTP date. */
function retryAfterOf(headers: ErrorAnswer['headers'], nowMs: number): number | undefined {
  const value = headers.get('Retry-After')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

function retryTimingOf(headers: ErrorAnswer['headers'], nowMs: number): RetryTiming {
  const retryAfterSeconds = retryAfterOf(headers, nowMs);
  const reset = headers.get('X-RateLimit-Reset')?.trim();
  const resetSecond = reset !== undefined && /^\d+$/.test(reset) ? Number(reset) : undefined;
  if (resetSecond !== undefined) {
    const resetAt = new Date(resetSecond * 1000);
    return { resetAt, retryAfterSeconds: retryAfterSeconds ?? Math.max(0, Math.ceil((resetAt.getTime() - nowMs) / 1000)) };
  }
  return { retryAfterSeconds, resetAt: retryAfterSeconds === undefined ? undefined : new Date(nowMs + retryAfterSeconds * 1000) };
}

/** The typed error of an error answer. `nowMs` places a relative `Retry-After` in time, and an absolute reset relative to now. */
export function errorOfAnswer(answer: ErrorAnswer, nowMs: number): ApiError {
  const { status, statusText, headers, url } = answer;
  const message = messageOf(answer) ?? `${status} ${statusText}`.trim();
  const details: RefusalDetails = {
    status,
    code: headers.get('X-Error-Code') ?? undefined,
    requestId: headers.get('X-Request-Id') ?? undefined,
    url,
  };
  if (status === 400) return new InvalidRequestError(message, details);
  if (status === 401) return new UnauthorizedError(message, details);
  if (status === 429) return new RateLimitedError(message, details, retryTimingOf(headers, nowMs));
  if (status >= 500) return new ServerError(message, details, retryAfterOf(headers, nowMs));
  return new ApiError(message, details);
}
