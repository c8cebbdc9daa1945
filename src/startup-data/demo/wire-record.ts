import type { CallRecordInput, PathStep } from '../../domain/call-record';
import { callerOf, type CallerPool } from './callers';
import { pathOf, visitsOf, walkCall } from './call-walk';
import type { PhoneProfile } from './phone-profiles';
import { pageLoadSeconds, type DayConditions } from './platform-days';
import { occurrences, type Random } from './random';

/** What a call is made in: the phone it reached, the platform's day and the account's customers. */
export interface CallSetting {
  readonly profile: PhoneProfile;
  readonly conditions: DayConditions;
  readonly callers: CallerPool;
}

/** The identity of a call: which phone it reached, when, and its id. */
type CallIdentity = Pick<CallRecordInput, 'call_id' | 'phone' | 'started_at'>;

/** A wire record as this generator writes it: the counters it always gives are there, the path's too. */
export interface DemoWireRecord extends CallRecordInput {
  duration_seconds: number;
  transfers: number;
  js_errors: number;
  fetch_errors: number;
  page_loads: number;
  page_load_seconds: number;
  path?: PathStep[];
}

/** Wire values in the units a person would write: tenths of a second for calls, milliseconds for page loads. */
function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

export function demoRecord(identity: CallIdentity, random: Random, setting: CallSetting): DemoWireRecord {
  const caller = callerOf(random, setting.callers);
  const walk = walkCall(random, setting.profile.journeyWeights);
  const visits = visitsOf(walk);
  // The start document, then one more each time a form item's answer is submitted.
  const pageLoads = 1 + visits;
  const jsErrors = occurrences(random, setting.conditions.jsErrorShare, 3);
  const fetchErrors = occurrences(random, setting.conditions.fetchErrorShare, 2);
  // Spelled out: spreading the identity and adding fields to it made generating the calls several times slower.
  const record: DemoWireRecord = {
    call_id: identity.call_id,
    phone: identity.phone,
    started_at: identity.started_at,
    log_events: walk.logEvents + jsErrors + fetchErrors,
    loops: visits - walk.steps.size,
    form_items: walk.steps.size,
    duration_seconds: roundTo(walk.seconds, 1),
    transfers: walk.transfers,
    js_errors: jsErrors,
    fetch_errors: fetchErrors,
    page_loads: pageLoads,
    page_load_seconds: roundTo(pageLoadSeconds(random, pageLoads, setting.conditions.pageLoadFactor), 3),
  };
  if (caller !== undefined) record.caller = caller;
  if (walk.transfers > 0) record.transfer_seconds = roundTo(walk.transferSeconds, 1);
  if (walk.steps.size > 0) record.path = pathOf(walk);
  return record;
}
