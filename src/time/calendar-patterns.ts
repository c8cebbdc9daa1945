/**
 * The calendar rules of the dates the API takes, as regular expressions for the API reference: a client
 * or a test generated from the document then refuses exactly what the parsers refuse (February 30, the
 * 29th of February outside a leap year, a year before 1970). The parsers themselves stay the code beside
 * them (query/params.ts, domain/instant.ts); src/time/calendar-patterns.test.ts holds the two in step.
 */
const YEAR_FROM_1970 = '(?:19[7-9][0-9]|[2-9][0-9]{3})';
// Divisible by 4 and not by 100, or by 400: 1972-1996, then any century's 04..96, and the centuries 2000, 2400, ...
const LEAP_YEAR_FROM_1970 = '(?:19(?:7[26]|8[048]|9[26])|[2-9][0-9](?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[3579][26])00)';

/** A real calendar date from 1970-01-01, year, month and day joined by `separator`, without anchors. */
export function calendarDatePattern(separator: '' | '-'): string {
  const any = `(?:0[1-9]|1[0-2])${separator}(?:0[1-9]|1[0-9]|2[0-8])`;
  const notFebruary = `(?:0[13-9]|1[0-2])${separator}(?:29|30)`;
  const longMonth = `(?:0[13578]|1[02])${separator}31`;
  return `(?:${YEAR_FROM_1970}${separator}(?:${any}|${notFebruary}|${longMonth})|${LEAP_YEAR_FROM_1970}${separator}02${separator}29)`;
}

/** `YYYYMMDD`, as the raw-data resources take `{start}` and `{end}`. */
export const COMPACT_DATE_PATTERN = `^${calendarDatePattern('')}$`;

/**
 * An ISO-8601 date and time with its offset, as a call's `started_at`: hh:mm, optional :ss and a fraction
 * of 1-9 digits, then Z or ±hh:mm (±hhmm too, offsets up to 18 hours), T and Z in either case.
 */
export const INSTANT_WITH_OFFSET_PATTERN =
  `^${calendarDatePattern('-')}[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]{1,9})?)?` +
  '(?:[Zz]|[+-](?:0[0-9]|1[0-8]):?[0-5][0-9])$';
