import { epochDayOf, isoDateOf, pathDateOf, todayIsoDate } from './dates.js';

export const ALL_NUMBERS = 'ALL';

/** The server's rule for a number (src/domain/phone-number.ts): 1-15 digits, a leading `+` ignored. */
const PHONE_PATTERN = /^\+?(\d{1,15})$/;

const DEFAULT_DAYS = 28;

/** The four weeks to today, by day, for every number: what the page shows first. */
export function defaultQuery(today = todayIsoDate()) {
  return { start: isoDateOf(epochDayOf(today) - (DEFAULT_DAYS - 1)), end: today, period: 'day', phone: ALL_NUMBERS };
}

export function fillQueryForm(form, query) {
  for (const name of ['start', 'end', 'period', 'phone']) form.elements[name].value = query[name];
}

/**
 * A date input's value (`2026-11-20`) as the browser's date inputs show it: the browser's locale's
 * numeric date, `11/20/2026` in American English, rather than the API's `20261120`.
 */
export function shownDate(isoDate) {
  const format = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' });
  return format.format(new Date(`${isoDate}T00:00:00Z`));
}

/**
 * The form's query, or the problem with it in words. A range that ends before it starts is told here,
 * in the form's own date format, before any request (each of the six reports would refuse it in the
 * API's words); the server judges the rest (how long a range may be), and its message is shown as it
 * words it.
 */
export function readQueryForm(form) {
  const { start, end, period, phone } = form.elements;
  if (start.value === '') return { problem: 'Choose the first day of the range (From).' };
  if (end.value === '') return { problem: 'Choose the last day of the range (To).' };
  if (epochDayOf(end.value) < epochDayOf(start.value)) {
    return {
      problem: `The range ends before it starts: To (${shownDate(end.value)}) is earlier than From (${shownDate(start.value)}).`,
    };
  }
  const typed = phone.value.trim();
  const number = typed === ALL_NUMBERS ? ALL_NUMBERS : PHONE_PATTERN.exec(typed)?.[1];
  if (number === undefined) {
    return { problem: `phone must be ALL or a number of 1-15 digits, not ${JSON.stringify(typed)}` };
  }
  return { query: { start: start.value, end: end.value, period: period.value, phone: number } };
}

/** `2018-02-01 to 2018-02-28 by day, all numbers`: the status line and the table titles. */
export function describeQuery({ start, end, period, phone }, { withPeriod = true } = {}) {
  const numbers = phone === ALL_NUMBERS ? 'all numbers' : `number ${phone}`;
  return `${start} to ${end}${withPeriod ? ` by ${period}` : ''}, ${numbers}`;
}

/** `20180201-20180228-day-ALL`: a download's name. */
export function queryFileName({ start, end, period, phone }, withPeriod) {
  return [pathDateOf(start), pathDateOf(end), ...(withPeriod ? [period] : []), phone].join('-');
}
