/**
 * The typed client of the reporting API, published as `ivr-reporting/client`. It needs nothing at run
 * time but Node 20's fetch: docs/client.md.
 */
export { createClient, type ClientOptions, type ReportingClient } from './client';
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
  SeriesParams,
  Tool,
  VolumeReport,
} from './types';
