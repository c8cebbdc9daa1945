import { NetworkError, ServerError, type ReportingClientError } from './errors';

/** How a call retries what failed on the way rather than by the request: docs/client.md, "Retries". */
export interface RetryOptions {
  /** Retries after the first attempt, at most. Default 2. */
  readonly maxRetries?: number;
  /** The first back-off's ceiling; each retry doubles it. Default 200. */
  readonly baseDelayMs?: number;
  /** No back-off's ceiling goes past this. Default 5000. */
  readonly maxDelayMs?: number;
  /** The most one call waits to retry, in all: a retry whose wait does not fit is not made. Default 15000. */
  readonly maxRetryWaitMs?: number;
  /** Told of each retry before its wait. */
  readonly onRetry?: (retry: Retry) => void;
}

/** A retry about to be made, as the `onRetry` hook is told of it. */
export interface Retry {
  /** 1 for the first retry of the call. */
  readonly attempt: number;
  readonly method: 'GET' | 'POST';
  readonly url: string;
  /** How long the client waits before it: the back-off drawn, or the server's Retry-After. */
  readonly waitMs: number;
  /** What failed: a NetworkError, or a ServerError worth asking again. */
  readonly error: ReportingClientError;
}

/** The options with their defaults, checked once. */
export interface RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxRetryWaitMs: number;
  readonly onRetry: ((retry: Retry) => void) | undefined;
}

const DEFAULTS = { maxRetries: 2, baseDelayMs: 200, maxDelayMs: 5000, maxRetryWaitMs: 15_000 } as const;

/** No retry at all: `retry: false`. */
const NEVER: RetryPolicy = { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0, maxRetryWaitMs: 0, onRetry: undefined };

/** Statuses a gateway or an overloaded server answers with, which a request that is safe to repeat may meet again as a success. */
const UNAVAILABLE_STATUSES: readonly number[] = [502, 503, 504];

/** The policy of `createClient`'s `retry` option; a count or a wait that is not a number of at least 0 is a RangeError. */
export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return NEVER;
  const policy = { ...DEFAULTS, ...options, onRetry: options?.onRetry };
  for (const name of ['maxRetries', 'baseDelayMs', 'maxDelayMs', 'maxRetryWaitMs'] as const) {
    const value = policy[name];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (name === 'maxRetries' && !Number.isInteger(value))) {
      throw new RangeError(`retry.${name} must be a ${name === 'maxRetries' ? 'whole number' : 'number of milliseconds'} of at least 0, not ${String(value)}`);
    }
  }
  return policy;
}

/**
 * Whether a failure of a request that is safe to repeat is worth asking again: no answer (refused, reset,
 * cut short), a gateway's 502/503/504, or a 500 that says when to (Retry-After: the server's outage).
 */
function worthRetrying(error: unknown): error is NetworkError | ServerError {
  if (error instanceof NetworkError) return true;
  return error instanceof ServerError && (UNAVAILABLE_STATUSES.includes(error.status) || error.retryAfterSeconds !== undefined);
}

/** A request that never reached the server: the connection was refused. Only that is retried for the login, which the server counts. */
function neverSent(error: unknown): error is NetworkError {
  let cause: unknown = error instanceof NetworkError ? error.cause : undefined;
  for (let depth = 0; depth < 4 && typeof cause === 'object' && cause !== null; depth += 1) {
    if ((cause as { code?: unknown }).code === 'ECONNREFUSED') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** A GET is safe to repeat; the login only when it never reached the server. */
function retryable(error: unknown, method: 'GET' | 'POST'): error is NetworkError | ServerError {
  return method === 'GET' ? worthRetrying(error) : neverSent(error);
}

/**
 * One call's retries: `after(error)` waits before the next attempt, or throws `error` when it is not worth
 * retrying or the call's retries or their time are spent. Back-off with full jitter: a wait drawn evenly
 * below a ceiling that doubles with each retry, so that clients failed at once do not ask again at once;
 * a server's Retry-After is waited as it says.
 */
export function callRetries(
  policy: RetryPolicy,
  request: { readonly method: 'GET' | 'POST'; readonly url: string },
  { sleep, random }: { readonly sleep: (ms: number) => Promise<void>; readonly random: () => number },
): { after(error: unknown): Promise<void> } {
  let attempt = 0;
  let waitedMs = 0;
  return {
    async after(error) {
      if (!retryable(error, request.method) || attempt >= policy.maxRetries) throw error;
      const ceilingMs = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
      const retryAfterSeconds = error instanceof ServerError ? error.retryAfterSeconds : undefined;
      const waitMs = retryAfterSeconds === undefined ? Math.floor(random() * ceilingMs) : retryAfterSeconds * 1000;
      if (waitedMs + waitMs > policy.maxRetryWaitMs) throw error;
      attempt += 1;
      waitedMs += waitMs;
      policy.onRetry?.({ attempt, method: request.method, url: request.url, waitMs, error });
      await sleep(waitMs);
    },
  };
}
