import { z } from 'zod';
import { storableIdentifier } from './storable-text';
import { parseInstantWithOffset } from './instant';
import { INSTANT_WITH_OFFSET_PATTERN } from '../time/calendar-patterns';
import { phoneNumberSchema } from './phone-number';
import { callerSchema } from './caller';

/** One form item a call went through (version 2), with its counters for that call. */
export interface PathStep {
  readonly application: string;
  readonly page: string;
  readonly form: string;
  readonly item: string;
  readonly visits: number;
  readonly filled: number;
  readonly nomatch: number;
  readonly noinput: number;
  readonly transfer: number;
  readonly disconnect: number;
}

export const PATH_STEP_COUNTERS = ['visits', 'filled', 'nomatch', 'noinput', 'transfer', 'disconnect'] as const;

export type PathStepCounter = (typeof PATH_STEP_COUNTERS)[number];
export type PathStepCounters = Pick<PathStep, PathStepCounter>;

/** The six counters of a form item, each as `valueOf` gives it (by name, or by place in PATH_STEP_COUNTERS). */
export function pathStepCounters(valueOf: (counter: PathStepCounter, index: number) => number): PathStepCounters {
  return Object.fromEntries(PATH_STEP_COUNTERS.map((counter, index) => [counter, valueOf(counter, index)])) as PathStepCounters;
}

/**
 * A call. The fields of version 2 are optional: a version-1 record has none of them, an absent counter
 * counts 0 and an absent caller is unknown. Durations are kept in whole milliseconds, so that every sum
 * a report makes is exact and does not depend on the order of the calls.
 */
export interface CallRecord {
  readonly callId: string;
  /** Digits only. */
  readonly phone: string;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  readonly logEvents: number;
  readonly loops: number;
  readonly formItems: number;
  /** The calling number in international form, digits only, country code first (see caller.ts). */
  readonly caller?: string;
  readonly durationMs?: number;
  readonly transfers?: number;
  readonly transferMs?: number;
  readonly jsErrors?: number;
  readonly fetchErrors?: number;
  readonly pageLoads?: number;
  readonly pageLoadMs?: number;
  readonly path?: readonly PathStep[];
}

export const MAX_PATH_STEPS = 1_000;

/** The longest texts of a record, in code points: a path step's application, page, form and item; a call id. */
export const PATH_TEXT_LENGTH = 500;
export const CALL_ID_LENGTH = 200;

/** The most any counter of one call may be. */
export const MAX_COUNT = 1_000_000_000;
const count = z.number().int().min(0).max(MAX_COUNT);

/** Seconds as given (fractions allowed), at most about 11 days, kept as whole milliseconds. */
export const MAX_SECONDS = 1_000_000;
const seconds = z
  .number()
  .min(0)
  .max(MAX_SECONDS, `must be at most ${MAX_SECONDS} seconds`)
  .transform((value) => Math.round(value * 1000))
  .meta({ description: 'Seconds, fractions allowed; kept to the millisecond' });

const startedAt = z.string().transform((value, context) => {
  const instant = parseInstantWithOffset(value);
  if (instant === undefined) {
    context.addIssue({
      code: 'custom',
      message: 'must be a real ISO-8601 date and time from 1970 with an offset, e.g. 2018-02-07T10:15:00-05:00',
    });
    return z.NEVER;
  }
  return instant;
}).meta({
  description: 'ISO-8601 date and time from 1970 with an offset (Z or ±hh:mm), e.g. 2018-02-07T10:15:00-05:00',
  pattern: INSTANT_WITH_OFFSET_PATTERN,
});

const pathStepSchema = z.strictObject({
  application: storableIdentifier(PATH_TEXT_LENGTH),
  page: storableIdentifier(PATH_TEXT_LENGTH),
  form: storableIdentifier(PATH_TEXT_LENGTH),
  item: storableIdentifier(PATH_TEXT_LENGTH),
  visits: count.default(0),
  filled: count.default(0),
  nomatch: count.default(0),
  noinput: count.default(0),
  transfer: count.default(0),
  disconnect: count.default(0),
}).meta({ id: 'PathStep', description: 'A form item the call went through, with its counters for that call (absent is 0)' });

/** A call record as it arrives on the wire (seed file, admin API, CSV): snake_case, ISO time with offset. */
export const callRecordWireSchema = z.strictObject({
  call_id: storableIdentifier(CALL_ID_LENGTH),
  phone: phoneNumberSchema,
  started_at: startedAt,
  log_events: count,
  loops: count,
  form_items: count,
  caller: callerSchema.optional(),
  duration_seconds: seconds.optional(),
  transfers: count.optional(),
  transfer_seconds: seconds.optional(),
  js_errors: count.optional(),
  fetch_errors: count.optional(),
  page_loads: count.optional(),
  page_load_seconds: seconds.optional(),
  path: z.array(pathStepSchema).max(MAX_PATH_STEPS, `must have at most ${MAX_PATH_STEPS} entries`).optional(),
}).meta({
  id: 'CallRecord',
  description: 'A call: the six fields of version 1, and the optional fields of version 2 (an absent counter counts 0, an absent caller is unknown)',
});

function fromWire(wire: z.output<typeof callRecordWireSchema>): CallRecord {
  const record: { -readonly [Field in keyof CallRecord]: CallRecord[Field] } = {
    callId: wire.call_id,
    phone: wire.phone,
    startedAt: wire.started_at,
    logEvents: wire.log_events,
    loops: wire.loops,
    formItems: wire.form_items,
  };
  if (wire.caller !== undefined) record.caller = wire.caller;
  if (wire.duration_seconds !== undefined) record.durationMs = wire.duration_seconds;
  if (wire.transfers !== undefined) record.transfers = wire.transfers;
  if (wire.transfer_seconds !== undefined) record.transferMs = wire.transfer_seconds;
  if (wire.js_errors !== undefined) record.jsErrors = wire.js_errors;
  if (wire.fetch_errors !== undefined) record.fetchErrors = wire.fetch_errors;
  if (wire.page_loads !== undefined) record.pageLoads = wire.page_loads;
  if (wire.page_load_seconds !== undefined) record.pageLoadMs = wire.page_load_seconds;
  if (wire.path !== undefined && wire.path.length > 0) record.path = wire.path;
  return record;
}

export const callRecordSchema = callRecordWireSchema.transform(fromWire);

export type CallRecordParse = { readonly record: CallRecord } | { readonly issues: readonly z.core.$ZodIssue[] };

/**
 * What callRecordSchema reads, for the import's hot path: the same validation, with the conversion
 * called directly rather than through zod's transform pipe, which costs about a microsecond a record.
 */
export function parseCallRecord(value: unknown): CallRecordParse {
  const parsed = callRecordWireSchema.safeParse(value);
  return parsed.success ? { record: fromWire(parsed.data) } : { issues: parsed.error.issues };
}

export type CallRecordInput = z.input<typeof callRecordSchema>;

/** The wire fields that a CSV file carries as columns; `path` travels only in NDJSON and JSON. */
export const CSV_FIELDS = [
  'call_id',
  'phone',
  'started_at',
  'log_events',
  'loops',
  'form_items',
  'caller',
  'duration_seconds',
  'transfers',
  'transfer_seconds',
  'js_errors',
  'fetch_errors',
  'page_loads',
  'page_load_seconds',
] as const satisfies ReadonlyArray<keyof CallRecordInput>;

/** The wire fields every record must have; the others may be left out. */
export const REQUIRED_FIELDS = ['call_id', 'phone', 'started_at', 'log_events', 'loops', 'form_items'] as const;
