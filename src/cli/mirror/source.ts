import { setTimeout as sleep } from 'node:timers/promises';
import { DateTime } from 'luxon';
import {
  ApiError,
  createClient,
  InvalidRequestError,
  NetworkError,
  RateLimitedError,
  UnauthorizedError,
  UnexpectedResponseError,
  type Fetch,
  type FlowReport,
  type GeographicReport,
  type ReportingClient,
  type Series,
  type Tool,
  type VolumeReport,
} from 'ivr-reporting/client';
import { pathStepCounters, type PathStep } from '../../domain/call-record';
import { UNKNOWN_REGION, US_TOLL_FREE } from '../../domain/caller-region';
import { CliError } from '../cli-error';
import type { DayFigures, DayStart, NumberFigures, RangeFigures, RegionCalls } from './figures';
import type { MirrorProgress } from './progress';

export interface SourceAccount {
  readonly baseUrl: string;
  readonly tool: Tool;
  readonly login: string;
  readonly password: string;
}

export interface SourceOptions {
  /** The longest the run may wait for one request's rate-limit windows to end. */
  readonly maxWaitMs: number;
  /** Days per request; undefined: the whole range, until the source says how many it takes. */
  readonly spanDays: number | undefined;
  /** Over what the geographic and flow reports are read: each month (exact over every month), or each span (fewer requests). */
  readonly stretch: Stretch;
}

export const STRETCHES = ['month', 'range'] as const;
export type Stretch = (typeof STRETCHES)[number];

/** The requests made, and what the source's answers said of its data rate limit (`X-RateLimit-Limit`, per window). */
export interface SourceLimits {
  /** Requests for reports, which the data rate limit counts. */
  readonly requests: number;
  /** Requests to `POST /api/auth`, which its own limit counts. */
  readonly logins: number;
  readonly limit: number | undefined;
}

const TOLL_FREE_KEY = 'US Toll-Free';
const FIRST_FORMAT = 'yyyyMMdd';
const SECOND_MS = 1000;
/** A report of a year of a busy number takes well under a second here; a source silent this long is stuck, not slow. */
const REQUEST_TIMEOUT_MS = 120_000;

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

const hundredths = (value: number | undefined) => Math.round((value ?? 0) * 100);

function regionsOf(report: GeographicReport): RegionCalls[] {
  const states = Object.entries(report.US).map(([code, calls]) => ({ region: code === TOLL_FREE_KEY ? US_TOLL_FREE : `US-${code}`, calls }));
  const countries = report.NON_US.map(({ country, calls }) => ({ region: country === 'ZZ' ? UNKNOWN_REGION : country, calls }));
  return [...states, ...countries].filter((entry) => entry.calls > 0);
}

function stepsOf(report: FlowReport): PathStep[] {
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

/**
 * Reads what a mirror needs of a reporting API, through the typed client: it authenticates, authenticates
 * again after a 401, and waits out 429s (each request at most `maxWaitMs`). A refusal the run cannot get
 * past becomes a CliError that names it.
 */
export class Source {
  private readonly client: ReportingClient;
  private requests = 0;
  private logins = 0;
  private limit: number | undefined;
  private spanDays: number | undefined;
  private readonly stretch: Stretch;

  constructor(
    private readonly account: SourceAccount,
    options: SourceOptions,
    private readonly progress: MirrorProgress,
  ) {
    this.spanDays = options.spanDays;
    this.stretch = options.stretch;
    const counted: Fetch = async (url, init) => {
      const login = url.endsWith('/api/auth');
      if (login) this.logins += 1;
      else this.requests += 1;
      this.progress.requested(this.requests + this.logins);
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const limit = Number(response.headers.get('x-ratelimit-limit') ?? Number.NaN);
      if (!login && Number.isSafeInteger(limit)) this.limit = limit;
      return response;
    };
    this.client = createClient({
      ...account,
      maxRateLimitWaitMs: options.maxWaitMs,
      maxKeptReports: 0,
      fetch: counted,
      sleep: (ms) => this.wait(ms),
    });
  }

  limits(): SourceLimits {
    return { requests: this.requests, logins: this.logins, limit: this.limit };
  }

  /**
   * Every number's figures over the range. A number the account does not own is refused before the others
   * are read, and `checkDayStarts` sees the first span's days (where the source says each starts) first.
   */
  async read(phones: readonly string[], start: string, end: string, checkDayStarts: (days: readonly DayStart[]) => void): Promise<NumberFigures[]> {
    const days = daysOf(start, end);
    const firstVolumes = new Map<string, VolumeReport>();
    for (const phone of phones) {
      const volume = await this.firstVolume(phone, days);
      if (firstVolumes.size === 0) checkDayStarts(Object.keys(volume.calls).map((key, index) => ({ day: days[index] ?? '', startSecond: Number(key) })));
      firstVolumes.set(phone, volume);
    }
    const figures: NumberFigures[] = [];
    for (const phone of phones) figures.push(await this.readNumber(phone, days, firstVolumes.get(phone)));
    return figures;
  }

  /**
   * Call volume over the first span, asked first for every number: a number the source refuses stops the
   * run before anything else is read, and a range longer than the source takes is cut to the span it names.
   */
  private async firstVolume(phone: string, days: readonly string[]): Promise<VolumeReport> {
    for (;;) {
      const span = ends(spansOf(days, this.spanDays ?? days.length)[0] ?? []);
      try {
        return await this.client.volume({ ...span, period: 'day', phone });
      } catch (error) {
        if (!(error instanceof InvalidRequestError) || error.code !== 'IVR_RANGE_TOO_LONG') throw this.explained(error, phone, span);
        this.learnSpan(error, days.length);
      }
    }
  }

  /** After the source's IVR_RANGE_TOO_LONG, the span it names; a CliError when it names none that would help. */
  private learnSpan(error: InvalidRequestError, asked: number): void {
    const named = spanNamedIn(error.message);
    if (named === undefined || named < 1 || named >= (this.spanDays ?? asked)) {
      throw new CliError(`the source refused ${asked} days at once (${error.message}) without saying how many it takes: pass --span-days`);
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

  private async readNumber(phone: string, days: readonly string[], firstVolume: VolumeReport | undefined): Promise<NumberFigures> {
    const figures: DayFigures[] = [];
    const regions: RangeFigures<readonly RegionCalls[]>[] = [];
    const flow: RangeFigures<readonly PathStep[]>[] = [];
    for (const [index, span] of spansOf(days, this.spanDays ?? days.length).entries()) {
      figures.push(...(await this.dayFigures(phone, span, index === 0 ? firstVolume : undefined)));
      for (const stretch of this.stretchesOf(span)) {
        const range = ends(stretch);
        regions.push({ ...range, value: regionsOf(await this.ask(phone, range, () => this.client.geographic({ ...range, phone }))) });
        flow.push(...(await this.flowOf(phone, stretch)));
      }
    }
    return { phone, days: figures, regions, flow };
  }

  private async dayFigures(phone: string, span: readonly string[], knownVolume: VolumeReport | undefined): Promise<DayFigures[]> {
    const params = { ...ends(span), period: 'day' as const, phone };
    const range = ends(span);
    const volume = knownVolume ?? (await this.ask(phone, range, () => this.client.volume(params)));
    const events = await this.ask(phone, range, () => this.client.events(params));
    const performance = await this.ask(phone, range, () => this.client.performance(params));
    const profile = await this.ask(phone, range, () => this.client.callerProfile(params));
    const keys = Object.keys(volume.calls);
    if (keys.length !== span.length) {
      throw new CliError(`the source answered ${keys.length} days for ${phone} over ${range.start}-${range.end}, which has ${span.length}`);
    }
    const at = (series: Series, key: string) => series[key] ?? 0;
    return span.map((day, index) => {
      const key = keys[index] ?? '';
      return {
        day,
        startSecond: Number(key),
        calls: at(volume.calls, key),
        logEvents: at(events.log_events, key),
        loops: at(events.loops, key),
        formItems: at(events.form_items, key),
        transfers: at(volume.transfers, key),
        jsErrors: at(performance.js_errors, key),
        fetchErrors: at(performance.fetch_errors, key),
        callers: at(profile.callers, key),
        callMinuteHundredths: hundredths(volume.call_minutes[key]),
        transferMinuteHundredths: hundredths(volume.transfer_minutes[key]),
        pageLoadHundredths: hundredths(performance.average_page_load[key]),
      };
    });
  }

  /** The flow of the span, halved until the source takes it: it refuses a range of too many form items at once. */
  private async flowOf(phone: string, span: readonly string[]): Promise<RangeFigures<readonly PathStep[]>[]> {
    const range = ends(span);
    try {
      return [{ ...range, value: stepsOf(await this.client.flow({ ...range, phone })) }];
    } catch (error) {
      if (!(error instanceof InvalidRequestError) || error.code !== 'IVR_FLOW_TOO_LARGE' || span.length === 1) throw this.explained(error, phone, range);
      const half = Math.ceil(span.length / 2);
      return [...(await this.flowOf(phone, span.slice(0, half))), ...(await this.flowOf(phone, span.slice(half)))];
    }
  }

  private async ask<Report>(phone: string, range: { start: string; end: string }, request: () => Promise<Report>): Promise<Report> {
    try {
      return await request();
    } catch (error) {
      throw this.explained(error, phone, range);
    }
  }

  private explained(error: unknown, phone?: string, range?: { start: string; end: string }): unknown {
    const from = `${this.account.baseUrl} (${this.account.tool}/${this.account.login})`;
    const asked = phone === undefined || range === undefined ? '' : ` for ${phone} over ${range.start}-${range.end}`;
    if (error instanceof CliError) return error;
    if (error instanceof InvalidRequestError && error.code === 'IVR_PHONE_NOT_OWNED') {
      return new CliError(`${phone ?? 'a number'} is not a number of ${from}: the source says "${error.message}"`);
    }
    if (error instanceof UnauthorizedError) return new CliError(`the source ${from} refused the login: "${error.message}"; check --tool, --login and --password`);
    if (error instanceof RateLimitedError) {
      const reset = error.resetAt === undefined ? 'later' : `at ${error.resetAt.toISOString()}`;
      return new CliError(`the source's rate limit${asked}: its window ends ${reset}, after --max-wait-minutes; run again then, or allow a longer wait`);
    }
    if (error instanceof ApiError) return new CliError(`the source ${from} refused the request${asked} (${error.status} ${error.code ?? ''}): "${error.message}"`);
    if (error instanceof NetworkError) return new CliError(`cannot reach the source at ${this.account.baseUrl}: ${String((error.cause as Error | undefined)?.message ?? error.message)}`);
    if (error instanceof UnexpectedResponseError) return new CliError(`${this.account.baseUrl} does not answer as a reporting API does (${error.status} with a body that is not JSON)`);
    return error;
  }

  /** The client's wait for a rate-limit window, told second by second. */
  private async wait(ms: number): Promise<void> {
    for (let left = ms; left > 0; left -= SECOND_MS) {
      this.progress.waiting(left);
      await sleep(Math.min(SECOND_MS, left));
    }
    this.progress.waiting(0);
  }
}

