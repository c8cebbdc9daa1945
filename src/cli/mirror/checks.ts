import { MAX_COUNT, MAX_PATH_STEPS, MAX_SECONDS, type PathStep } from '../../domain/call-record';
import { CliError } from '../cli-error';
import { count as grouped, plural } from '../counts';
import type { EventsAnswer, PerformanceAnswer, ProfileAnswer, VolumeAnswer } from './answers';
import type { DayCallerCount, DayFigures, DistinctCallers, DistinctPeriod, NumberFigures, RangeFigures, RegionCalls } from './figures';

/*
 * What the source's figures must be for the calls made from them to be what it reported, and no more than
 * the run was asked to write. Each check follows from a report's definition (docs/specification.md): the
 * reports count the same calls, a day without calls has nothing else, a day's distinct callers each made
 * one of its calls, the geographic report counts the calls that have a caller. Every check is made as
 * the figures are read, before anything is written.
 */

/** The most calls a run writes, unless `--max-calls` says otherwise. */
export const DEFAULT_MAX_CALLS = 1_000_000;
/** One number's day may have this share of the run's ceiling. */
const DAY_SHARE_OF_RUN = 10;

export interface CallCeilings {
  /** The most calls of one run, over every number and day. */
  readonly perRun: number;
  /** The most calls of one number's day. */
  readonly perDay: number;
}

export function ceilingsOf(maxCalls: number): CallCeilings {
  return { perRun: maxCalls, perDay: Math.ceil(maxCalls / DAY_SHARE_OF_RUN) };
}

type Figures<Answer> = { readonly [Field in keyof Answer]: number };

/** One day of one number as the source's four series reports say it, before it becomes DayFigures. */
export interface DayReading {
  readonly day: string;
  readonly startSecond: number;
  readonly volume: Figures<VolumeAnswer>;
  readonly events: Figures<EventsAnswer>;
  readonly performance: Figures<PerformanceAnswer>;
  readonly profile: Figures<ProfileAnswer>;
}

type Report = 'volume' | 'events' | 'performance' | 'profile';
const REPORT_NAMES: Readonly<Record<Report, string>> = {
  volume: 'volume report',
  events: 'events report',
  performance: 'performance report',
  profile: 'caller profile',
};

/** How a figure goes into the calls: a count shared out, minutes shared out, or seconds each call takes whole. */
type Kind = 'count' | 'minutes' | 'average seconds';

const FIGURES: readonly { readonly report: Report; readonly field: string; readonly kind: Kind }[] = [
  { report: 'volume', field: 'call_minutes', kind: 'minutes' },
  { report: 'volume', field: 'transfers', kind: 'count' },
  { report: 'volume', field: 'transfer_minutes', kind: 'minutes' },
  { report: 'events', field: 'log_events', kind: 'count' },
  { report: 'events', field: 'loops', kind: 'count' },
  { report: 'events', field: 'form_items', kind: 'count' },
  { report: 'performance', field: 'js_errors', kind: 'count' },
  { report: 'performance', field: 'fetch_errors', kind: 'count' },
  { report: 'performance', field: 'average_page_load', kind: 'average seconds' },
  { report: 'profile', field: 'callers', kind: 'count' },
];

const MS_PER_HUNDREDTH_OF_MINUTE = 600;
const MS_PER_HUNDREDTH_OF_SECOND = 10;
const MAX_MS = MAX_SECONDS * 1000;

/** The source rounds minutes and seconds to two decimals; kept as whole hundredths, a sum of them is exact. */
const hundredths = (value: number): number => Math.round(value * 100);

/** The most one call takes of the figure, in the unit of its call record's field, against that field's bound. */
function perCall(kind: Kind, value: number, calls: number): { readonly most: number; readonly bound: number; readonly unit: string } {
  if (kind === 'count') return { most: Math.ceil(value / calls), bound: MAX_COUNT, unit: '' };
  if (kind === 'minutes') return { most: Math.ceil((hundredths(value) * MS_PER_HUNDREDTH_OF_MINUTE) / calls), bound: MAX_MS, unit: ' seconds' };
  return { most: hundredths(value) * MS_PER_HUNDREDTH_OF_SECOND, bound: MAX_MS, unit: ' seconds' };
}

function refuse(message: string): never {
  throw new CliError(message);
}

/** A day's figures, once they are found consistent with each other and within the day's ceiling. */
export function checkedDay(reading: DayReading, phone: string, ceilings: CallCeilings): DayFigures {
  const said = (report: Report, field: string, value: number) => `the source's ${REPORT_NAMES[report]} for ${phone} on ${reading.day} says ${field} = ${value}`;
  const calls = reading.volume.calls;
  if (calls > ceilings.perDay) {
    refuse(
      `${said('volume', 'calls', calls)}: above the ceiling of ${plural(ceilings.perDay, 'call')} for one number's day ` +
        `(a tenth of --max-calls, ${grouped(ceilings.perRun)}); raise --max-calls if the source is right`,
    );
  }
  for (const report of ['events', 'performance', 'profile'] as const) {
    const theirs = reading[report].calls;
    if (theirs !== calls) {
      refuse(
        `${said(report, 'calls', theirs)}, but its volume report says calls = ${calls}: the reports disagree ` +
          '(did its data change between two requests? end the range yesterday)',
      );
    }
  }
  for (const { report, field, kind } of FIGURES) {
    const value = (reading[report] as Readonly<Record<string, number>>)[field] ?? 0;
    if (calls === 0) {
      if (value !== 0) refuse(`${said(report, field, value)}, but its volume report says calls = 0: a day without calls has 0 of every figure`);
      continue;
    }
    const { most, bound, unit } = perCall(kind, value, calls);
    if (most > bound) {
      const each = kind === 'average seconds' ? 'for each call' : `over ${plural(calls, 'call')}`;
      refuse(`${said(report, field, value)}: ${each}, more than ${grouped(bound)}${unit} a call, the most a call record holds`);
    }
  }
  if (reading.profile.callers > calls) {
    refuse(`${said('profile', 'callers', reading.profile.callers)}, but its volume report says calls = ${calls}: a day's distinct callers are at most its calls`);
  }
  return {
    day: reading.day,
    startSecond: reading.startSecond,
    calls,
    logEvents: reading.events.log_events,
    loops: reading.events.loops,
    formItems: reading.events.form_items,
    transfers: reading.volume.transfers,
    jsErrors: reading.performance.js_errors,
    fetchErrors: reading.performance.fetch_errors,
    callers: reading.profile.callers,
    callMinuteHundredths: hundredths(reading.volume.call_minutes),
    transferMinuteHundredths: hundredths(reading.volume.transfer_minutes),
    pageLoadHundredths: hundredths(reading.performance.average_page_load),
  };
}

function daysIn(days: readonly DayFigures[], stretch: RangeFigures<unknown>): { calls: number; callers: number } {
  const within = days.filter((day) => day.day >= stretch.start && day.day <= stretch.end);
  return { calls: within.reduce((sum, day) => sum + day.calls, 0), callers: within.reduce((sum, day) => sum + day.callers, 0) };
}

/** The geographic report counts the calls that have a caller: at most the days' calls, at least one per distinct caller of each day. */
export function checkRegions(phone: string, stretch: RangeFigures<readonly RegionCalls[]>, days: readonly DayFigures[]): void {
  const placed = stretch.value.reduce((sum, entry) => sum + entry.calls, 0);
  const { calls, callers } = daysIn(days, stretch);
  const where = `for ${phone} over ${stretch.start}-${stretch.end}`;
  if (placed > calls) {
    refuse(`the source's geographic report ${where} counts ${plural(placed, 'call')}, but its volume report ${plural(calls, 'call')} over those days: a region's calls are calls of those days`);
  }
  if (callers > placed) {
    refuse(
      `the source's caller profile ${where} says ${plural(callers, 'distinct caller')} (the days' sum), but its geographic report counts ` +
        `${plural(placed, 'call')} with a caller: each caller of a day made at least one`,
    );
  }
}

/** Each form item of the flow goes onto one call of its days, and a call goes through at most MAX_PATH_STEPS. */
export function checkFlow(phone: string, stretch: RangeFigures<readonly PathStep[]>, days: readonly DayFigures[]): void {
  const { calls } = daysIn(days, stretch);
  if (stretch.value.length > calls * MAX_PATH_STEPS) {
    refuse(
      `the source's diagnostic flow for ${phone} over ${stretch.start}-${stretch.end} has ${plural(stretch.value.length, 'form item')}, ` +
        `but its volume report ${plural(calls, 'call')} over those days: a call goes through at most ${grouped(MAX_PATH_STEPS)}`,
    );
  }
}

/**
 * Distinct callers over a period are at least its busiest part's (each of them called in the period) and
 * at most its parts' sum (each called in some part): for a week's days within a month, its days; for a
 * week or a month, those pieces. Each week and month is made of whole pieces, unless the source's weeks
 * moved between two of its answers.
 */
export function checkDistinctCallers(phone: string, days: readonly DayCallerCount[], distinct: DistinctCallers): void {
  const dayPeriods = days.map((day, index) => ({ first: index, last: index, callers: day.callers }));
  const named = (period: DistinctPeriod) => `${days[period.first]?.day ?? ''}-${days[period.last]?.day ?? ''}`;
  const check = (kind: string, periods: readonly DistinctPeriod[], parts: readonly DistinctPeriod[], partKind: string) => {
    for (const period of periods) {
      const inside = parts.filter((part) => part.first >= period.first && part.last <= period.last);
      const covered = inside.reduce((sum, part) => sum + part.last - part.first + 1, 0);
      if (covered !== period.last - period.first + 1) {
        refuse(`the source's caller profile by ${kind} for ${phone} has a ${kind} of ${named(period)} that its answer by ${partKind} cuts otherwise: its weeks moved between two answers`);
      }
      const [least, most] = [Math.max(0, ...inside.map((part) => part.callers)), inside.reduce((sum, part) => sum + part.callers, 0)];
      if (period.callers < least || period.callers > most) {
        refuse(
          `the source's caller profile by ${kind} for ${phone} says callers = ${grouped(period.callers)} over ${named(period)}, where its ${partKind}s ` +
            `have ${grouped(least)} to ${grouped(most)}: a period's distinct callers are at least its busiest ${partKind}'s and at most their sum`,
        );
      }
    }
  };
  check('week', distinct.pieces, dayPeriods, 'day');
  check('week', distinct.weeks, distinct.pieces, 'week within a month');
  check('month', distinct.months, distinct.pieces, 'week within a month');
}

/** The calls read so far, against the run's ceiling: refused as soon as they pass it, before more is read. */
export class RunTally {
  private calls = 0;
  private readonly phones: string[] = [];

  constructor(
    private readonly ceilings: CallCeilings,
    private readonly range: string,
  ) {}

  add(phone: string, days: readonly DayFigures[]): void {
    if (!this.phones.includes(phone)) this.phones.push(phone);
    this.calls += days.reduce((sum, day) => sum + day.calls, 0);
    if (this.calls > this.ceilings.perRun) {
      refuse(
        `the source's volume reports for ${this.phones.join(', ')} over ${this.range} say calls = ${grouped(this.calls)} or more in all: ` +
          `above the ceiling of ${plural(this.ceilings.perRun, 'call')} a run (--max-calls); raise --max-calls if the source is right`,
      );
    }
  }
}

/**
 * The account's distinct callers over a period (ALL) are at least its busiest number's and at most the
 * numbers' sum: each of a number's callers is one of the account's, and each of the account's called one of
 * them. ALL's periods are the numbers' (the same weeks and months).
 */
export function checkAccountCallers(days: readonly DayCallerCount[], all: DistinctCallers, numbers: readonly NumberFigures[]): void {
  const named = (period: DistinctPeriod) => `${days[period.first]?.day ?? ''}-${days[period.last]?.day ?? ''}`;
  const levels = (counts: readonly DayCallerCount[], distinct: DistinctCallers) => [counts.map((day, index) => ({ first: index, last: index, callers: day.callers })), distinct.pieces, distinct.weeks, distinct.months];
  const byNumber = numbers.map((figures) => levels(figures.days, figures.callers));
  levels(days, all).forEach((periods, level) => {
    const kind = ['day', 'week within a month', 'week', 'month'][level] ?? '';
    periods.forEach((period, index) => {
      const parts = byNumber.map((numberLevels) => numberLevels[level]?.[index]);
      if (parts.some((part) => part?.first !== period.first || part.last !== period.last)) {
        refuse(`the source's caller profile by ${kind} for ALL has a ${kind} of ${named(period)} that its numbers' cut otherwise: its weeks moved between two answers`);
      }
      const [least, most] = [Math.max(0, ...parts.map((part) => part?.callers ?? 0)), parts.reduce((sum, part) => sum + (part?.callers ?? 0), 0)];
      if (period.callers < least || period.callers > most) {
        refuse(
          `the source's caller profile by ${kind} for ALL says callers = ${grouped(period.callers)} over ${named(period)}, where its numbers' ` +
            `have ${grouped(least)} to ${grouped(most)}: the account's distinct callers are at least its busiest number's and at most their sum`,
        );
      }
    });
  });
}
