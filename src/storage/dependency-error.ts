import { isNativeError } from 'node:util/types';
import { DatabaseError } from 'pg';
/**
 * A service the configuration points at (PostgreSQL, Redis) could not be reached at start. The server
 * process prints the message, which names the service, and exits non-zero.
 */
export class DependencyUnavailableError extends Error {
  override readonly name = 'DependencyUnavailableError';

  constructor(service: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const what = answeredButRefused(cause) ? 'answered but refused the connection' : 'is unreachable';
    super(`${service} ${what}: ${reason}${answeredButRefused(cause) ? setUpHint(cause) : ''}`, { cause });
  }
}

/**
 * PgBouncer refuses a startup parameter it does not pass on (08P01) before any query: pg sends the
 * statement bound as one unless DATABASE_POOLER (for a replica, DATABASE_READ_POOLER) is transaction.
 */
export const refusesStartupParameter = (error: unknown): boolean => error instanceof Error && /^unsupported startup parameter/.test(error.message);

/**
 * PostgreSQL refuses a role that does not exist, over password authentication, as it refuses a wrong
 * password (28P01), so as not to tell a stranger which roles exist: the message names both.
 */
const refusesPassword = (error: Error): boolean => (error as { code?: unknown }).code === '28P01';

const setUpHint = (cause: Error) => {
  if (refusesStartupParameter(cause)) return ' (behind PgBouncer in transaction mode, set DATABASE_POOLER=transaction: docs/deployment.md)';
  if (refusesPassword(cause)) return ' (the role does not exist or its password is wrong; docs/deployment.md says how to set it up)';
  return ' (docs/deployment.md says how to set it up)';
};

/**
 * A service that answered with a refusal of its own, rather than nothing at the address: PostgreSQL's
 * errors carry an SQLSTATE (class 28, such as 28000 no such role or 28P01 a wrong password; class 3D, no
 * such database; 08P01, a pooler refusing a startup parameter), Redis
 * says WRONGPASS or NOAUTH. The operator then has a set-up step to do, not a network to fix.
 */
function answeredButRefused(cause: unknown): cause is Error {
  if (!(cause instanceof Error)) return false;
  const code = (cause as { code?: unknown }).code;
  return (typeof code === 'string' && /^(28|3D)[0-9A-Z]{3}$|^08P01$/.test(code)) || /^(WRONGPASS|NOAUTH)\b/.test(cause.message);
}

/**
 * A dependency that answers but cannot serve this build (a PostgreSQL schema behind its migrations). Its
 * message says why without naming hosts or credentials, so GET /readyz shows it to whoever asks.
 */
export class NotReadyError extends Error {
  override readonly name = 'NotReadyError';
}

const FAILED_DEPENDENCY = Symbol('ivr-reporting.failedDependency');
const MARKS_FAILURES = Symbol('ivr-reporting.marksFailures');

/** The dependency (a StoreDependency's name) whose call failed with this error, if a store marked it. */
export function failedDependency(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const name = (error as { [FAILED_DEPENDENCY]?: unknown })[FAILED_DEPENDENCY];
  return typeof name === 'string' ? name : undefined;
}

function markedFailure(error: unknown, dependency: string): never {
  if (typeof error === 'object' && error !== null && failedDependency(error) === undefined) {
    Object.defineProperty(error, FAILED_DEPENDENCY, { value: dependency });
  }
  throw error;
}

/** The repository (a plain object of asynchronous methods) with `handle` on each rejection of its methods. */
export function onRejection<Repository extends object>(repository: Repository, handle: (error: unknown) => never): Repository {
  const methods = Object.entries(repository).map(([name, member]: [string, unknown]) => {
    if (typeof member !== 'function') return [name, member];
    const method = member as (...args: unknown[]) => Promise<unknown>;
    return [name, (...args: unknown[]) => method.apply(repository, args).catch(handle)];
  });
  return Object.fromEntries(methods) as Repository;
}

/**
 * The repository (a plain object of asynchronous methods) with each rejection marked as a failure of
 * `dependency`: the error itself is rethrown, unchanged for logs and handlers, and the metrics count it
 * under that name wherever it ends (the error handler, a rate limit that fails open, a SOAP fault).
 */
export function markingFailures<Repository extends object>(dependency: string, repository: Repository): Repository {
  const marked = onRejection(repository, (error) => markedFailure(error, dependency));
  Object.defineProperty(marked, MARKS_FAILURES, { value: true });
  return marked;
}

/** Whether the repository's failures are marked (markingFailures): only such a repository's calls can fail on a dependency. */
export function marksFailures(repository: object): boolean {
  return (repository as { [MARKS_FAILURES]?: unknown })[MARKS_FAILURES] === true;
}

/**
 * SQLSTATE classes of a database that cannot serve now, rather than of a statement it refuses:
 * connection exceptions (08), insufficient resources (53), operator intervention (57: a shutdown, a
 * statement cancelled at statement_timeout), system errors (58).
 */
const OUTAGE_SQLSTATE = /^(08|53|57|58)/;

/** Redis replies that say it cannot serve now: loading its data, busy with a script, a replica cut off or read-only. */
const OUTAGE_REPLY = /^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY)\b/;

/** Mistakes in this program, whatever call they surfaced in; by name, as Node's own errors come from another realm than a test's. */
const PROGRAM_ERRORS: ReadonlySet<string> = new Set(['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError']);

/**
 * Whether the error says its dependency cannot serve now rather than refusing a statement or a command
 * (a bug to report as such): a connection refused, reset or timed out (pg's and the pool's timeouts,
 * ioredis's closed connection and command timeout), or a refusal of the classes above.
 */
export function isOutage(error: unknown): boolean {
  if (!isNativeError(error) || PROGRAM_ERRORS.has(error.name)) return false;
  if (error instanceof DatabaseError) return OUTAGE_SQLSTATE.test(error.code ?? '');
  if (error.name === 'ReplyError') return OUTAGE_REPLY.test(error.message);
  return true;
}

/** The dependency whose outage failed this call: a marked failure (markingFailures) that is an outage; else undefined. */
export function unavailableDependency(error: unknown): string | undefined {
  const dependency = failedDependency(error);
  return dependency !== undefined && isOutage(error) ? dependency : undefined;
}
