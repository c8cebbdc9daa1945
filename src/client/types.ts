// Every type here is read from the server's own schemas and constants, and only as types: the compiled
// client imports nothing of the server or of zod at run time, yet stops compiling when the server's
// answers change shape.
import type { z } from 'zod';
import type { Tool } from '../accounts/account';
import type { PathStepCounter } from '../domain/call-record';
import type { Format } from '../http/representation/representation';
import type { issuedCredentialsSchema } from '../reporting/auth/route';
import type { eventsBodySchema } from '../reporting/events/series';
import type { flowBodySchema } from '../reporting/path/representation';
import type { performanceBodySchema } from '../reporting/performance/series';
import type { callerProfileBodySchema } from '../reporting/profile/caller-series';
import type { geographicBodySchema } from '../reporting/profile/geographic-representation';
import type { rangePathSchema, seriesPathSchema } from '../reporting/query/params';
import type { volumeBodySchema } from '../reporting/volume/series';

export type { Format, Tool };

type SeriesPath = z.input<typeof seriesPathSchema>;
type RangePath = z.input<typeof rangePathSchema>;

/** How a series is grouped: `day`, `week` (starting on the server's WEEK_START) or `month`. */
export type Period = SeriesPath['period'];

/**
 * The range of a report: `start` and `end` are local days of the account's time zone, both included, as
 * `YYYYMMDD` (`'20180207'`); `phone` is one of the account's numbers, or `'ALL'` (the default) for all of
 * them merged. The server checks them, and a bad one is an `InvalidRequestError` naming it.
 */
export type RangeParams = Omit<RangePath, 'phone'> & Partial<Pick<RangePath, 'phone'>>;

/** A range grouped by `period`: the parameters of the series resources. */
export type SeriesParams = Omit<SeriesPath, 'phone'> & Partial<Pick<SeriesPath, 'phone'>>;

/**
 * Series reports map each series name to its values, keyed by the Unix second (as a decimal string) at
 * which each period starts in the account's time zone, ascending, zero-filled.
 */
export type VolumeReport = z.output<typeof volumeBodySchema>;
export type EventsReport = z.output<typeof eventsBodySchema>;
export type PerformanceReport = z.output<typeof performanceBodySchema>;
export type CallerProfileReport = z.output<typeof callerProfileBodySchema>;

/** Calls by where the caller is from: `US` by state code (then `US Toll-Free`), `NON_US` by country. */
export type GeographicReport = z.output<typeof geographicBodySchema>;

type FlowBody = z.output<typeof flowBodySchema>;

/**
 * One form item of the diagnostic flow. The server's schema builds the counters from PATH_STEP_COUNTERS
 * at run time, so its inferred type has only the text fields: the counters are added back here, by the
 * same names.
 */
export type FlowEntry = FlowBody['applications'][string][number] & Record<PathStepCounter, number>;

/** The diagnostic flow: the form items of each application, keyed by the application's URL. */
export type FlowReport = Omit<FlowBody, 'applications'> & { applications: Record<string, FlowEntry[]> };

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
export type IssuedCredentials = z.output<typeof issuedCredentialsSchema>;
