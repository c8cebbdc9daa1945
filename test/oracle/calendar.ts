import { DateTime, IANAZone } from 'luxon';

/*
 * The oracle's own calendar, with luxon only: local days, period starts and keys. Nothing here comes
 * from the server's time code. Weeks start on Monday (WEEK_START's default), luxon's startOf('week').
 */

export type Period = 'day' | 'week' | 'month';
export const PERIODS: readonly Period[] = ['day', 'week', 'month'];

/** A local calendar date as the API writes it: YYYYMMDD. */
export type CompactDate = string;

export function compact(date: DateTime): CompactDate {
  return date.toFormat('yyyyLLdd');
}

export function dateInZone(day: CompactDate, zone: string): DateTime {
  const parsed = DateTime.fromFormat(day, 'yyyyLLdd', { zone });
  if (!parsed.isValid) throw new Error(`not a date: ${day}`);
  return parsed.startOf('day');
}

/** The local date (YYYYMMDD) of an instant in a zone. */
const datesOfInstants = new Map<string, Map<number, CompactDate>>();

export function localDate(ms: number, zone: string): CompactDate {
  let dates = datesOfInstants.get(zone);
  if (dates === undefined) {
    dates = new Map();
    datesOfInstants.set(zone, dates);
  }
  let date = dates.get(ms);
  if (date === undefined) {
    date = compact(DateTime.fromMillis(ms, { zone }));
    dates.set(ms, date);
  }
  return date;
}

export function addDays(day: CompactDate, days: number): CompactDate {
  return compact(DateTime.fromFormat(day, 'yyyyLLdd', { zone: 'UTC' }).plus({ days }));
}

/** The key of the period that holds a local date: the Unix seconds of the period's local start. */
const keysOfDays = new Map<string, string>();

export function periodKey(day: CompactDate, period: Period, zone: string): string {
  const remembered = keysOfDays.get(`${zone}|${period}|${day}`);
  if (remembered !== undefined) return remembered;
  const key = String(dateInZone(day, zone).startOf(period).toSeconds());
  keysOfDays.set(`${zone}|${period}|${day}`, key);
  return key;
}

const keyLists = new Map<string, readonly string[]>();

/** The keys of every period overlapping start..end, ascending (remembered: the same ranges are asked again and again). */
export function periodKeys(start: CompactDate, end: CompactDate, period: Period, zone: string): readonly string[] {
  const remembered = keyLists.get(`${zone}|${period}|${start}|${end}`);
  if (remembered !== undefined) return remembered;
  const last = dateInZone(end, zone);
  const keys: string[] = [];
  for (let cursor = dateInZone(start, zone).startOf(period); cursor <= last; cursor = cursor.plus({ [period]: 1 }).startOf(period)) {
    keys.push(String(cursor.toSeconds()));
  }
  keyLists.set(`${zone}|${period}|${start}|${end}`, keys);
  return keys;
}

const changeLists = new Map<string, readonly number[]>();

/**
 * The instants (ms, to the minute) at which a zone's UTC offset changes between two instants: found a
 * day at a time (no zone changes twice in a day), then narrowed down by halves.
 */
export function offsetChanges(zone: string, fromMs: number, toMs: number): readonly number[] {
  const remembered = changeLists.get(`${zone}|${fromMs}|${toMs}`);
  if (remembered !== undefined) return remembered;
  const iana = IANAZone.create(zone);
  const step = 86_400_000;
  const changes: number[] = [];
  let previous = iana.offset(fromMs);
  for (let at = fromMs + step; at <= toMs; at += step) {
    const offset = iana.offset(at);
    if (offset === previous) continue;
    let low = at - step;
    let high = at;
    while (high - low > 60_000) {
      const middle = low + Math.floor((high - low) / 120_000) * 60_000;
      if (iana.offset(middle) === previous) low = middle;
      else high = middle;
    }
    changes.push(high);
    previous = offset;
  }
  changeLists.set(`${zone}|${fromMs}|${toMs}`, changes);
  return changes;
}

/** Local midnight (the start of the local day) of a date in a zone, in ms. */
export function localMidnight(day: CompactDate, zone: string): number {
  return dateInZone(day, zone).toMillis();
}
