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
  if (typeof req.url === 'string' && req.url.includes('?')) {
    const [path, query] = [req.url.slice(0, req.url.indexOf('?')), req.url.slice(req.url.indexOf('?') + 1)];
    const parameters = new URLSearchParams(query);
    if (SECRET_QUERY_PARAMETERS.some((name) => parameters.has(name))) {
      for (const name of SECRET_QUERY_PARAMETERS) if (parameters.has(name)) parameters.set(name, HIDDEN);
      req.url = `${path}?${parameters.toString()}`;
    }
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
