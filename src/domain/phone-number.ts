import { z } from 'zod';

/** A phone number as the interface accepts it: 1-15 digits, a leading `+` allowed and ignored. */
export const PHONE_PATTERN = /^\+?(\d{1,15})$/;

export function normalisePhone(value: string): string | undefined {
  return PHONE_PATTERN.exec(value)?.[1];
}

export const phoneNumberSchema = z.string().transform((value, context) => {
  const phone = normalisePhone(value);
  if (phone === undefined) {
    context.addIssue({ code: 'custom', message: 'must be a phone number of 1-15 digits, optionally after a +' });
    return z.NEVER;
  }
  return phone;
});
