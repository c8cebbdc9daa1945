import { z } from 'zod';

/** A phone number as the interface accepts it: 1-15 digits, a leading `+` allowed and ignored. */
export const PHONE_PATTERN = /^\+?(\d{1,15})$/;

export function normalisePhone(value: string): string | undefined {
  return PHONE_PATTERN.exec(value)?.[1];
}

/**
 * Text read by `normalise` into its one form, or refused with `message`. A check and an overwrite rather
 * than a transform: every imported call has a phone number and most a caller, and zod's transform pipe
 * costs about a microsecond each.
 */
export function normalisedSchema(normalise: (value: string) => string | undefined, message: string) {
  return z
    .string()
    .refine((value) => normalise(value) !== undefined, message)
    .overwrite((value) => normalise(value) ?? value);
}

export const phoneNumberSchema = normalisedSchema(normalisePhone, 'must be a phone number of 1-15 digits, optionally after a +').meta({
  description: 'A phone number: 1-15 digits, a leading + allowed and ignored',
  pattern: PHONE_PATTERN.source,
});
