import { z } from 'zod';
import { integer } from '../config/variables';

/** Every limit group's requests per window, and the window they share. */
export const rateLimitSettings = z
  .object({
    AUTH_RATE_LIMIT: integer(1).default(15),
    DATA_RATE_LIMIT: integer(1).default(150),
    ADMIN_RATE_LIMIT: integer(1).default(90_000),
    SURVEY_RATE_LIMIT: integer(1).default(20_000),
    RATE_LIMIT_WINDOW_SECONDS: integer(1, 86_400).default(900),
  })
  .transform((variables) => ({
    /** POST /api/auth per client address. */
    auth: variables.AUTH_RATE_LIMIT,
    /** Raw-data requests per account. */
    data: variables.DATA_RATE_LIMIT,
    /** Admin API requests per client address. */
    admin: variables.ADMIN_RATE_LIMIT,
    /** Survey calls (SOAP and REST) per client address. */
    survey: variables.SURVEY_RATE_LIMIT,
    windowSeconds: variables.RATE_LIMIT_WINDOW_SECONDS,
  }));

export type RateLimitSettings = z.output<typeof rateLimitSettings>;
