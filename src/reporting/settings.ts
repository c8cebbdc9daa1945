import { z } from 'zod';
import { integer, oneOf } from '../config/variables';
import { WEEK_STARTS } from './query/periods';

/**
 * The reporting API: its reports' weeks and ranges, the reports kept, how long temporary credentials live,
 * and the logins whose password check is remembered.
 */
export const reportingSettings = z
  .object({
    WEEK_START: oneOf(WEEK_STARTS).default('monday'),
    MAX_RANGE_DAYS: integer(1, 100_000).default(3660),
    REPORT_CACHE_BYTES: integer(0).default(67_108_864),
    CREDENTIAL_TTL_SECONDS: integer(1).default(86_400),
    AUTH_CACHE_SECONDS: integer(0, 86_400).default(1200),
    AUTH_CACHE_MAX_ENTRIES: integer(1, 10_000_000).default(10_000),
  })
  .transform((variables) => ({
    weekStart: variables.WEEK_START,
    maxRangeDays: variables.MAX_RANGE_DAYS,
    /** Memory for finished reports kept across requests; 0 keeps none. */
    reportCacheBytes: variables.REPORT_CACHE_BYTES,
    /** How long temporary credentials work unused. */
    credentialTtlSeconds: variables.CREDENTIAL_TTL_SECONDS,
    /** How long a successful password check spares the next logins with that password their scrypt hash; 0 remembers none. */
    authCacheSeconds: variables.AUTH_CACHE_SECONDS,
    /** Accounts whose successful password check is remembered at most, the least recently used forgotten first. */
    authCacheMaxEntries: variables.AUTH_CACHE_MAX_ENTRIES,
  }));

export type ReportingSettings = z.output<typeof reportingSettings>;
