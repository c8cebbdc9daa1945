import { normalisedSchema } from './phone-number';

/**
 * The calling number (ANI). With a leading `+`, the digits are in international form (country code
 * first); without one, a 10-digit number is North American and gets its country code 1, and any other
 * length is read as international form already (`16175550123`, `447700900123`). The result is the
 * international form in digits, so that `+16175550123`, `16175550123` and `6175550123` are one caller.
 */
const CALLER_PATTERN = /^(\+?)(\d{1,15})$/;

const NORTH_AMERICAN_LENGTH = 10;

export function normaliseCaller(value: string): string | undefined {
  const match = CALLER_PATTERN.exec(value);
  if (match === null) return undefined;
  const [, plus, digits = ''] = match;
  return plus === '' && digits.length === NORTH_AMERICAN_LENGTH ? `1${digits}` : digits;
}

export const callerSchema = normalisedSchema(normaliseCaller, 'must be a calling number of 1-15 digits, optionally after a +').meta({
  description: 'The calling number: 1-15 digits; with +, international; without, a 10-digit number is North American',
  pattern: CALLER_PATTERN.source,
});
