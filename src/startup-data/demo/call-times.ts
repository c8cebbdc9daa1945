import { twoDigits, type LocalDay } from './local-days';
import { pickWeighted, type Random } from './random';

/** Relative volume by ISO weekday, Monday first: Mondays are busiest, weekends quiet. */
const WEEKDAY_VOLUME = [1.1, 1.05, 1, 1, 0.85, 0.25, 0.15] as const;

/** Relative volume by local hour: office hours on weekdays, a late and flat day at weekends. */
const WEEKDAY_HOURS = [
  0.3, 0.2, 0.15, 0.15, 0.2, 0.4, 0.8, 2, 5, 9, 10, 10, 7, 8, 10, 9, 8, 6, 3.5, 2.5, 1.8, 1.2, 0.8, 0.5,
] as const;
const WEEKEND_HOURS = [
  0.3, 0.2, 0.15, 0.15, 0.15, 0.2, 0.3, 0.6, 1.2, 2, 3, 3.5, 3.5, 3.5, 3.2, 3, 2.8, 2.5, 2.2, 1.8, 1.4, 1, 0.7, 0.5,
] as const;

export function dayVolume(day: LocalDay): number {
  return WEEKDAY_VOLUME[day.weekday - 1] ?? 1;
}

interface TimedCall {
  readonly startedAtMs: number;
  readonly startedAt: string;
}

/** `hourShift`: hours by which the phone's day runs earlier or later than the usual pattern. */
export function startTime(random: Random, day: LocalDay, hourShift: number): TimedCall {
  const pattern = day.weekday >= 6 ? WEEKEND_HOURS : WEEKDAY_HOURS;
  const hour = day.hours[Math.min(23, Math.max(0, pickWeighted(random, pattern) + hourShift))];
  if (hour === undefined) throw new RangeError('a local day has 24 hours');
  const minute = Math.floor(random() * 60);
  const second = Math.floor(random() * 60);
  return {
    startedAtMs: hour.startMs + (minute * 60 + second) * 1000,
    startedAt: `${hour.wallPrefix}:${twoDigits(minute)}:${twoDigits(second)}${hour.offset}`,
  };
}
