import { AppError, errors } from '../errors/catalogue';

/**
 * The reporting API answers only the statuses of specification.md §2.1, and
 * `unknown error` for a 500. Two answers the rest of the server gives have none there: an outage of the
 * database or Redis (503) is a 500, keeping its Retry-After so that a client can still tell it is worth
 * retrying; a body too slow to wait for (408) is a 400, as a body that stopped arriving is. Code and
 * cause are kept for the log.
 */
export function withinContractStatuses(error: AppError): AppError {
  if (error.statusCode === 503) {
    const unknown = errors.internal();
    return new AppError(error.code, unknown.statusCode, unknown.message, error.headers, error.cause);
  }
  if (error.statusCode === 408) return new AppError(error.code, 400, error.message, error.headers, error.cause);
  return error;
}

/** Whether a request path is the reporting API's, for answers given before its router runs. */
export function isReportingPath(path: string): boolean {
  return /^\/api(\/|$)/i.test(path);
}
