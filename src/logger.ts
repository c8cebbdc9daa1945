import pino, { type Logger, type LoggerOptions } from 'pino';

/** Request logs carry headers; credentials and session cookies in them must never reach a log. */
const REDACTED = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

/** POST /api/auth takes the tool password from the query string too (the reference documents it there). */
const SECRET_QUERY_PARAMETERS = ['password'];
const HIDDEN = '[Redacted]';

interface SerializedRequest {
  url?: unknown;
  query?: unknown;
}

/** pino-http's request serializer step: hides secrets in the URL's query string and in the parsed query. */
export function redactRequestQuery<T extends SerializedRequest>(req: T): T {
  const queryStart = typeof req.url === 'string' ? req.url.indexOf('?') : -1;
  if (typeof req.url === 'string' && queryStart !== -1) {
    const parameters = new URLSearchParams(req.url.slice(queryStart + 1));
    const secrets = SECRET_QUERY_PARAMETERS.filter((name) => parameters.has(name));
    for (const name of secrets) parameters.set(name, HIDDEN);
    if (secrets.length > 0) req.url = `${req.url.slice(0, queryStart)}?${parameters.toString()}`;
  }
  if (typeof req.query === 'object' && req.query !== null) {
    const query = req.query as Record<string, unknown>;
    if (SECRET_QUERY_PARAMETERS.some((name) => name in query)) {
      req.query = Object.fromEntries(
        Object.entries(query).map(([name, value]) => [name, SECRET_QUERY_PARAMETERS.includes(name) ? HIDDEN : value]),
      );
    }
  }
  return req;
}

/** Structured JSON logs on standard output. */
export function createLogger(level: LoggerOptions['level'], destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { service: 'ivr-reporting' }, redact: REDACTED }, destination ?? pino.destination(1));
}
