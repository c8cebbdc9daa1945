// The client's own types, written out so that its declarations import nothing: a project that installs the
// package checks them with no other package (docs/client.md). server-agreement.test.ts holds each of them
// equal to the type the server's own schemas and constants give, so `npm run typecheck` fails when the
// server's answers change shape and these do not follow.

/** An answer's format: `json` (the parsed report) or `xml` (the XML document as text). */
export type Format = 'json' | 'xml';

/** The tool of an account: its login and password are traded for temporary credentials at `POST /api/auth`. */
export type Tool = 'dev' | 'fuse' | 'insight' | 'fuseplus';

/** How a series is grouped: `day`, `week` (starting on the server's WEEK_START) or `month`. */
export type Period = 'day' | 'week' | 'month';

/**
 * The range of a report: `start` and `end` are local days of the account's time zone, both included, as
 * `YYYYMMDD` (`'20180207'`); `phone` is one of the account's numbers, or `'ALL'` (the default) for all of
 * them merged. The server checks them, and a bad one is an `InvalidRequestError` naming it.
 */
export interface RangeParams {
  start: string;
  end: string;
  phone?: string | undefined;
}

/** A range grouped by `period`: the parameters of the series resources. */
export interface SeriesParams extends RangeParams {
  period: Period;
}

/**
 * A series: its value in each period, keyed by the Unix second (as a decimal string) at which the period
 * starts in the account's time zone, ascending, zero-filled.
 */
export type Series = Record<string, number>;

/** Call volume: calls, their minutes, transfers and the minutes spent in them. */
export interface VolumeReport {
  calls: Series;
  call_minutes: Series;
  transfers: Series;
  transfer_minutes: Series;
}

/** Event tracker: calls, their log events, form items and loops. */
export interface EventsReport {
  calls: Series;
  log_events: Series;
  loops_per_call: Series;
  form_items: Series;
  loops: Series;
  average_form_items: Series;
}

/** Performance: script and fetch errors, per call, and the average page load in seconds. */
export interface PerformanceReport {
  calls: Series;
  js_errors: Series;
  js_errors_per_call: Series;
  fetch_errors: Series;
  fetch_errors_per_call: Series;
  average_page_load: Series;
}

/** Caller profile: calls, and distinct callers over each whole period. */
export interface CallerProfileReport {
  calls: Series;
  callers: Series;
}

/** Calls by where the caller is from: `US` by state code (then `US Toll-Free`), `NON_US` by country. */
export interface GeographicReport {
  US: Record<string, number>;
  NON_US: { country: string; calls: number }[];
}

/** One form item of the diagnostic flow, and its counters summed over the calls. */
export interface FlowEntry {
  page: string;
  form: string;
  item: string;
  visits: number;
  filled: number;
  nomatch: number;
  noinput: number;
  transfer: number;
  disconnect: number;
}

/** The diagnostic flow: the form items of each application, keyed by the application's URL. */
export interface FlowReport {
  applications: Record<string, FlowEntry[]>;
}

/** What a report method resolves to: the parsed JSON, or the XML document as text. */
export type Result<Chosen extends Format, Report> = Chosen extends 'xml' ? string : Report;

export interface RequestOptions<Chosen extends Format> {
  /** This request's format, in place of the client's `format`. */
  readonly format: Chosen;
}

/** A report method: the client's format unless `options.format` says otherwise, typed to match. */
export type ReportMethod<Params, Report, DefaultFormat extends Format> = <Chosen extends Format = DefaultFormat>(
  params: Params,
  options?: RequestOptions<Chosen>,
) => Promise<Result<Chosen, Report>>;

/** The answer of POST /api/auth. */
export interface IssuedCredentials {
  login: string;
  password: string;
}

/** An error answer's JSON body. */
export interface ErrorBody {
  error: string;
}
