import { z } from 'zod';
import { integer, oneOf, optionalText } from '../config/variables';

const postgresUrl = z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' });

/** One PostgreSQL URL or several, separated by commas; a comma within one (a password's, say) is written %2C. */
const postgresUrls = optionalText.pipe(
  z
    .string()
    .transform((value) => value.split(',').map((url) => url.trim()))
    .refine((urls) => urls.every((url) => postgresUrl.safeParse(url).success), 'must be postgres:// or postgresql:// URLs separated by commas')
    .optional(),
);

/** Where the data lives, and the bound on every wait for it. */
export const storageSettings = z
  .object({
    STORE: oneOf(['memory', 'postgres']).default('memory'),
    DATABASE_URL: optionalText.pipe(postgresUrl.optional()),
    DATABASE_READ_URL: postgresUrls,
    REDIS_URL: optionalText.pipe(z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional()),
    DATABASE_POOLER: oneOf(['none', 'transaction']).default('none'),
    DATABASE_READ_POOLER: oneOf(['none', 'transaction']).optional(),
    DEPENDENCY_TIMEOUT_SECONDS: integer(1, 600).default(5),
  })
  .superRefine((variables, context) => {
    if (variables.STORE === 'postgres' && variables.DATABASE_URL === undefined) {
      context.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: 'is required when STORE=postgres' });
    }
    if (variables.STORE !== 'postgres' && variables.DATABASE_READ_URL !== undefined) {
      context.addIssue({ code: 'custom', path: ['DATABASE_READ_URL'], message: 'needs STORE=postgres: it lists replicas of DATABASE_URL' });
    }
    if (variables.DATABASE_READ_URL === undefined && variables.DATABASE_READ_POOLER !== undefined) {
      context.addIssue({ code: 'custom', path: ['DATABASE_READ_POOLER'], message: 'needs DATABASE_READ_URL: it says what the replicas are reached through' });
    }
  })
  .transform((variables) => ({
    store: variables.STORE,
    /** PostgreSQL connection URL; set exactly when the store is postgres. */
    databaseUrl: variables.DATABASE_URL,
    /**
     * Streaming replicas of DATABASE_URL that answer the reads of reports, each only when it holds what the
     * report's account acknowledged; empty: the primary answers every read.
     */
    databaseReadUrls: variables.DATABASE_READ_URL ?? [],
    /**
     * What DATABASE_URL leads to: PostgreSQL itself or a pooler in session mode (none), or a pooler that
     * lends a server connection per transaction (transaction: PgBouncer's pool_mode = transaction).
     */
    databasePooler: variables.DATABASE_POOLER,
    /** The same for every URL of DATABASE_READ_URL; unset, what DATABASE_POOLER says (a pooler in front of each server, as drawn in docs/scaling.md). */
    databaseReadPooler: variables.DATABASE_READ_POOLER ?? variables.DATABASE_POOLER,
    /** Redis connection URL; set: rate-limit counters and survey sessions live there, shared by instances. */
    redisUrl: variables.REDIS_URL,
    /** The bound on every wait for PostgreSQL or Redis (connecting, a query, a command): then a 500. */
    dependencyTimeoutSeconds: variables.DEPENDENCY_TIMEOUT_SECONDS,
  }));

export type StorageSettings = z.output<typeof storageSettings>;
