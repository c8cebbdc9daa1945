import { z } from 'zod';

/**
 * How one environment variable's text is read: the parsers the features' settings are declared with.
 * Every refusal is a message that completes "NAME=value: ...", so the start names the variable and the fix.
 */

/** A whole number in range; every refusal names the range. */
export const integer = (min: number, max = Number.MAX_SAFE_INTEGER) => {
  const range = max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  return z
    .string()
    .trim()
    .regex(/^\d+$/, `must be ${range}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be ${range}`).max(max, `must be ${range}`));
};

/** One of a few words, in any case (`Sunday` is sunday), refused with the list of them. */
export const oneOf = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z
    .string()
    .trim()
    .transform((value) => value.toLowerCase())
    .pipe(z.enum(values, { error: `must be one of ${values.join(', ')}` }));

/** Free text; blank is unset. */
export const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** An http or https URL, without the trailing slashes that would double the paths joined to it. */
export const publicUrl = optionalText
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional())
  .transform((value) => value?.replace(/\/+$/, ''));

/**
 * A bearer token: long enough that guessing it through the admin rate limit is hopeless; GET /metrics has
 * no rate limit, so there only its length stops guessing.
 */
export const bearerToken = optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional());

/** true or false, in any case. */
export const flag = oneOf(['true', 'false']).transform((value) => value === 'true');
