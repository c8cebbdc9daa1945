import { z } from 'zod';
import { flag, optionalText } from '../config/variables';

/**
 * The data a start loads: a seed file, else the demo account unless DEMO_DATA turns it off. NODE_ENV is
 * read here as well as in the server's settings: the demo data's default is decided by it, since the demo
 * account's password is public and a deployment must not be reachable with it.
 */
export const startupDataSettings = z
  .object({ NODE_ENV: optionalText, SEED_FILE: optionalText, DEMO_DATA: flag.optional() })
  .transform((variables) => ({
    /** Path of a JSON file of accounts, numbers and calls loaded at start, instead of the demo data. */
    seedFile: variables.SEED_FILE,
    /**
     * Whether a start without a seed file creates the demo account and its calls, when the store does not
     * have the account yet: on unless NODE_ENV=production. A seed file replaces the demo data either way.
     */
    demoData: variables.DEMO_DATA ?? variables.NODE_ENV !== 'production',
  }));

export type StartupDataSettings = z.output<typeof startupDataSettings>;
