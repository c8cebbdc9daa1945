import { z } from 'zod';
import { optionalText } from '../config/variables';

/** The data a start loads: a seed file, else the demo account. */
export const startupDataSettings = z
  .object({ SEED_FILE: optionalText })
  .transform((variables) => ({
    /** Path of a JSON file of accounts, numbers and calls loaded at start; unset: the demo data. */
    seedFile: variables.SEED_FILE,
  }));

export type StartupDataSettings = z.output<typeof startupDataSettings>;
