import { z } from 'zod';
import { integer } from '../config/variables';
import { timeZoneSchema } from '../domain/time-zone';

/** Tool accounts: the time zone an account gets when none is given, and how tool passwords are hashed. */
export const accountSettings = z
  .object({
    DEFAULT_TIMEZONE: z.string().trim().pipe(timeZoneSchema).default('UTC'),
    PASSWORD_HASH_CONCURRENCY: integer(1, 64).default(1),
    PASSWORD_HASH_QUEUE: integer(0, 100_000).default(64),
  })
  .transform((variables) => ({
    defaultTimeZone: variables.DEFAULT_TIMEZONE,
    /** Tool-password hashes (scrypt) computed at once; further logins wait in line. */
    passwordHashConcurrency: variables.PASSWORD_HASH_CONCURRENCY,
    /** Tool-password hashes waiting for one of those at most; past it a login is refused at once, told to retry. */
    passwordHashQueue: variables.PASSWORD_HASH_QUEUE,
  }));

export type AccountSettings = z.output<typeof accountSettings>;
