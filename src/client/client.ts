import { errorOfAnswer, NetworkError, RateLimitedError, UnauthorizedError, UnexpectedResponseError } from './errors';
import { KeptReports } from './kept-reports';
import { callRetries, retryPolicy, type RetryOptions } from './retries';
import { absoluteUrl, base64, delay, formBody, globalFetch, type Fetch, type FetchInit, type FetchResponse } from './runtime';
import type {
  CallerProfileReport,
  EventsReport,
  FlowReport,
  Format,
  GeographicReport,
  IssuedCredentials,
  PerformanceReport,
  RangeParams,
  ReportMethod,
  RequestOptions,
  Result,
  SeriesParams,
  Tool,
  VolumeReport,
} from './types';

export interface ClientOptions<DefaultFormat extends Format = 'json'> {
  /** Where the server is, as a string or a `URL`: `https://reports.example.com`; a path prefix is kept (`https://example.com/ivr`). */
  readonly baseUrl: string | { readonly href: string };
  /** The tool account whose login and password are traded for temporary credentials. */
  readonly tool: Tool;
  readonly login: string;
  readonly password: string;
  /** The format of every report unless a call says otherwise: `json` (parsed, the default) or `xml` (the document as text). */
  readonly format?: DefaultFormat;
  /**
   * The longest a call may wait, in all, for rate-limit windows to end before it sends again. A 429 whose
   * wait does not fit is thrown as a RateLimitedError. Default 0: never wait, since a window lasts up to
   * RATE_LIMIT_WINDOW_SECONDS (15 minutes by default) and a silent wait that long should be the caller's choice.
   */
  readonly maxRateLimitWaitMs?: number;
  /** How many reports are kept to ask again with `If-None-Match`, the least recently used dropped first. Default 100; 0 keeps none. */
  readonly maxKeptReports?: number;
  /**
   * Retries of what failed on the way: a report after no answer (refused, reset, cut short), a 502, 503 or
   * 504, or a 500 with Retry-After; the login only after a refused connection, since the server counts
   * each login it reads against its limit. Bounded in attempts and in time, with back-off and jitter.
   * `false`: none. Default: 2 retries within 15 s.
   */
  readonly retry?: RetryOptions | false;
  /** Sends the requests; the global fetch by default. Wrap it to add a timeout, a proxy or logging. */
  readonly fetch?: Fetch;
  /** Waits for the given milliseconds; setTimeout by default. Tests make it move a fake clock. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Milliseconds since the epoch; Date.now by default. Turns a reset time into a wait when Retry-After is absent. */
  readonly now?: () => number;
  /** Numbers in [0, 1): the retries' jitter; Math.random by default. */
  readonly random?: () => number;
}

/** One method per raw-data resource of the reporting API. */
export interface ReportingClient<DefaultFormat extends Format = 'json'> {
  /** Call volume: `GET /api/volume/{start}/{end}/{period}/{phone}`. */
  readonly volume: ReportMethod<SeriesParams, VolumeReport, DefaultFormat>;
  /** Event tracker: `GET /api/events/{start}/{end}/{period}/{phone}`. */
  readonly events: ReportMethod<SeriesParams, EventsReport, DefaultFormat>;
  /** Performance: `GET /api/performance/{start}/{end}/{period}/{phone}`. */
  readonly performance: ReportMethod<SeriesParams, PerformanceReport, DefaultFormat>;
  /** Caller profile: `GET /api/profile/{start}/{end}/{period}/{phone}`. */
  readonly callerProfile: ReportMethod<SeriesParams, CallerProfileReport, DefaultFormat>;
  /** Geographic report: `GET /api/profile/{start}/{end}/{phone}`. */
  readonly geographic: ReportMethod<RangeParams, GeographicReport, DefaultFormat>;
  /** Diagnostic flow: `GET /api/path/{start}/{end}/{phone}`. */
  readonly flow: ReportMethod<RangeParams, FlowReport, DefaultFormat>;
}

/** The server's routes, under `/api`: server-agreement.test.ts holds them equal to the server's own. */
export const ROUTES = {
  volume: '/volume/:start/:end/:period/:phone',
  events: '/events/:start/:end/:period/:phone',
  performance: '/performance/:start/:end/:period/:phone',
  callerProfile: '/profile/:start/:end/:period/:phone',
  geographic: '/profile/:start/:end/:phone',
  flow: '/path/:start/:end/:phone',
} as const;

const ALL_PHONES = 'ALL';
const DEFAULT_KEPT_REPORTS = 100;
/** The server's shortest Retry-After: a wait never shorter keeps a server that says 0 from being asked in a loop. */
const SHORTEST_WAIT_MS = 1000;

const MEDIA_TYPES: Readonly<Record<Format, string>> = { json: 'application/json', xml: 'application/xml' };
/** What fetch says of a URLSearchParams body. */
const FORM_TYPE = 'application/x-www-form-urlencoded;charset=UTF-8';

/** `/volume/:start/...` with each `:name` replaced by its parameter, encoded as one path segment. */
function filledPath(template: string, params: RangeParams | SeriesParams): string {
  const values: Readonly<Record<string, string>> = { ...params, phone: params.phone ?? ALL_PHONES };
  return template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}

/** Waits out the 429s of one call while their waits fit in `maxRateLimitWaitMs` together; throws the refusal whose wait does not. */
type RateLimitWait = (refusal: RateLimitedError) => Promise<void>;

/**
 * A client of the reporting API for one tool account. It authenticates on first use (concurrent first
 * calls share one request) and once more when a data request is refused with 401; it waits out a 429
 * within `maxRateLimitWaitMs`; it retries what failed on the way as `retry` says; it keeps each report
 * with its ETag and returns it again on 304.
 */
export function createClient<DefaultFormat extends Format = 'json'>(options: ClientOptions<DefaultFormat>): ReportingClient<DefaultFormat> {
  // new URL throws at once for a baseUrl that is no absolute URL, where fetch would fail on every call.
  const root = absoluteUrl(options.baseUrl).replace(/\/+$/, '');
  const defaultFormat: Format = options.format ?? 'json';
  const maxWaitMs = options.maxRateLimitWaitMs ?? 0;
  const send = options.fetch ?? globalFetch();
  const sleep = options.sleep ?? delay;
  const now = options.now ?? Date.now;
  const retries = retryPolicy(options.retry);
  const waiting = { sleep, random: options.random ?? Math.random };
  const kept = new KeptReports(options.maxKeptReports ?? DEFAULT_KEPT_REPORTS);
  /** The Authorization header of the current temporary credentials, once asked for. */
  let session: Promise<string> | undefined;

  const waitsWithinBound = (): RateLimitWait => {
    let waitedMs = 0;
    return async (refusal) => {
      if (refusal.retryAfterSeconds === undefined) throw refusal;
      const waitMs = Math.max(SHORTEST_WAIT_MS, refusal.retryAfterSeconds * 1000);
      if (waitedMs + waitMs > maxWaitMs) throw refusal;
      waitedMs += waitMs;
      await sleep(waitMs);
    };
  };

  async function fetchAnswer(url: string, init: FetchInit): Promise<FetchResponse> {
    try {
      return await send(url, init);
    } catch (error) {
      throw new NetworkError(url, error);
    }
  }

  async function bodyOf(response: FetchResponse, url: string): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      throw new NetworkError(url, error);
    }
  }

  async function refusalOf(response: FetchResponse, url: string) {
    const body = await bodyOf(response, url);
    return errorOfAnswer({ status: response.status, statusText: response.statusText, headers: response.headers, body, url }, now());
  }

  function parsedJson(body: string, status: number, url: string): unknown {
    try {
      return JSON.parse(body);
    } catch {
      throw new UnexpectedResponseError(`the answer of ${url} is not JSON: is ${root} an ivr-reporting server?`, status, url);
    }
  }

  async function authenticate(wait: RateLimitWait): Promise<string> {
    const url = `${root}/api/auth`;
    const form = formBody({ tool: options.tool, login: options.login, password: options.password });
    const headers = { Accept: MEDIA_TYPES.json, 'Content-Type': FORM_TYPE };
    const retried = callRetries(retries, { method: 'POST', url }, waiting);
    for (;;) {
      let response: FetchResponse;
      try {
        response = await fetchAnswer(url, { method: 'POST', headers, body: form });
      } catch (error) {
        await retried.after(error);
        continue;
      }
      if (response.ok) {
        const issued = parsedJson(await bodyOf(response, url), response.status, url) as Partial<IssuedCredentials> | null;
        if (typeof issued?.login !== 'string' || typeof issued.password !== 'string') {
          const problem = `the answer of ${url} has no login and password: is ${root} an ivr-reporting server?`;
          throw new UnexpectedResponseError(problem, response.status, url);
        }
        return `Basic ${base64(`${issued.login}:${issued.password}`)}`;
      }
      const refusal = await refusalOf(response, url);
      if (!(refusal instanceof RateLimitedError)) throw refusal;
      await wait(refusal);
    }
  }

  /**
   * The current credentials, shared by concurrent calls; new ones when there are none yet, or when `refused`
   * (the ones a 401 turned down) are still the current ones rather than already replaced by another call.
   */
  function signIn(wait: RateLimitWait, refused?: Promise<string>): Promise<string> {
    if (session !== undefined && session !== refused) return session;
    const started = authenticate(wait);
    session = started;
    // A failed attempt is not kept: the next call tries again.
    started.catch(() => {
      if (session === started) session = undefined;
    });
    return started;
  }

  async function report(template: string, params: RangeParams | SeriesParams, format: Format): Promise<unknown> {
    const path = filledPath(template, params);
    const url = `${root}/api${path}`;
    const key = `${format} ${path}`;
    const previous = kept.get(key);
    const wait = waitsWithinBound();
    const retried = callRetries(retries, { method: 'GET', url }, waiting);
    let credentials = signIn(wait);
    let renewed = false;
    for (;;) {
      // Outside the retries: a login that failed was retried by its own rule, and is not asked again here.
      const headers: Record<string, string> = { Accept: MEDIA_TYPES[format], Authorization: await credentials };
      if (previous !== undefined) headers['If-None-Match'] = previous.etag;
      try {
        const response = await fetchAnswer(url, { headers });
        if (response.status === 304 && previous !== undefined) {
          return format === 'xml' ? previous.body : parsedJson(previous.body, response.status, url);
        }
        if (response.ok) {
          const body = await bodyOf(response, url);
          const result = format === 'xml' ? body : parsedJson(body, response.status, url);
          const etag = response.headers.get('ETag');
          if (etag !== null) kept.set(key, { etag, body });
          return result;
        }
        const refusal = await refusalOf(response, url);
        if (refusal instanceof UnauthorizedError && !renewed) {
          renewed = true;
          credentials = signIn(wait, credentials);
        } else if (refusal instanceof RateLimitedError) {
          await wait(refusal);
        } else {
          throw refusal;
        }
      } catch (error) {
        await retried.after(error);
      }
    }
  }

  function method<Params extends RangeParams | SeriesParams, Report>(template: string): ReportMethod<Params, Report, DefaultFormat> {
    // The one place the parsed body meets its type: the server's schemas describe it, and the client does not check it again.
    return <Chosen extends Format = DefaultFormat>(params: Params, requestOptions?: RequestOptions<Chosen>) =>
      report(template, params, requestOptions?.format ?? defaultFormat) as Promise<Result<Chosen, Report>>;
  }

  return {
    volume: method<SeriesParams, VolumeReport>(ROUTES.volume),
    events: method<SeriesParams, EventsReport>(ROUTES.events),
    performance: method<SeriesParams, PerformanceReport>(ROUTES.performance),
    callerProfile: method<SeriesParams, CallerProfileReport>(ROUTES.callerProfile),
    geographic: method<RangeParams, GeographicReport>(ROUTES.geographic),
    flow: method<RangeParams, FlowReport>(ROUTES.flow),
  };
}
