import { z } from 'zod';

/**
 * Text every store keeps exactly as given: PostgreSQL's text refuses NUL, and an unpaired surrogate
 * has no UTF-8 form (it would come back as U+FFFD, and two ids could become one). Control characters
 * (Unicode's Cc: U+0000-U+001F, U+007F-U+009F) have no place in an identifier either. The same source
 * is the pattern the API reference states, read with the `u` flag as JSON Schema reads patterns.
 */
export const STORABLE_TEXT_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]*$';
const STORABLE_TEXT = new RegExp(STORABLE_TEXT_PATTERN, 'u');

/**
 * The same rule as the API reference states it for text in a URL path: percent-encoded UTF-8 has no form for
 * an unpaired surrogate (one is refused before any route, as IVR_MALFORMED_PATH_PART), so the pattern does
 * not name them. A generator drawing UTF-8 text cannot build a class that does (Hypothesis, which
 * Schemathesis runs on, refuses it); one that then leaves the pattern aside sends DEL and C1 controls.
 */
export const PATH_STORABLE_TEXT_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';

export const STORABLE_TEXT_PROBLEM = 'must be text without control characters or unpaired surrogates';

export function isStorableText(value: string): boolean {
  return STORABLE_TEXT.test(value);
}

/** A string's length as JSON Schema's minLength and maxLength count it: in code points, not UTF-16 units. */
export function codePointLength(value: string): number {
  let length = value.length;
  for (let index = 0; index < value.length - 1; index += 1) {
    const high = value.charCodeAt(index);
    const low = value.charCodeAt(index + 1);
    if (high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
      length -= 1;
      index += 1;
    }
  }
  return length;
}

/**
 * Text of `minLength` to `maxLength` characters counted as the API reference counts them (code points),
 * where zod's own bounds count UTF-16 units and would refuse 600 emoji that the document allows as 600.
 */
export function boundedText(minLength: number, maxLength: number) {
  return z
    // A missing value keeps zod's own message, which says that it is missing.
    .string({ error: (issue) => (issue.input === undefined ? undefined : 'must be text') })
    // A string has at least as many UTF-16 units as code points, so the count is needed only near the bounds.
    .refine((value) => value.length >= minLength && (minLength <= 1 || codePointLength(value) >= minLength), {
      message: minLength === 1 ? 'must not be empty' : `must be at least ${minLength} characters`,
      abort: true,
    })
    .refine((value) => value.length <= maxLength || codePointLength(value) <= maxLength, {
      message: `must be at most ${maxLength} characters`,
      abort: true,
    })
    .meta({ minLength, maxLength });
}

/** A non-empty identifier of at most `maxLength` characters that every store can hold. */
export function storableIdentifier(maxLength: number) {
  return boundedText(1, maxLength).refine(isStorableText, STORABLE_TEXT_PROBLEM).meta({ pattern: STORABLE_TEXT_PATTERN });
}
