import { errors } from '../errors/catalogue';
import { LineFullError, limitConcurrency } from './concurrency-limit';
import { hashPassword, verifyPassword } from './password-hash';

/**
 * Tool passwords hashed and checked on behalf of requests (logins, the admin API). `signal` aborts when
 * the request's client has gone: its hash, not begun, is then never computed.
 */
export interface PasswordHasher {
  hash(password: string, signal?: AbortSignal): Promise<string>;
  verify(password: string, stored: string, signal?: AbortSignal): Promise<boolean>;
}

export interface PasswordHasherOptions {
  /** Hashes computed at once (PASSWORD_HASH_CONCURRENCY). */
  readonly concurrency: number;
  /** Hashes waiting for one of those at most (PASSWORD_HASH_QUEUE); past it a request is refused at once. */
  readonly mostWaiting: number;
}

/**
 * scrypt runs in libuv's thread pool and keeps a core busy for tens of milliseconds per hash: without a
 * bound, a burst of logins takes every core from the report requests. At most `concurrency` hashes run at
 * once and `mostWaiting` wait in line, so logins slow down, reports do not, and a flood of logins from
 * many addresses (each under its rate limit) cannot make a real one wait for ever: past the line's length
 * a login is refused at once, told when to retry. The cost parameters are password-hash.ts's, unchanged.
 */
export function passwordHasher({ concurrency, mostWaiting }: PasswordHasherOptions): PasswordHasher {
  const limit = limitConcurrency(concurrency, mostWaiting);
  const inLine = <Result>(task: () => Promise<Result>, signal: AbortSignal | undefined): Promise<Result> =>
    limit(task, signal).catch((error: unknown) => {
      throw error instanceof LineFullError ? errors.passwordHashLineFull(mostWaiting) : error;
    });
  return {
    hash: (password, signal) => inLine(() => hashPassword(password), signal),
    verify: (password, stored, signal) => inLine(() => verifyPassword(password, stored), signal),
  };
}
