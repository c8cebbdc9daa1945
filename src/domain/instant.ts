/**
 * ISO-8601 date and time with an explicit offset, e.g. 2018-02-07T10:15:00-05:00 or ...T15:15:00.250Z.
 * Parsed by hand because every imported call goes through here: a general ISO parser costs an order of
 * magnitude more, and Date.parse silently rolls over impossible dates such as February 30.
 */
const ISO_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/i;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number);
}

/** A matched group of digits as a number, 0 when the group did not take part. */
function numberAt(match: RegExpExecArray, group: number): number {
  const digits = match[group];
  return digits === undefined ? 0 : Number(digits);
}

/** Milliseconds since the epoch, or undefined when the text is not such a date-time or names no real one. */
export function parseInstantWithOffset(text: string): number | undefined {
  const match = ISO_WITH_OFFSET.exec(text);
  if (match === null) return undefined;
  const year = numberAt(match, 1);
  const month = numberAt(match, 2);
  const day = numberAt(match, 3);
  const hour = numberAt(match, 4);
  const minute = numberAt(match, 5);
  const second = numberAt(match, 6);
  const offsetHours = numberAt(match, 10);
  const offsetMinutes = numberAt(match, 11);
  const valid =
    year >= 1970 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 18 &&
    offsetMinutes <= 59;
  if (!valid) return undefined;
  const offset = match[8] === undefined ? (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) : 0;
  const fraction = match[7];
  const milliseconds = fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
  return Date.UTC(year, month - 1, day, hour, minute, second, milliseconds) - offset * 60_000;
}
