import { IANAZone } from 'luxon';
import { z } from 'zod';

/** What every refusal of a time zone says, wherever it was given. */
export const TIME_ZONE_RULE = 'must be an IANA time zone such as UTC or America/New_York';

/** A zone luxon knows by its IANA name, as every local day and period is computed with luxon. */
export function isTimeZone(value: string): boolean {
  return IANAZone.isValidZone(value);
}

/** An account's time zone, as the admin API, the seed file and the configuration take it. */
export const timeZoneSchema = z
  .string(TIME_ZONE_RULE)
  .refine(isTimeZone, TIME_ZONE_RULE)
  .meta({ description: 'An IANA time zone such as UTC or America/New_York' });
