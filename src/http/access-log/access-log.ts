import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { ERROR_CODE_HEADER } from '../representation/representation';
import type { RequestStep } from '../request-edge/request-edge';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id, also sent back as X-Request-Id and named by every log line about the request. */
    id: string;
    /** When the access log began timing the request (ms since the epoch); set with the id. */
    receivedAt: number;
  }
}

/** POST /api/auth takes the tool password from the query string too (the reference documents it there). */
const SECRET_QUERY_PARAMETERS = ['password'];
const HIDDEN = '[Redacted]';
const NO_QUERY: Readonly<Record<string, never>> = Object.freeze({});

/** Hides the secrets in a URL's query string. */
function loggedUrl(url: string, queryStart: number): string {
  const parameters = new URLSearchParams(url.slice(queryStart + 1));
  const secrets = SECRET_QUERY_PARAMETERS.filter((name) => parameters.has(name));
  if (secrets.length === 0) return url;
  for (const name of secrets) parameters.set(name, HIDDEN);
  return `${url.slice(0, queryStart)}?${parameters.toString()}`;
}

/** The parsed query with its secrets hidden: a copy, since the request's own is what the routes read. */
function loggedQuery(query: Record<string, unknown>): Record<string, unknown> {
  if (!SECRET_QUERY_PARAMETERS.some((name) => name in query)) return query;
  const copy = { ...query };
  for (const name of SECRET_QUERY_PARAMETERS) if (name in copy) copy[name] = HIDDEN;
  return copy;
}

/**
 * Chosen fields, not the request: no header is logged, so no credential or cookie can leak; a refusal's
 * catalogue code is. A request whose client left before its answer began has no status to log. The
 * secrets are hidden here rather than by pino's `redact`, which would walk every line the server logs;
 * a URL without a query string (every report's) skips the query parser.
 */
function accessLine(req: Request, res: Response): Record<string, unknown> {
  const code = res.getHeader(ERROR_CODE_HEADER);
  const url = req.originalUrl;
  const queryStart = url.indexOf('?');
  return {
    req: {
      id: req.id,
      method: req.method,
      url: queryStart === -1 ? url : loggedUrl(url, queryStart),
      query: queryStart === -1 ? NO_QUERY : loggedQuery(req.query),
      remoteAddress: req.socket.remoteAddress,
    },
    ...(res.headersSent ? { res: { statusCode: res.statusCode } } : {}),
    ...(code === undefined ? {} : { code }),
    responseTime: Date.now() - req.receivedAt,
  };
}

/**
 * Gives each request its id (a UUID, sent back as X-Request-Id) and logs one line when its answer is
 * sent: `request completed` at info, or at warn for a 5xx (a SOAP fault is one, whoever was at fault:
 * causes are logged where they were caught); `request aborted` at warn when the client went away first.
 * The line is built only when the logger would write it; a logger that writes neither level costs a
 * UUID per request. The requests `unlogged` names (the probes') get neither an id nor a line.
 */
export function accessLog(logger: Logger, unlogged: (req: Request) => boolean): RequestStep {
  return {
    arrived: (req, res) => {
      if (unlogged(req)) return;
      req.id = randomUUID();
      res.setHeader('X-Request-Id', req.id);
      req.receivedAt = Date.now();
    },
    closed: (res) => {
      // The type says otherwise for the routes' sake, but `unlogged` requests have no id.
      if ((res.req.id as string | undefined) === undefined) return;
      const finished = res.writableFinished;
      const level = finished && res.statusCode < 500 ? 'info' : 'warn';
      if (logger.isLevelEnabled(level)) logger[level](accessLine(res.req, res), finished ? 'request completed' : 'request aborted');
    },
  };
}
