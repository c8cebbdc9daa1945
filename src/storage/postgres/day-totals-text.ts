import { COUNTERS, type DayTotalsTable } from '../day-totals';

/**
 * Days of totals are read as one text, "day,calls,log_events,... day,calls,...", rather than a row per
 * day: pg reads a result a field at a time, and a year of days is thousands of fields, which cost the
 * reader more than the database's whole query. This is a day's line, of a row with these columns; the
 * `line` of account_daily_rollups (migration 7) is the same text, kept on the row.
 */
export const DAY_LINE = `concat_ws(',', day, calls, log_events, loops, form_items, duration_ms, transfers, transfer_ms,
  js_errors, fetch_errors, page_loads, page_load_ms)`;

const ZERO = 48;
const MINUS = 45;

/**
 * The days of a text of DAY_LINEs, read digit by digit in one pass into `table` (days outside it are not
 * sent): splitting it into lines and fields and converting each took several times as long, a good part of
 * a report's time. Every value is a whole number (a day before 1970 is negative); a line's counters come
 * in the order of the table's columns (COUNTERS), so the k-th lands in the k-th column.
 */
export function parseDayTotals(text: string, table: DayTotalsTable): DayTotalsTable {
  const { values, days, from } = table;
  let at = 0;
  const next = (): number => {
    const negative = text.charCodeAt(at) === MINUS;
    if (negative) at += 1;
    let value = 0;
    for (let digit = text.charCodeAt(at) - ZERO; digit >= 0 && digit <= 9; digit = text.charCodeAt(at) - ZERO) {
      value = value * 10 + digit;
      at += 1;
    }
    at += 1;
    return negative ? -value : value;
  };
  while (at < text.length) {
    const row = next() - from;
    for (let column = 0; column < COUNTERS.length; column += 1) values[column * days + row] = next();
  }
  return table;
}
