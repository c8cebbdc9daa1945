import pino, { type Logger, type LoggerOptions } from 'pino';

/** POST /api/auth takes the tool password from the query string too (the reference documents it there). */
const SECRET_QUERY_PARAMETERS = ['password'];
const HIDDEN = '[Redacted]';

/** Request logs carry headers and the query; credentials and session cookies in them must never reach a log. */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_QUERY_PARAMETERS.map((name) => `req.query.${name}`),
];

/** pino-http's request serializer step: hides the secrets in the URL's query string, which `redact` cannot reach. */
export function redactRequestUrl<T extends { url?: unknown }>(req: T): T {
  const queryStart = typeof req.url === 'string' ? req.url.indexOf('?') : -1;
  if (typeof req.url !== 'string' || queryStart === -1) return req;
  const parameters = new URLSearchParams(req.url.slice(queryStart + 1));
  const secrets = SECRET_QUERY_PARAMETERS.filter((name) => parameters.has(name));
  if (secrets.length === 0) return req;
  for (const name of secrets) parameters.set(name, HIDDEN);
  req.url = `${req.url.slice(0, queryStart)}?${parameters.toString()}`;
  return req;
}

/**
 * Structured JSON logs on standard output, written synchronously: pino's asynchronous default can put the
 * lines written just before an exit out of order, when a busy machine delays a pending write until after
 * the exit's own flush.
 */
export function createLogger(level: LoggerOptions['level'], destination?: pino.DestinationStream): Logger {
  return pino(
    { level, base: { service: 'ivr-reporting' }, redact: { paths: REDACTED, censor: HIDDEN } },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

type AnsweredResponse = { readonly statusCode: number; readonly err?: unknown };

/**
 * pino-http logs every 5xx as "request errored" with an Error it makes up ("failed with status code 500")
 * and that Error's stack. A 5xx the app answered on purpose (a SOAP fault, which the HTTP binding sends
 * as 500 even for the caller's mistake, or "unknown error", whose cause is logged where it was caught)
 * is no failure of the request: its access line is a plain "request completed", without the made-up stack.
 */
function madeUpError(res: AnsweredResponse, error: Error): boolean {
  return res.err === undefined && error.message === `failed with status code ${res.statusCode}`;
}

/** pino-http's customErrorObject. */
export function accessLogErrorFields(res: AnsweredResponse, error: Error, fields: Record<string, unknown>): Record<string, unknown> {
  return madeUpError(res, error) ? Object.fromEntries(Object.entries(fields).filter(([key]) => key !== 'err')) : fields;
}

/** pino-http's customErrorMessage. */
export function accessLogErrorMessage(res: AnsweredResponse, error: Error): string {
  return madeUpError(res, error) ? 'request completed' : 'request errored';
}
