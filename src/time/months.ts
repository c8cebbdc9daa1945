/**
 * UTC calendar months, as raw calls are kept and dropped: a month is named by its first instant
 * (milliseconds since the epoch, UTC) and written `YYYY-MM`.
 */

/** The first instant of the UTC month `months` months after the one `instantMs` falls in (before it, when negative). */
export function monthStart(instantMs: number, months = 0): number {
  const date = new Date(instantMs);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
}

/** `YYYY-MM` of the UTC month `instantMs` falls in. */
export function monthName(instantMs: number): string {
  return new Date(instantMs).toISOString().slice(0, 7);
}

/** The first instants of the months from the one `fromMs` falls in to the one `toMs` falls in, both included. */
export function monthsBetween(fromMs: number, toMs: number): number[] {
  const months: number[] = [];
  for (let month = monthStart(fromMs); month <= toMs; month = monthStart(month, 1)) months.push(month);
  return months;
}
