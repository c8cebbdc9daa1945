import { todayIsoDate } from './dates.js';

/**
 * The server's time, which "now" and "today" are on this page: a sandbox's clock may be moved ahead
 * (SANDBOX_CLOCK, POST /admin/clock), and every answer's Date header tells the time it is at. The page
 * keeps the offset between that and the browser's clock, and applies it wherever it reads the time.
 */

/**
 * How far the server's clock is ahead of the browser's (milliseconds, behind if negative), from an
 * answer's Date header and the browser's time when the request was sent and its answer came. The header
 * has whole seconds, so the server's time was in [date, date + 1 s) at some moment between the two:
 * the offset nearest zero that allows, zero when the clocks agree to within that. Undefined without a
 * readable header.
 */
export function clockOffsetOf(dateHeader, sentAt, receivedAt) {
  if (dateHeader === null || dateHeader === undefined) return undefined;
  const date = Date.parse(dateHeader);
  if (Number.isNaN(date)) return undefined;
  const lowest = date - receivedAt;
  const highest = date + 999 - sentAt;
  if (lowest > 0) return lowest;
  if (highest < 0) return highest;
  return 0;
}

/** The server's clock as the answers tell it; the browser's own until an answer does. */
export function serverClock(browserNow = () => Date.now()) {
  let offset = 0;
  return {
    /** Keeps an answer's offset; an answer without one (no Date header) leaves the last known. */
    note(answerOffset) {
      if (answerOffset !== undefined) offset = answerOffset;
    },
    /** The server's time now, in milliseconds since 1970. */
    now: () => browserNow() + offset,
    /** The server's today in the browser's time zone, as a date input writes it. */
    today: () => todayIsoDate(new Date(browserNow() + offset)),
  };
}
