import { z } from 'zod';

/**
 * Text every store keeps exactly as given: PostgreSQL's text refuses NUL, and an unpaired surrogate
 * has no UTF-8 form (it would come back as U+FFFD, and two ids could become one). Control characters
 * have no place in an identifier either.
 */
const STORABLE_TEXT = /^[^\p{Cc}\p{Cs}]*$/u;

export const STORABLE_TEXT_PROBLEM = 'must be text without control characters or unpaired surrogates';

export function isStorableText(value: string): boolean {
  return STORABLE_TEXT.test(value);
}

/** A non-empty identifier of at most `maxLength` characters that every store can hold. */
export function storableIdentifier(maxLength: number) {
  return z
    .string()
    .min(1, 'must not be empty')
    .max(maxLength, `must be at most ${maxLength} characters`)
    .refine(isStorableText, STORABLE_TEXT_PROBLEM);
}
