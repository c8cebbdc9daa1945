/**
 * The typed client of the reporting API, the package `ivr-reporting-client` (package.json beside this
 * file). It needs nothing at run time but Node 20's fetch, and its declarations nothing but ES2023's
 * lib: docs/client.md.
 */
export { createClient, type ClientOptions, type ReportingClient } from './client';
export type { Retry, RetryOptions } from './retries';
export {
  ApiError,
  InvalidRequestError,
  NetworkError,
  RateLimitedError,
  ReportingClientError,
  ServerError,
  UnauthorizedError,
  UnexpectedResponseError,
  type AnsweredErrorCode,
  type ErrorCode,
  type RefusalDetails,
  type RetryTiming,
} from './errors';
export type {
  CallerProfileReport,
  EventsReport,
  FlowEntry,
  FlowReport,
  Format,
  GeographicReport,
  PerformanceReport,
  Period,
  RangeParams,
  ReportMethod,
  RequestOptions,
  Result,
  Series,
  SeriesParams,
  Tool,
  VolumeReport,
} from './types';
export type { Fetch, FetchInit, FetchResponse } from './runtime';
