import { setTimeout as sleep } from 'node:timers/promises';
import { DateTime } from 'luxon';
import {
  ApiError,
  createClient,
  InvalidRequestError,
  NetworkError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  UnexpectedResponseError,
  type Fetch,
  type ReportingClient,
  type Tool,
} from 'ivr-reporting/client';
import { pathStepCounters, type PathStep } from '../../domain/call-record';
import { UNKNOWN_REGION, US_TOLL_FREE } from '../../domain/caller-region';
import { systemClock, type Clock } from '../../time/clock';
import { CliError } from '../cli-error';
import { count, plural } from '../counts';
import {
  checkedAnswer,
  eventsAnswer,
  flowAnswer,
  geographicAnswer,
  over,
  performanceAnswer,
  profileAnswer,
  shown,
  TOLL_FREE_KEY,
  volumeAnswer,
  type AnswerPlace,
  type FlowAnswer,
  type GeographicAnswer,
  type ProfileAnswer,
  type VolumeAnswer,
} from './answers';
import { boundedFetch } from './bounded-fetch';
import { checkAccountCallers, checkDistinctCallers, checkedDay, checkFlow, checkRegions, RunTally, type CallCeilings, type DayReading } from './checks';
import type { AccountCallerFigures, DayCallerCount, DayFigures, DayStart, DistinctCallers, DistinctPeriod, NumberFigures, RangeFigures, RegionCalls, SourceFigures } from './figures';
import type { MirrorProgress } from './progress';

export interface SourceAccount {
  readonly baseUrl: string;
  readonly tool: Tool;
  readonly login: string;
  readonly password: string;
}

export interface SourceOptions {
  /** The longest the run may wait for one request, for rate-limit windows to end and to send it again after failures. */
  readonly maxWaitMs: number;
  /** Days per request; undefined: the whole range, until the source says how many it takes. */
  readonly spanDays: number | undefined;
  /** Over what the geographic and flow reports are read: each month (exact over every month), or each span (fewer requests). */
  readonly stretch: Stretch;
  /** The most calls the figures read may add up to, per run and per number's day. */
  readonly ceilings: CallCeilings;
  /** The most read of one answer. */
  readonly maxResponseBytes: number;
}

/** The time the source's waits take: the real one, or a test's, in which a wait takes none. */
export interface SourceTime extends Clock {
  sleep(ms: number): Promise<void>;
}

export const REAL_TIME: SourceTime = { now: () => systemClock.now(), sleep: (ms) => sleep(ms) };

export const STRETCHES = ['month', 'range'] as const;
export type Stretch = (typeof STRETCHES)[number];

/** The first span's call volume of a number, read before any other report, and the second each of its days starts. */
interface FirstVolume {
  readonly span: readonly string[];
  readonly volume: VolumeAnswer;
  readonly starts: readonly number[];
}

/** The requests made, and what the source's answers said of its data rate limit (`X-RateLimit-Limit`, per window). */
export interface SourceLimits {
  /** Requests for reports, which the data rate limit counts. */
  readonly requests: number;
  /** Requests to `POST /api/auth`, which its own limit counts. */
  readonly logins: number;
  readonly limit: number | undefined;
}

const FIRST_FORMAT = 'yyyyMMdd';
const SECOND_MS = 1000;
/** A report of a year of a busy number takes well under a second here; a source silent this long is stuck, not slow. */
const REQUEST_TIMEOUT_MS = 120_000;
/** A local day starts this near its UTC midnight: time zones run from UTC-12 to UTC+14. */
const EARLIEST_START_SECONDS = -14 * 3600;
const LATEST_START_SECONDS = 12 * 3600;
const DAY_KEY = /^\d{1,12}$/;
/** A failure of the source's that the same request may not meet again: its own error, a gateway's, an outage, a gateway's timeout. */
const RETRIED_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);
/** How many times in a row one request is sent again after a failure before the run stops. */
export const MOST_RETRIES = 5;
/** The reporting API's name for every number of the account. */
const ALL = 'ALL';
/** The wait before sending again after a failure without Retry-After: it doubles after each, up to the longest. */
const FIRST_RETRY_WAIT_MS = 1000;
const LONGEST_RETRY_WAIT_MS = 30_000;
/** The client's shortest wait for a 429, and so the failures': a source that says 0 is not asked again in a loop. */
const SHORTEST_WAIT_MS = 1000;
const RATE_LIMIT_WAIT = 'for its rate limit';

/** Every local day from start to end, both included, as `YYYYMMDD`. */
export function daysOf(start: string, end: string): string[] {
  const days: string[] = [];
  const last = DateTime.fromFormat(end, FIRST_FORMAT, { zone: 'UTC' });
  for (let day = DateTime.fromFormat(start, FIRST_FORMAT, { zone: 'UTC' }); day <= last; day = day.plus({ days: 1 })) {
    days.push(day.toFormat(FIRST_FORMAT));
  }
  return days;
}

function spansOf(days: readonly string[], spanDays: number): string[][] {
  const spans: string[][] = [];
  for (let first = 0; first < days.length; first += spanDays) spans.push(days.slice(first, first + spanDays));
  return spans;
}

function ends(days: readonly string[]): { start: string; end: string } {
  return { start: days[0] ?? '', end: days[days.length - 1] ?? '' };
}

function refuse(message: string): never {
  throw new CliError(message);
}

/**
 * The second each day of a series starts, as its keys say: one key per day asked, each near the day's UTC
 * midnight, so that no figure is taken for a day the run did not ask for.
 */
function dayStarts(series: Readonly<Record<string, number>>, field: string, place: AnswerPlace): number[] {
  const keys = Object.keys(series);
  const source = `the source's ${place.report} for ${place.phone}`;
  if (keys.length !== place.days.length) {
    refuse(`${source} over ${over(place)} has ${field} of ${plural(keys.length, 'day')}, where the range asked has ${place.days.length}`);
  }
  return keys.map((key, index) => {
    const day = place.days[index] ?? '';
    const midnight = DateTime.fromFormat(day, FIRST_FORMAT, { zone: 'UTC' }).toSeconds();
    const second = DAY_KEY.test(key) ? Number(key) : Number.NaN;
    if (!(second >= midnight + EARLIEST_START_SECONDS && second <= midnight + LATEST_START_SECONDS)) {
      const starting = Number.isNaN(second) ? `keyed ${shown(key)}` : `starting at ${DateTime.fromSeconds(second, { zone: 'UTC' }).toISO({ suppressMilliseconds: true }) ?? key}`;
      refuse(`${source} over ${over(place)} has, in place of ${day}, ${field} of a day ${starting}: no day of the range asked starts then`);
    }
    return second;
  });
}

/** Every series of a report keyed at the same seconds as the volume report's calls: the reports count the same days. */
function checkSameDays(answer: Readonly<Record<string, Readonly<Record<string, number>>>>, starts: readonly number[], place: AnswerPlace): void {
  for (const [field, series] of Object.entries(answer)) {
    dayStarts(series, field, place).forEach((second, index) => {
      if (second !== starts[index]) {
        refuse(
          `the source's ${place.report} for ${place.phone} on ${place.days[index] ?? ''} keys ${field} at ${second}, where its volume report's calls ` +
            `has ${starts[index] ?? ''}: the reports disagree on when the day starts`,
        );
      }
    });
  }
}

/**
 * The periods of a caller profile by week or month over days `from` to `to`: keyed by each period's start,
 * the first at or before the first day, the others each at the start of a day of the span, in order; each
 * counting the calls its days' volume reports count.
 */
function periodsOf(answer: ProfileAnswer, days: readonly DayCallerCount[], from: number, to: number, place: AnswerPlace): DistinctPeriod[] {
  const source = `the source's ${place.report} for ${place.phone} over ${over(place)}`;
  const keys = Object.keys(answer.callers);
  const firsts = keys.map((key, index) => {
    const second = DAY_KEY.test(key) ? Number(key) : Number.NaN;
    if (index === 0 && second <= (days[from]?.startSecond ?? 0) && second > (days[from]?.startSecond ?? 0) - 32 * 86_400) return from;
    const day = days.findIndex((candidate, at) => at > from && at <= to && candidate.startSecond === second);
    if (day === -1) refuse(`${source} keys a ${place.period ?? 'period'} ${shown(key)}: no ${place.period ?? 'period'} of the range asked starts then`);
    return day;
  });
  if (firsts.length === 0 || firsts.some((first, index) => index > 0 && first <= (firsts[index - 1] ?? 0))) {
    refuse(`${source} keys its ${place.period ?? 'period'}s ${shown(keys)}: not one per ${place.period ?? 'period'}, in order, from the first day`);
  }
  return firsts.map((first, index) => {
    const last = (firsts[index + 1] ?? to + 1) - 1;
    const key = keys[index] ?? '';
    const calls = days.slice(first, last + 1).reduce((sum, day) => sum + day.calls, 0);
    if (answer.calls[key] !== calls) {
      const named = `${days[first]?.day ?? ''}-${days[last]?.day ?? ''}`;
      refuse(`${source} counts ${plural(answer.calls[key] ?? 0, 'call')} over ${named}, where its volume report counts ${plural(calls, 'call')}: the reports count the same calls`);
    }
    return { first, last, callers: answer.callers[key] ?? 0 };
  });
}

/**
 * Whether day `index` starts a week or a month, so that the periods read up to it are whole: a month
 * starts on its first day; a week on the weekday the source's weeks start on, as a period read after its
 * first says (unknown from one period alone).
 */
function startsPeriod(days: readonly DayCallerCount[], index: number, read: readonly DistinctPeriod[], period: 'week' | 'month'): boolean {
  const day = days[index]?.day;
  if (day === undefined) return false;
  if (period === 'month') return day.endsWith('01');
  const weekStart = read[1] === undefined ? undefined : days[read[1].first]?.day;
  return weekStart !== undefined && weekdayOf(weekStart) === weekdayOf(day);
}

function weekdayOf(day: string): number {
  return DateTime.fromFormat(day, FIRST_FORMAT, { zone: 'UTC' }).weekday;
}

function regionsOf(report: GeographicAnswer): RegionCalls[] {
  const states = Object.entries(report.US).map(([code, calls]) => ({ region: code === TOLL_FREE_KEY ? US_TOLL_FREE : `US-${code}`, calls }));
  const countries = report.NON_US.map(({ country, calls }) => ({ region: country === 'ZZ' ? UNKNOWN_REGION : country, calls }));
  return [...states, ...countries].filter((entry) => entry.calls > 0);
}

function stepsOf(report: FlowAnswer): PathStep[] {
  return Object.entries(report.applications).flatMap(([application, entries]) =>
    entries.map((entry) => ({
      application,
      page: entry.page,
      form: entry.form,
      item: entry.item,
      ...pathStepCounters((counter) => entry[counter]),
    })),
  );
}

/** "at most 366 days can be asked for at once": this server's words; another server may say nothing usable. */
function spanNamedIn(message: string): number | undefined {
  const named = /at most (\d+) days/.exec(message)?.[1];
  return named === undefined ? undefined : Number(named);
}

/** Why fetch failed: the code of its cause (ECONNRESET, UND_ERR_SOCKET, ...), else what it says. */
function reasonOf(error: NetworkError): string {
  const failed = error.cause as { name?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined;
  if (typeof failed?.cause?.code === 'string') return failed.cause.code;
  if (typeof failed?.cause?.message === 'string') return failed.cause.message;
  return typeof failed?.message === 'string' ? failed.message : error.message;
}

/** A failure worth sending the request again for, and what to call it; undefined for any other error. */
interface Failure {
  readonly what: string;
  readonly retryAfterSeconds: number | undefined;
}

/**
 * A 500, 502, 503 or 504 (for the login too: it changes nothing that another login would not), or a
 * connection lost or refused while sending a report, a GET. Not a login's (a POST), nor the end of
 * REQUEST_TIMEOUT_MS (a source silent that long is stuck), nor a refusal of boundedFetch's.
 */
function failureOf(error: unknown): Failure | undefined {
  if (error instanceof ServerError && RETRIED_STATUSES.has(error.status)) return { what: `its ${error.status}`, retryAfterSeconds: error.retryAfterSeconds };
  if (!(error instanceof NetworkError) || error.url.endsWith('/api/auth')) return undefined;
  const cause = error.cause as { name?: unknown } | undefined;
  if (cause instanceof CliError || cause?.name === 'TimeoutError') return undefined;
  return { what: reasonOf(error), retryAfterSeconds: undefined };
}

/** A failure still there after MOST_RETRIES, or whose next wait would take the request past `maxWaitMs`. */
class StillFailing extends Error {
  constructor(
    readonly failure: unknown,
    readonly why: string,
  ) {
    super(why);
  }
}

/** A 429's wait that would take the request past `maxWaitMs`, after it waited to send again after failures. */
class RateLimitPastBound extends Error {
  constructor(
    readonly waitMs: number,
    readonly waitedMs: number,
  ) {
    super('rate-limit wait past the bound');
  }
}

const seconds = (ms: number) => `${count(Math.ceil(ms / SECOND_MS))} s`;

/**
 * Reads what a mirror needs of a reporting API, through the typed client: it authenticates, authenticates
 * again after a 401, waits out 429s, and sends a request again after the source's failures (failureOf),
 * at most MOST_RETRIES times in a row, each request waiting at most `maxWaitMs` in all. A refusal the run
 * cannot get past becomes a CliError that names it.
 */
export class Source {
  private readonly client: ReportingClient;
  private requests = 0;
  private logins = 0;
  private limit: number | undefined;
  private spanDays: number | undefined;
  private readonly spanDaysGiven: boolean;
  private readonly stretch: Stretch;
  private readonly ceilings: CallCeilings;
  private readonly maxWaitMs: number;
  /** What the request being read has waited so far, for the rate limit and after failures. */
  private waitedMs = 0;
  private readonly unread = new Set<'week' | 'month'>();
  private allOfOthers = false;

  constructor(
    private readonly account: SourceAccount,
    options: SourceOptions,
    private readonly progress: MirrorProgress,
    private readonly time: SourceTime = REAL_TIME,
  ) {
    this.spanDays = options.spanDays;
    this.spanDaysGiven = options.spanDays !== undefined;
    this.maxWaitMs = options.maxWaitMs;
    this.stretch = options.stretch;
    this.ceilings = options.ceilings;
    const bounded = boundedFetch({ maxBytes: options.maxResponseBytes, timeoutMs: REQUEST_TIMEOUT_MS });
    const counted: Fetch = async (url, init) => {
      const login = url.endsWith('/api/auth');
      if (login) this.logins += 1;
      else this.requests += 1;
      this.progress.requested(this.requests + this.logins);
      const response = await bounded(url, init);
      const limit = Number(response.headers.get('x-ratelimit-limit') ?? Number.NaN);
      if (!login && Number.isSafeInteger(limit)) this.limit = limit;
      return response;
    };
    this.client = createClient({
      ...account,
      maxRateLimitWaitMs: options.maxWaitMs,
      maxKeptReports: 0,
      // The mirror retries failures itself, each wait shown and counted against --max-wait-minutes.
      retry: false,
      fetch: counted,
      sleep: (ms) => this.waitForRateLimit(ms),
      now: () => this.time.now(),
    });
  }

  limits(): SourceLimits {
    return { requests: this.requests, logins: this.logins, limit: this.limit };
  }

  /**
   * Every number's figures over the range, each checked as it is read (answers.ts, checks.ts). A number
   * the account does not own is refused before the others are read, and `checkDayStarts` sees the first
   * span's days (where the source says each starts) first, then every span's.
   */
  async read(phones: readonly string[], start: string, end: string, checkDayStarts: (days: readonly DayStart[]) => void): Promise<SourceFigures> {
    const days = daysOf(start, end);
    const firstVolumes = new Map<string, FirstVolume>();
    for (const phone of phones) {
      const first = await this.firstVolume(phone, days);
      if (firstVolumes.size === 0) checkDayStarts(first.starts.map((startSecond, index) => ({ day: first.span[index] ?? '', startSecond })));
      firstVolumes.set(phone, first);
    }
    const tally = new RunTally(this.ceilings, `${start}-${end}`);
    const figures: NumberFigures[] = [];
    for (const phone of phones) figures.push(await this.readNumber(phone, days, firstVolumes.get(phone), checkDayStarts, tally));
    return { numbers: figures, all: figures.length > 1 ? await this.accountCallers(figures) : undefined };
  }

  /**
   * The account's distinct callers (ALL) by day, week within a month, week and month, read as a number's
   * are; undefined when the source's ALL counts calls of numbers other than these, whose callers the run
   * does not know (the summary says so).
   */
  private async accountCallers(numbers: readonly NumberFigures[]): Promise<AccountCallerFigures | undefined> {
    const days = numbers[0]?.days ?? [];
    const counts: DayCallerCount[] = [];
    for (const span of spansOf(days.map((day) => day.day), this.spanDays ?? days.length)) {
      const range = ends(span);
      const place: AnswerPlace = { report: 'caller profile', phone: ALL, days: span };
      const profile = checkedAnswer(profileAnswer, await this.ask(ALL, range, () => this.client.callerProfile({ ...range, period: 'day', phone: ALL })), place);
      const spanDays = days.slice(counts.length, counts.length + span.length);
      checkSameDays(profile, spanDays.map((day) => day.startSecond), place);
      for (const day of spanDays) {
        const key = String(day.startSecond);
        const [calls, callers] = [profile.calls[key] ?? 0, profile.callers[key] ?? 0];
        const numbersCalls = numbers.reduce((sum, number) => sum + (number.days[counts.length]?.calls ?? 0), 0);
        if (calls > numbersCalls) {
          this.allOfOthers = true;
          return undefined;
        }
        if (calls < numbersCalls) refuse(`the source's caller profile for ALL on ${day.day} says calls = ${count(calls)}, where its numbers' volume reports count ${plural(numbersCalls, 'call')} in all: ALL counts every number's calls`);
        counts.push({ day: day.day, startSecond: day.startSecond, calls, callers });
      }
    }
    const distinct = await this.distinctCallers(ALL, counts);
    checkAccountCallers(counts, distinct, numbers);
    return { days: counts.map((day) => ({ callers: day.callers })), ...distinct };
  }

  /** Whether the source's ALL counts calls of numbers the run did not mirror, so that ALL's callers were not planned. */
  allCountsOthers(): boolean {
    return this.allOfOthers;
  }

  /**
   * Call volume over the first span, asked first for every number: a number the source refuses stops the
   * run before anything else is read, and a range longer than the source takes is cut to the span it names.
   */
  private async firstVolume(phone: string, days: readonly string[]): Promise<FirstVolume> {
    for (;;) {
      const span = spansOf(days, this.spanDays ?? days.length)[0] ?? [];
      try {
        const place = { report: 'volume report', phone, days: span };
        const volume = checkedAnswer(volumeAnswer, await this.retried(() => this.client.volume({ ...ends(span), period: 'day', phone })), place);
        return { span, volume, starts: dayStarts(volume.calls, 'calls', place) };
      } catch (error) {
        if (!(error instanceof InvalidRequestError) || error.code !== 'IVR_RANGE_TOO_LONG') throw this.explained(error, phone, ends(span), span.length);
        this.learnSpan(error, span.length);
      }
    }
  }

  /** After the source's IVR_RANGE_TOO_LONG, the span it names; a CliError when it names none that would help. */
  private learnSpan(error: InvalidRequestError, asked: number): void {
    const named = spanNamedIn(error.message);
    if (named === undefined || named < 1 || named >= asked) {
      const pass = this.spanDaysGiven ? 'pass a smaller --span-days' : 'pass --span-days';
      throw new CliError(`the source refused ${plural(asked, 'day')} at once ("${error.message}") without saying how many it takes: ${pass}`);
    }
    this.spanDays = named;
  }

  /** The stretches over which the geographic and flow reports are read: the span, or each month's days of it. */
  private stretchesOf(span: readonly string[]): string[][] {
    if (this.stretch === 'range') return [[...span]];
    const months = new Map<string, string[]>();
    for (const day of span) {
      const month = months.get(day.slice(0, 6));
      if (month === undefined) months.set(day.slice(0, 6), [day]);
      else month.push(day);
    }
    return [...months.values()];
  }

  private async readNumber(
    phone: string,
    days: readonly string[],
    firstVolume: FirstVolume | undefined,
    checkDayStarts: (days: readonly DayStart[]) => void,
    tally: RunTally,
  ): Promise<NumberFigures> {
    const figures: DayFigures[] = [];
    const regions: RangeFigures<readonly RegionCalls[]>[] = [];
    const flow: RangeFigures<readonly PathStep[]>[] = [];
    for (const [index, span] of spansOf(days, this.spanDays ?? days.length).entries()) {
      const spanFigures = await this.dayFigures(phone, span, index === 0 ? firstVolume : undefined, checkDayStarts);
      tally.add(phone, spanFigures);
      figures.push(...spanFigures);
      for (const stretch of this.stretchesOf(span)) {
        const range = ends(stretch);
        const geographic = await this.ask(phone, range, () => this.client.geographic({ ...range, phone }));
        const stretchRegions = { ...range, value: regionsOf(checkedAnswer(geographicAnswer, geographic, { report: 'geographic report', phone, days: stretch })) };
        checkRegions(phone, stretchRegions, figures);
        regions.push(stretchRegions);
        for (const part of await this.flowOf(phone, stretch)) {
          checkFlow(phone, part, figures);
          flow.push(part);
        }
      }
    }
    return { phone, days: figures, regions, flow, callers: await this.distinctCallers(phone, figures) };
  }

  /**
   * Distinct callers over each week and each month of the range, and over each week's days within a month
   * (what a report over one month by week counts), each checked against the days' and the others.
   */
  private async distinctCallers(phone: string, days: readonly DayCallerCount[]): Promise<DistinctCallers> {
    const months = new Map<string, { first: number; last: number; callers: number }>();
    days.forEach((day, index) => {
      const month = months.get(day.day.slice(0, 6));
      if (month === undefined) months.set(day.day.slice(0, 6), { first: index, last: index, callers: 0 });
      else month.last = index;
    });
    let pieces: DistinctPeriod[] | undefined = [];
    for (const month of months.values()) {
      const read = await this.periodCallers(phone, days, month, 'week');
      pieces = read === undefined ? undefined : [...(pieces ?? []), ...read];
      if (pieces === undefined) break;
    }
    const range = { first: 0, last: days.length - 1 };
    // A source that takes fewer days at once than a week, or a month, has: its days stand for the weeks'
    // pieces, and each month's callers are taken as its pieces' sum (summary.ts says so).
    const weeks = pieces === undefined ? undefined : await this.periodCallers(phone, days, range, 'week');
    const known = pieces ?? days.map((day, index) => ({ first: index, last: index, callers: day.callers }));
    const summed = [...months.values()].map((month) => ({ ...month, callers: known.filter((piece) => piece.first >= month.first && piece.last <= month.last).reduce((sum, piece) => sum + piece.callers, 0) }));
    const distinct = { pieces: known, weeks: weeks ?? known, months: (await this.periodCallers(phone, days, range, 'month')) ?? summed };
    checkDistinctCallers(phone, days, distinct);
    return distinct;
  }

  /** The periods whose distinct callers the source could not be asked for whole, its span being shorter. */
  unreadPeriods(): readonly ('week' | 'month')[] {
    return [...this.unread];
  }

  /**
   * The caller profile by week or month over days `first` to `last`, in spans the source takes, each of
   * whole periods: a span's last period, which it may cut, is asked again as the next span's first.
   * Undefined when a period is longer than the source takes at once.
   */
  private async periodCallers(phone: string, days: readonly DayCallerCount[], within: { first: number; last: number }, period: 'week' | 'month'): Promise<DistinctPeriod[] | undefined> {
    const periods: DistinctPeriod[] = [];
    for (let from = within.first; from <= within.last; ) {
      const to = Math.min(within.last, from + (this.spanDays ?? days.length) - 1);
      const span = days.slice(from, to + 1).map((day) => day.day);
      const range = ends(span);
      const place: AnswerPlace = { report: `caller profile by ${period}`, phone, days: span, period };
      const answer = checkedAnswer(profileAnswer, await this.ask(phone, range, () => this.client.callerProfile({ ...range, period, phone })), place);
      const read = periodsOf(answer, days, from, to, place);
      const whole = to === within.last || startsPeriod(days, to + 1, read, period) ? read : read.slice(0, -1);
      const last = whole[whole.length - 1];
      if (last === undefined) {
        this.unread.add(period);
        return undefined;
      }
      periods.push(...whole);
      from = last.last + 1;
    }
    return periods;
  }

  /** The span's days, each checked: the four reports' answers, the days they key, and each day's figures against each other. */
  private async dayFigures(
    phone: string,
    span: readonly string[],
    known: FirstVolume | undefined,
    checkDayStarts: (days: readonly DayStart[]) => void,
  ): Promise<DayFigures[]> {
    const params = { ...ends(span), period: 'day' as const, phone };
    const range = ends(span);
    const place = (report: string): AnswerPlace => ({ report, phone, days: span });
    const volume: VolumeAnswer = known?.volume ?? checkedAnswer(volumeAnswer, await this.ask(phone, range, () => this.client.volume(params)), place('volume report'));
    const events = checkedAnswer(eventsAnswer, await this.ask(phone, range, () => this.client.events(params)), place('events report'));
    const performance = checkedAnswer(performanceAnswer, await this.ask(phone, range, () => this.client.performance(params)), place('performance report'));
    const profile = checkedAnswer(profileAnswer, await this.ask(phone, range, () => this.client.callerProfile(params)), place('caller profile'));
    const starts = known?.starts ?? dayStarts(volume.calls, 'calls', place('volume report'));
    checkDayStarts(starts.map((startSecond, index) => ({ day: span[index] ?? '', startSecond })));
    checkSameDays(volume, starts, place('volume report'));
    checkSameDays(events, starts, place('events report'));
    checkSameDays(performance, starts, place('performance report'));
    checkSameDays(profile, starts, place('caller profile'));
    const on = <Answer extends Readonly<Record<string, Readonly<Record<string, number>>>>>(answer: Answer, key: string) =>
      Object.fromEntries(Object.entries(answer).map(([field, series]) => [field, series[key] ?? 0])) as { [Field in keyof Answer]: number };
    return span.map((day, index) => {
      const key = String(starts[index]);
      const reading: DayReading = {
        day,
        startSecond: starts[index] ?? 0,
        volume: on(volume, key),
        events: on(events, key),
        performance: on(performance, key),
        profile: on(profile, key),
      };
      return checkedDay(reading, phone, this.ceilings);
    });
  }

  /** The flow of the span, halved until the source takes it: it refuses a range of too many form items at once. */
  private async flowOf(phone: string, span: readonly string[]): Promise<RangeFigures<readonly PathStep[]>[]> {
    const range = ends(span);
    try {
      const answer = checkedAnswer(flowAnswer, await this.retried(() => this.client.flow({ ...range, phone })), { report: 'diagnostic flow', phone, days: span });
      return [{ ...range, value: stepsOf(answer) }];
    } catch (error) {
      if (!(error instanceof InvalidRequestError) || error.code !== 'IVR_FLOW_TOO_LARGE' || span.length === 1) throw this.explained(error, phone, range);
      const half = Math.ceil(span.length / 2);
      return [...(await this.flowOf(phone, span.slice(0, half))), ...(await this.flowOf(phone, span.slice(half)))];
    }
  }

  private async ask<Report>(phone: string, range: { start: string; end: string }, request: () => Promise<Report>): Promise<Report> {
    try {
      return await this.retried(request);
    } catch (error) {
      throw this.explained(error, phone, range);
    }
  }

  /** One request's answer, sent again after each failure of the source's while the retries and the wait allow. */
  private async retried<Report>(request: () => Promise<Report>): Promise<Report> {
    this.waitedMs = 0;
    for (let retries = 0; ; retries += 1) {
      try {
        return await request();
      } catch (error) {
        const failure = failureOf(error);
        if (failure === undefined) throw error;
        if (retries === MOST_RETRIES) throw new StillFailing(error, `still after ${MOST_RETRIES} retries, over ${seconds(this.waitedMs)} of waits: run again later`);
        const waitMs =
          failure.retryAfterSeconds === undefined
            ? Math.min(LONGEST_RETRY_WAIT_MS, FIRST_RETRY_WAIT_MS * 2 ** retries)
            : Math.max(SHORTEST_WAIT_MS, failure.retryAfterSeconds * SECOND_MS);
        if (this.waitedMs + waitMs > this.maxWaitMs) {
          throw new StillFailing(error, `sending it again after ${seconds(waitMs)} more would take the request's waits past --max-wait-minutes: run again later, or allow a longer wait`);
        }
        await this.wait(waitMs, `to retry after ${failure.what} (${retries + 1} of ${MOST_RETRIES})`);
      }
    }
  }

  private explained(error: unknown, phone?: string, range?: { start: string; end: string }, firstSpanDays?: number): unknown {
    const from = `${this.account.baseUrl} (${this.account.tool}/${this.account.login})`;
    const asked = phone === undefined || range === undefined ? '' : ` for ${phone} over ${range.start}-${range.end}`;
    if (error instanceof StillFailing) {
      const explained = this.explained(error.failure, phone, range);
      return explained instanceof CliError ? new CliError(`${explained.message}; ${error.why}`) : explained;
    }
    if (error instanceof RateLimitPastBound) {
      return new CliError(
        `the source's rate limit${asked}: waiting ${seconds(error.waitMs)} more, after ${seconds(error.waitedMs)} of waits to send the request again after failures, ` +
          'would take it past --max-wait-minutes; run again later, or allow a longer wait',
      );
    }
    if (error instanceof CliError) return error;
    // A refusal of boundedFetch's, which the client hands on as a failure to reach the source.
    if (error instanceof NetworkError && error.cause instanceof CliError) return error.cause;
    if (error instanceof InvalidRequestError && error.code === 'IVR_PHONE_NOT_OWNED') {
      return new CliError(`${phone ?? 'a number'} is not a number of ${from}: the source says "${error.message}"`);
    }
    if (error instanceof UnauthorizedError) return new CliError(`the source ${from} refused the login: "${error.message}"; check --tool, --login and --password`);
    if (error instanceof RateLimitedError) {
      const reset = error.resetAt === undefined ? 'later' : `at ${error.resetAt.toISOString()}`;
      return new CliError(`the source's rate limit${asked}: its window ends ${reset}, after --max-wait-minutes; run again then, or allow a longer wait`);
    }
    if (error instanceof ApiError) {
      const refused = `the source ${from} refused the request${asked} (${error.status}${error.code === undefined ? '' : ` ${error.code}`}): "${error.message}"`;
      // A server without this one's codes may refuse a range too long for it in words of its own.
      const spanHint = firstSpanDays !== undefined && firstSpanDays > 1 && error.status === 400 && error.code === undefined && !this.spanDaysGiven;
      return new CliError(spanHint ? `${refused}; if it takes fewer than ${firstSpanDays} days at once, pass --span-days` : refused);
    }
    if (error instanceof NetworkError) return new CliError(`cannot reach the source at ${this.account.baseUrl}: ${reasonOf(error)}`);
    if (error instanceof UnexpectedResponseError) return new CliError(`${this.account.baseUrl} does not answer as a reporting API does (${error.status}): ${error.message}`);
    return error;
  }

  /** The client's wait for a rate-limit window, within what the request may still wait after its failures' waits. */
  private async waitForRateLimit(ms: number): Promise<void> {
    if (this.waitedMs + ms > this.maxWaitMs) throw new RateLimitPastBound(ms, this.waitedMs);
    await this.wait(ms, RATE_LIMIT_WAIT);
  }

  /** A wait of the request being read, told second by second. */
  private async wait(ms: number, why: string): Promise<void> {
    this.waitedMs += ms;
    for (let left = ms; left > 0; left -= SECOND_MS) {
      this.progress.waiting(left, why);
      await this.time.sleep(Math.min(SECOND_MS, left));
    }
    this.progress.waiting(0, why);
  }
}

