import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { AppError, errors } from '../errors/catalogue';
import { unavailableDependency } from '../storage/dependency-error';
import { renderError } from './representation';
import { wasAnsweredAsStalled } from './connection-guards/stalled-body';
import { ConnectionDropped } from './connection-faults/connection-faults';

interface HttpParserError {
  type?: unknown;
  status?: unknown;
  limit?: unknown;
  charset?: unknown;
  encoding?: unknown;
  code?: unknown;
}

/** zlib's error codes (Z_DATA_ERROR, Z_BUF_ERROR, ...) and Brotli's (ERR__ERROR_FORMAT_...). */
const DECOMPRESSION_ERROR = /^(Z_|ERR__)/;

/** An error of Node's zlib streams: corrupt, truncated or mislabelled compressed data. */
export function isDecompressionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DECOMPRESSION_ERROR.test(code);
}

/**
 * Errors raised by Express's own body parsers, mapped onto the catalogue. The parsers answer some with
 * 413 or 415; the reporting API's statuses (specification.md §2.1) have only 400 for a request the server cannot take.
 */
function fromBodyParser(error: HttpParserError, req: Request): AppError | undefined {
  if (typeof error.status !== 'number' || error.status < 400 || error.status >= 500) return undefined;
  if (isDecompressionError(error)) {
    return errors.corruptContentEncoding(req.get('Content-Encoding') ?? 'compressed');
  }
  if (typeof error.type !== 'string') return undefined;
  switch (error.type) {
    case 'entity.too.large':
      return errors.bodyTooLarge(typeof error.limit === 'number' ? error.limit : 0);
    case 'charset.unsupported':
      return errors.unsupportedCharset(String(error.charset));
    case 'encoding.unsupported':
      return errors.unsupportedContentEncoding(String(error.encoding));
    case 'parameters.too.many':
      return errors.tooManyParameters();
    default:
      return errors.malformedBody();
  }
}

/**
 * The router decodes path parameters before any route runs (Express's own decoding, the only place
 * they are decoded); a malformed escape there is the caller's mistake, named by the part it is in.
 */
function fromRouter(error: unknown): AppError | undefined {
  if (!(error instanceof URIError) || (error as { status?: unknown }).status !== 400) return undefined;
  const part = /'(.*)'$/s.exec(error.message)?.[1];
  return part === undefined ? undefined : errors.malformedPathPart(part);
}

function fromDependency(error: unknown): AppError | undefined {
  const dependency = unavailableDependency(error);
  return dependency === undefined ? undefined : errors.dependencyUnavailable(dependency, error);
}

/** The catalogue's entry for an error, or undefined for one that is not the caller's nor an outage: a bug. */
export function knownError(error: unknown, req: Request): AppError | undefined {
  if (error instanceof AppError) return error;
  if (typeof error === 'object' && error !== null) return fromRouter(error) ?? fromBodyParser(error, req) ?? fromDependency(error);
  return undefined;
}

/** Logs what failed underneath an error the server answers for (a 5xx), with its code; a bug as an unhandled error. */
export function logServerFailure(logger: Logger, requestId: string, error: unknown, known: AppError | undefined): void {
  if (known === undefined) logger.error({ err: error, requestId }, 'unhandled error');
  else if (known.statusCode >= 500 && known.cause !== undefined) logger.error({ err: known.cause, code: known.code, requestId }, known.message);
}

export function notFound(): RequestHandler {
  return (req, _res, next) => next(errors.notFound(req.baseUrl + req.path));
}

export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  return (req, _res, next) => next(errors.methodNotAllowed(req.method, allowed));
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req: Request, res, next) => {
    if (res.headersSent) {
      if (wasAnsweredAsStalled(req)) return;
      logger.error({ err: error, requestId: req.id }, 'error after the response started');
      next(error);
      return;
    }
    // A scenario dropped it: the access line tells the fault, and there is no one to answer.
    if (error instanceof ConnectionDropped) return;
    if (res.socket === null || res.socket.destroyed) {
      // The client hung up (an upload cut short, say): there is no one to answer, and nothing failed here.
      logger.warn({ err: error, requestId: req.id }, 'the client closed the connection before the answer');
      return;
    }
    const known = knownError(error, req);
    logServerFailure(logger, req.id, error, known);
    res.send(renderError(req, res, known ?? errors.internal()));
  };
}
