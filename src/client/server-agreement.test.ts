// The client package imports nothing of the server, so its types and routes are written out (types.ts,
// errors.ts, client.ts). This file holds each equal to what the server's own schemas and constants give:
// the types at type level, which `npm run typecheck` (the first step of `npm test`) checks, and the routes
// at run time. A server whose answers change shape stops the check here until the client follows.
import type { z } from 'zod';
import type { TOOLS } from '../domain/tool';
import type { PathStepCounter } from '../domain/call-record';
import type { ERROR_CODES } from '../errors/catalogue';
import type { errorBodySchema, Format as ServerFormat } from '../http/representation';
import type { issuedCredentialsSchema } from '../reporting/auth/route';
import { EVENTS_PATH, type eventsBodySchema } from '../reporting/events/series';
import { PERFORMANCE_PATH, type performanceBodySchema } from '../reporting/performance/series';
import { FLOW_PATH } from '../reporting/path/report';
import type { flowBodySchema } from '../reporting/path/representation';
import { CALLER_PROFILE_PATH, type callerProfileBodySchema } from '../reporting/profile/caller-series';
import { GEOGRAPHIC_PATH } from '../reporting/profile/geographic-report';
import type { geographicBodySchema } from '../reporting/profile/geographic-representation';
import type { rangePathSchema, seriesPathSchema } from '../reporting/query/params';
import { VOLUME_PATH, type volumeBodySchema } from '../reporting/volume/series';
import { ROUTES } from './client';
import type { ErrorCode } from './errors';
import type {
  CallerProfileReport,
  ErrorBody,
  EventsReport,
  FlowEntry,
  FlowReport,
  Format,
  GeographicReport,
  IssuedCredentials,
  PerformanceReport,
  Period,
  RangeParams,
  SeriesParams,
  Tool,
  VolumeReport,
} from './types';

/** True only when A and B are the same type, optional and readonly modifiers included. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** The type with interfaces and intersections written out as plain object types, at every depth. */
type Plain<T> = T extends object ? { [K in keyof T]: Plain<T[K]> } : T;
type Same<A, B> = Equal<Plain<A>, Plain<B>>;
/** Fails to compile, naming the line, unless its argument is `true`. */
type Holds<Check extends true> = Check;

type SeriesPath = z.input<typeof seriesPathSchema>;
type RangePath = z.input<typeof rangePathSchema>;
type ServerFlowBody = z.output<typeof flowBodySchema>;
/** The flow schema builds its counters from PATH_STEP_COUNTERS at run time: its inferred entry has only the text fields. */
type ServerFlowEntry = ServerFlowBody['applications'][string][number] & Record<PathStepCounter, number>;

export type Agreements = [
  Holds<Same<Format, ServerFormat>>,
  Holds<Same<Tool, (typeof TOOLS)[number]>>,
  Holds<Same<Period, SeriesPath['period']>>,
  Holds<Same<RangeParams, Omit<RangePath, 'phone'> & Partial<Pick<RangePath, 'phone'>>>>,
  Holds<Same<SeriesParams, Omit<SeriesPath, 'phone'> & Partial<Pick<SeriesPath, 'phone'>>>>,
  Holds<Same<VolumeReport, z.output<typeof volumeBodySchema>>>,
  Holds<Same<EventsReport, z.output<typeof eventsBodySchema>>>,
  Holds<Same<PerformanceReport, z.output<typeof performanceBodySchema>>>,
  Holds<Same<CallerProfileReport, z.output<typeof callerProfileBodySchema>>>,
  Holds<Same<GeographicReport, z.output<typeof geographicBodySchema>>>,
  Holds<Same<FlowEntry, ServerFlowEntry>>,
  Holds<Same<FlowReport, Omit<ServerFlowBody, 'applications'> & { applications: Record<string, ServerFlowEntry[]> }>>,
  Holds<Same<IssuedCredentials, z.output<typeof issuedCredentialsSchema>>>,
  Holds<Same<ErrorBody, z.output<typeof errorBodySchema>>>,
  Holds<Same<ErrorCode, keyof typeof ERROR_CODES>>,
];

test("the client fills the server's own route templates, under /api", () => {
  expect(ROUTES).toEqual({
    volume: VOLUME_PATH,
    events: EVENTS_PATH,
    performance: PERFORMANCE_PATH,
    callerProfile: CALLER_PROFILE_PATH,
    geographic: GEOGRAPHIC_PATH,
    flow: FLOW_PATH,
  });
});
