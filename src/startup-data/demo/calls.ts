import { DateTime } from 'luxon';
import type { CallRecord, CallRecordInput } from '../../domain/call-record';
import { normaliseCaller } from '../../domain/caller';
import { callerPool, type CallerPool } from './callers';
import { dayVolume, startTime } from './call-times';
import { localDayOf, type LocalDay } from './local-days';
import { phoneProfile } from './phone-profiles';
import { dayConditions } from './platform-days';
import { between, mulberry32, seedFrom } from './random';
import { demoRecord, type DemoWireRecord } from './wire-record';

export interface DemoCallOptions {
  /** Digits only. */
  phones: readonly string[];
  /** How many local days to cover, ending with today. */
  days: number;
  /** Average calls per phone on an ordinary weekday; nights, weekends and each phone's volume vary it. */
  callsPerDay: number;
  seed: number;
  timeZone: string;
  /** Milliseconds since the epoch; no call starts after it. */
  now: number;
}

interface DemoCall {
  readonly startedAtMs: number;
  readonly record: DemoWireRecord;
}

function phoneCallsOfDay(phone: string, day: LocalDay, options: DemoCallOptions, callers: CallerPool): DemoCall[] {
  const profile = phoneProfile(options.seed, phone);
  const setting = { profile, conditions: dayConditions(options.seed, day.epochDay), callers };
  const random = mulberry32(seedFrom(options.seed, phone, day.stamp));
  const count = Math.round(options.callsPerDay * dayVolume(day) * profile.volume * between(random, 0.8, 1.2));
  const starts = Array.from({ length: count }, () => startTime(random, day, profile.hourShift)).sort(
    (a, b) => a.startedAtMs - b.startedAtMs,
  );
  return starts.map(({ startedAtMs, startedAt }, index) => ({
    startedAtMs,
    record: demoRecord({ call_id: `demo-${phone}-${day.stamp}-${index + 1}`, phone, started_at: startedAt }, random, setting),
  }));
}

function callsOfDay(day: DateTime, options: DemoCallOptions, callers: CallerPool): DemoCall[] {
  const localDay = localDayOf(day);
  return options.phones
    .flatMap((phone) => phoneCallsOfDay(phone, localDay, options, callers))
    .filter((call) => call.startedAtMs <= options.now)
    .sort((a, b) => a.startedAtMs - b.startedAtMs);
}

function* demoCalls(options: DemoCallOptions): Generator<DemoCall> {
  const today = DateTime.fromMillis(options.now, { zone: options.timeZone }).startOf('day');
  const callers = callerPool(options.seed, options.callsPerDay, options.phones.length);
  for (let daysBack = options.days - 1; daysBack >= 0; daysBack -= 1) {
    yield* callsOfDay(today.minus({ days: daysBack }), options, callers);
  }
}

/**
 * Plausible call records in wire format, oldest first, for the `days` local days ending today.
 * The same options always give the same records.
 */
export function* generateDemoCalls(options: DemoCallOptions): Generator<CallRecordInput> {
  for (const call of demoCalls(options)) yield call.record;
}

const millisecondsOf = (seconds: number): number => Math.round(seconds * 1000);

/**
 * What callRecordSchema makes of a generated record, built directly: the generator's records are valid
 * by construction, and parsing every path entry would take longer than generating the calls
 * (docs/performance-costs.md, "Hand-written shortcuts on Node.js 24").
 */
function asCallRecord({ startedAtMs, record: wire }: DemoCall): CallRecord {
  const record: { -readonly [Field in keyof CallRecord]: CallRecord[Field] } = {
    callId: wire.call_id,
    phone: wire.phone,
    startedAt: startedAtMs,
    logEvents: wire.log_events,
    loops: wire.loops,
    formItems: wire.form_items,
    durationMs: millisecondsOf(wire.duration_seconds),
    transfers: wire.transfers,
    jsErrors: wire.js_errors,
    fetchErrors: wire.fetch_errors,
    pageLoads: wire.page_loads,
    pageLoadMs: millisecondsOf(wire.page_load_seconds),
  };
  const caller = wire.caller === undefined ? undefined : normaliseCaller(wire.caller);
  if (caller !== undefined) record.caller = caller;
  if (wire.transfer_seconds !== undefined) record.transferMs = millisecondsOf(wire.transfer_seconds);
  if (wire.path !== undefined) record.path = wire.path;
  return record;
}

/** The calls of generateDemoCalls, as callRecordSchema reads them. */
export function* generateDemoCallRecords(options: DemoCallOptions): Generator<CallRecord> {
  for (const call of demoCalls(options)) yield asCallRecord(call);
}
