import { z } from 'zod';
import { flag } from '../../config/variables';

/** The sandbox's movable clock: off unless asked for, since moving time changes every window and expiry. */
export const clockSettings = z
  .object({ SANDBOX_CLOCK: flag.default(false) })
  .transform((variables) => ({
    /** POST /admin/clock may move the server's time forward. */
    movable: variables.SANDBOX_CLOCK,
  }));

export type ClockSettings = z.output<typeof clockSettings>;
