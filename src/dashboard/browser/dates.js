const DAY_MS = 86_400_000;
export const DAY_SECONDS = 86_400;

/** The UTC offsets in use anywhere, from UTC−12 to UTC+14, in seconds. */
const OFFSET_RANGE = { lowest: -12 * 3600, highest: 14 * 3600 };

/** `2018-02-01` (a date input's value) as days since 1970-01-01. */
export function epochDayOf(isoDate) {
  const [year, month, day] = isoDate.split('-').map(Number);
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

export function isoDateOf(epochDay) {
  return new Date(epochDay * DAY_MS).toISOString().slice(0, 10);
}

/** `2018-02-01` as the API's path writes it: `20180201`. */
export function pathDateOf(isoDate) {
  return isoDate.replaceAll('-', '');
}

/** Today in the browser's time zone, as a date input writes it. */
export function todayIsoDate(now = new Date()) {
  const pad = (value) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function firstOfMonth(epochDay) {
  const date = new Date(epochDay * DAY_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / DAY_MS;
}

/**
 * The week's first day on or before `startDay`. Weeks start on Monday or Sunday (WEEK_START), which the
 * API does not say: the first key tells, as a rule only one of the two days makes it the local midnight
 * of an offset in use. Both do only in zones 10 to 14 hours from UTC (Sunday at UTC−10 is Monday at
 * UTC+14); the one nearer the browser's own offset is then taken, the viewer being most often where
 * the account is.
 */
function firstWeekDay(startDay, firstKey) {
  const weekday = (startDay + 4) % 7; // 1970-01-01 was a Thursday; 0 is Sunday
  const offsetFor = (daysBack) => (startDay - daysBack) * DAY_SECONDS - firstKey;
  const browserOffset = -new Date(firstKey * 1000).getTimezoneOffset() * 60;
  const distance = (daysBack) => Math.abs(offsetFor(daysBack) - browserOffset);
  const [mondayBack, sundayBack] = [(weekday + 6) % 7, weekday];
  const readings = [mondayBack, sundayBack]
    .filter((daysBack) => offsetFor(daysBack) >= OFFSET_RANGE.lowest && offsetFor(daysBack) <= OFFSET_RANGE.highest)
    .sort((a, b) => distance(a) - distance(b));
  return startDay - (readings[0] ?? mondayBack);
}

/**
 * The local date each period starts on, as days since 1970-01-01. A key is the Unix second of a local
 * midnight in the account's time zone, which the API does not name; the requested start anchors the
 * first key (a day's is the start itself, a month's the 1st of its month, a week's its first day), and
 * each later key is whole days after it (rounded: a day of a clock change lasts 23 or 25 hours).
 */
export function periodStartDays(keys, period, startDay) {
  if (keys.length === 0) return [];
  const [firstKey] = keys;
  const firstDay = period === 'day' ? startDay : period === 'month' ? firstOfMonth(startDay) : firstWeekDay(startDay, firstKey);
  return keys.map((key) => firstDay + Math.round((key - firstKey) / DAY_SECONDS));
}

/** The local date the period after the one starting on `startDay` starts on, as days since 1970-01-01. */
export function nextPeriodDay(startDay, period) {
  if (period === 'day') return startDay + 1;
  if (period === 'week') return startDay + 7;
  const date = new Date(startDay * DAY_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / DAY_MS;
}
