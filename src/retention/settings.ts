import { z } from 'zod';
import { integer } from '../config/variables';

/** How long raw calls are kept: unset, for ever. */
export const retentionSettings = z
  .object({ RETENTION_MONTHS: integer(1, 1200).optional() })
  .transform((variables) => ({
    /**
     * Whole UTC months of raw calls kept before the current one; older months are dropped whole, their
     * rollups kept. Undefined: every call is kept.
     */
    months: variables.RETENTION_MONTHS,
  }));

export type RetentionSettings = z.output<typeof retentionSettings>;
