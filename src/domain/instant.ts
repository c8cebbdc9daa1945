/**
 * ISO-8601 date and time with an explicit offset, e.g. 2018-02-07T10:15:00-05:00 or ...T15:15:00.250Z:
 * YYYY-MM-DDThh:mm, then optionally :ss and a fraction of 1-9 digits, then Z or ±hh:mm (or ±hhmm), with T
 * and Z in either case. Read character by character because every imported call goes through here, and
 * both a regular expression with Date.UTC and luxon's fromISO (which also takes hour 24 and offsets past 18
 * hours unless a pattern checks them first) cost an imported record far more (docs/performance-costs.md,
 * "Hand-written shortcuts on Node.js 24"). Date.parse silently rolls over impossible dates such as
 * February 30.
 */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const ZERO = 0x30;
const HYPHEN = 0x2d;
const PLUS = 0x2b;
const COLON = 0x3a;
const DOT = 0x2e;
/** ORed into an ASCII letter's code, gives the lower case. */
const LOWER_CASE_BIT = 0x20;
const LOWER_T = 0x74;
const LOWER_Z = 0x7a;
const MAX_FRACTION_DIGITS = 9;
const MILLISECOND_DIGITS = 3;

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number);
}

function digitAt(text: string, index: number): number {
  const digit = text.charCodeAt(index) - ZERO;
  return digit >= 0 && digit <= 9 ? digit : -1;
}

/** The number written by `count` ASCII digits at `start`, or -1 when one of them is not a digit. */
function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let index = start; index < start + count; index += 1) {
    const digit = digitAt(text, index);
    if (digit < 0) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Milliseconds since the epoch, or undefined when the text is not such a date-time or names no real one. */
export function parseInstantWithOffset(text: string): number | undefined {
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const layoutHolds =
    text.charCodeAt(4) === HYPHEN &&
    text.charCodeAt(7) === HYPHEN &&
    (text.charCodeAt(10) | LOWER_CASE_BIT) === LOWER_T &&
    text.charCodeAt(13) === COLON &&
    Math.min(year, month, day, hour, minute) >= 0;
  if (!layoutHolds) return undefined;
  let at = 16;
  let second = 0;
  let milliseconds = 0;
  if (text.charCodeAt(at) === COLON) {
    second = digitsAt(text, at + 1, 2);
    if (second < 0) return undefined;
    at += 3;
    if (text.charCodeAt(at) === DOT) {
      at += 1;
      let digits = 0;
      for (let digit = digitAt(text, at); digit >= 0 && digits < MAX_FRACTION_DIGITS; digit = digitAt(text, at)) {
        if (digits < MILLISECOND_DIGITS) milliseconds = milliseconds * 10 + digit;
        digits += 1;
        at += 1;
      }
      if (digits === 0) return undefined;
      for (; digits < MILLISECOND_DIGITS; digits += 1) milliseconds *= 10;
    }
  }
  let offsetMinutes = 0;
  const sign = text.charCodeAt(at);
  if ((sign | LOWER_CASE_BIT) === LOWER_Z) {
    at += 1;
  } else if (sign === PLUS || sign === HYPHEN) {
    const hours = digitsAt(text, at + 1, 2);
    at += text.charCodeAt(at + 3) === COLON ? 4 : 3;
    const minutes = digitsAt(text, at, 2);
    at += 2;
    if (hours < 0 || hours > 18 || minutes < 0 || minutes > 59) return undefined;
    offsetMinutes = (sign === HYPHEN ? -1 : 1) * (hours * 60 + minutes);
  } else {
    return undefined;
  }
  const valid =
    at === text.length &&
    year >= 1970 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59;
  if (!valid) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, milliseconds) - offsetMinutes * 60_000;
}
