import { z } from 'zod';

/** A phone number as the interface accepts it: 1-15 digits, a leading `+` allowed and ignored. */
export const PHONE_PATTERN = /^\+?(\d{1,15})$/;

export function normalisePhone(value: string): string | undefined {
  return PHONE_PATTERN.exec(value)?.[1];
}

/** Text read by `normalise` into its one form, or refused with `message`. */
export function normalisedSchema(normalise: (value: string) => string | undefined, message: string) {
  return z.string().transform((value, context) => {
    const normalised = normalise(value);
    if (normalised === undefined) {
      context.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return normalised;
  });
}

export const phoneNumberSchema = normalisedSchema(normalisePhone, 'must be a phone number of 1-15 digits, optionally after a +');
