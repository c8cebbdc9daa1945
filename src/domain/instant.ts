/**
 * ISO-8601 date and time with an explicit offset, e.g. 2018-02-07T10:15:00-05:00 or ...T15:15:00.250Z.
 * Parsed by hand because every imported call goes through here: a general ISO parser costs an order of
 * magnitude more, and Date.parse silently rolls over impossible dates such as February 30.
 */
const ISO_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/i;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Milliseconds since the epoch, or undefined when the text is not such a date-time or names no real one. */
export function parseInstantWithOffset(text: string): number | undefined {
  const match = ISO_WITH_OFFSET.exec(text);
  if (match === null) return undefined;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map((part) => (part === undefined ? 0 : Number(part)));
  const [fraction = '0', utc, sign, offsetHours = '0', offsetMins = '0'] = match.slice(7);
  const valid =
    year >= 1970 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    Number(offsetHours) <= 18 &&
    Number(offsetMins) <= 59;
  if (!valid) return undefined;
  const offset = utc === undefined ? (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMins)) : 0;
  const milliseconds = Math.floor(Number(`0.${fraction}`) * 1000);
  return Date.UTC(year, month - 1, day, hour, minute, second, milliseconds) - offset * 60_000;
}
