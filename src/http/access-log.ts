import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { faultOf, type ConnectionFault } from './connection-faults/connection-faults';
import { ERROR_CODE_HEADER } from './representation';
import type { RequestStep } from './request-edge';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id, also sent back as X-Request-Id and named by every log line about the request. */
    id: string;
    /** When the access log began timing the request (ms since the epoch); set with the id. */
    receivedAt: number;
  }
}

/**
 * A query parameter whose name (in any case) holds one of these words carries a secret: POST /api/auth
 * takes the tool password from the query string (the reference documents it there), and clients put
 * tokens, keys and signatures there too (`?token=`, `access_token`, `api_key`, `client_secret`...). A name
 * that merely looks like one (`monkey`, `author`) is hidden too: a value hidden for nothing costs less
 * than a secret in the log. `sig` counts only as a whole word of the name (`sig`, `x_sig`), not in `design`.
 */
const SECRET_NAME = /passw(?:or)?d|pwd|token|key|secret|auth|signature|session|cookie|credential|(?:^|[-_.[])sig(?:$|[-_.\]])/i;
/** What a secret's value is logged as. */
export const HIDDEN = '[Redacted]';
const NO_QUERY: Readonly<Record<string, never>> = Object.freeze({});

/** Whether a query parameter of this name carries a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * The URL as a log line may show it: the value of every parameter of its query string that carries a
 * secret hidden, the rest as it was. The one way every log line shows a URL; one without a query string
 * is returned as it is.
 */
export function loggedUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const parameters = new URLSearchParams(url.slice(queryStart + 1));
  if (![...parameters.keys()].some(isSecretName)) return url;
  const shown = new URLSearchParams();
  for (const [name, value] of parameters) shown.append(name, isSecretName(name) ? HIDDEN : value);
  return `${url.slice(0, queryStart)}?${shown.toString()}`;
}

/** The parsed query with its secrets hidden: a copy, since the request's own is what the routes read. */
function loggedQuery(query: Record<string, unknown>): Record<string, unknown> {
  const names = Object.keys(query);
  if (!names.some(isSecretName)) return query;
  const copy = { ...query };
  for (const name of names) if (isSecretName(name)) copy[name] = HIDDEN;
  return copy;
}

/**
 * Chosen fields, not the request: no header is logged, so no credential or cookie can leak; a refusal's
 * catalogue code is. A request whose client left before its answer began has no status to log. The
 * secrets are hidden here rather than by pino's `redact`, which would walk every line the server logs;
 * a URL without a query string (every report's) skips the query parser.
 */
function accessLine(req: Request, res: Response, fault: ConnectionFault | undefined): Record<string, unknown> {
  const code = res.getHeader(ERROR_CODE_HEADER);
  const url = req.originalUrl;
  const withQuery = url.includes('?');
  return {
    req: {
      id: req.id,
      method: req.method,
      url: withQuery ? loggedUrl(url) : url,
      query: withQuery ? loggedQuery(req.query) : NO_QUERY,
      remoteAddress: req.socket.remoteAddress,
    },
    ...(res.headersSent ? { res: { statusCode: res.statusCode } } : {}),
    ...(code === undefined ? {} : { code }),
    ...(fault === undefined ? {} : { fault }),
    responseTime: Date.now() - req.receivedAt,
  };
}

/**
 * Gives each request its id (a UUID, sent back as X-Request-Id) and logs one line when its answer is
 * sent: `request completed` at info, or at warn for a 5xx (a SOAP fault is one, whoever was at fault:
 * causes are logged where they were caught); `request aborted` at warn when the client went away first;
 * `request faulted by a scenario` at info when a scenario's connection fault cut it short (every line of
 * an answer so faulted names the fault).
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
      const fault = faultOf(res);
      if (!finished && fault !== undefined) {
        // Cut short as a scenario asked: nothing went wrong here.
        if (logger.isLevelEnabled('info')) logger.info(accessLine(res.req, res, fault), 'request faulted by a scenario');
        return;
      }
      const level = finished && res.statusCode < 500 ? 'info' : 'warn';
      if (logger.isLevelEnabled(level)) logger[level](accessLine(res.req, res, fault), finished ? 'request completed' : 'request aborted');
    },
  };
}
