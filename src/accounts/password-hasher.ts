import { limitConcurrency } from './concurrency-limit';
import { hashPassword, verifyPassword } from './password-hash';

/** Tool passwords hashed and checked on behalf of requests (logins, the admin API). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

/**
 * scrypt runs in libuv's thread pool and keeps a core busy for tens of milliseconds per hash: without a
 * bound, a burst of logins takes every core from the report requests. At most `concurrency` hashes run at
 * once; further ones wait in line, so logins slow down and reports do not. The cost parameters are
 * password-hash.ts's, unchanged.
 */
export function passwordHasher(concurrency: number): PasswordHasher {
  const inLine = limitConcurrency(concurrency);
  return {
    hash: (password) => inLine(() => hashPassword(password)),
    verify: (password, stored) => inLine(() => verifyPassword(password, stored)),
  };
}
