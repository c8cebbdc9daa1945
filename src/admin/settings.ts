import { z } from 'zod';
import { bearerToken } from '../config/variables';

export const adminSettings = z
  .object({ ADMIN_TOKEN: bearerToken })
  .transform((variables) => ({
    /** Bearer token of the admin API; unset: the admin API is off (every /admin path is 404). */
    token: variables.ADMIN_TOKEN,
  }));

export type AdminSettings = z.output<typeof adminSettings>;
