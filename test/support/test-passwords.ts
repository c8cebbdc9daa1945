import { hashPassword, verifyPassword } from '../../src/accounts/password-hash';
import type { PasswordHasher } from '../../src/accounts/password-hasher';

/**
 * How a test's passwords are hashed: `quick` unless its subject is the hashing (logins, the hash line, the
 * login cache, the admin API's passwords), which takes `scrypt`, the server's own, as a start makes it.
 */
export type Hashing = 'quick' | 'scrypt';

/** scrypt's least cost: a hash in microseconds instead of the server's tens of milliseconds. */
const LEAST_COST = { N: 2, r: 1, p: 1 } as const;

/**
 * The server's own hash format and check at scrypt's least cost, without the line of hashes. A hash names
 * its cost, so a password stored this way is checked at that cost by the server's hasher too.
 */
export const quickPasswords: PasswordHasher = {
  hash: (password) => hashPassword(password, LEAST_COST),
  verify: (password, stored) => verifyPassword(password, stored),
};

/** The hash of `password` stored for a test's account. */
export function storedHash(password: string, hashing: Hashing): Promise<string> {
  return hashing === 'quick' ? quickPasswords.hash(password) : hashPassword(password);
}
