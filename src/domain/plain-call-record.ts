import { CALL_ID_LENGTH, MAX_COUNT, MAX_PATH_STEPS, MAX_SECONDS, PATH_TEXT_LENGTH, type CallRecord, type PathStep } from './call-record';
import { parseInstantWithOffset } from './instant';

/**
 * The import's fast path for call records: a record as JSON.parse gives it, read by hand into exactly
 * the CallRecord that callRecordSchema makes of it, or undefined for anything it does not accept, which
 * then goes through the zod schema (so that every refusal, and every rare form, is still zod's). It
 * accepts less than the schema, never more: texts only of characters that are plainly storable
 * (no surrogate, no control character) and no longer in UTF-16 units than the schema's bound in code points,
 * plain objects only, no field present with the value undefined. `plain-call-record.test.ts` holds it to
 * the schema over generated records, valid and not. Kept because the schema would cost more than the
 * rest of an imported record (docs/performance-costs.md, "Hand-written shortcuts on Node.js 24").
 */
export function readPlainCallRecord(value: unknown): CallRecord | undefined {
  if (!isPlainObject(value)) return undefined;
  const callId = value.call_id;
  const phone = value.phone;
  const startedAt = value.started_at;
  const logEvents = value.log_events;
  const loops = value.loops;
  const formItems = value.form_items;
  if (!isStorableIdentifier(callId, CALL_ID_LENGTH) || typeof phone !== 'string' || typeof startedAt !== 'string') return undefined;
  if (!isCount(logEvents) || !isCount(loops) || !isCount(formItems)) return undefined;
  const phoneDigits = phoneDigitsOf(phone);
  const startedAtMs = parseInstantWithOffset(startedAt);
  if (phoneDigits === undefined || startedAtMs === undefined) return undefined;
  const record: { -readonly [Field in keyof CallRecord]: CallRecord[Field] } = {
    callId,
    phone: phoneDigits,
    startedAt: startedAtMs,
    logEvents,
    loops,
    formItems,
  };
  let fields = VERSION_1_FIELDS;
  const keys = keyCount(value);
  if (keys === fields) return record;

  const caller = value.caller;
  if (caller !== undefined) {
    if (typeof caller !== 'string') return undefined;
    const callerDigits = callerDigitsOf(caller);
    if (callerDigits === undefined) return undefined;
    record.caller = callerDigits;
    fields += 1;
  }
  const durationMs = value.duration_seconds;
  if (durationMs !== undefined) {
    if (!isSeconds(durationMs)) return undefined;
    record.durationMs = Math.round(durationMs * 1000);
    fields += 1;
  }
  const transfers = value.transfers;
  if (transfers !== undefined) {
    if (!isCount(transfers)) return undefined;
    record.transfers = transfers;
    fields += 1;
  }
  const transferMs = value.transfer_seconds;
  if (transferMs !== undefined) {
    if (!isSeconds(transferMs)) return undefined;
    record.transferMs = Math.round(transferMs * 1000);
    fields += 1;
  }
  const jsErrors = value.js_errors;
  if (jsErrors !== undefined) {
    if (!isCount(jsErrors)) return undefined;
    record.jsErrors = jsErrors;
    fields += 1;
  }
  const fetchErrors = value.fetch_errors;
  if (fetchErrors !== undefined) {
    if (!isCount(fetchErrors)) return undefined;
    record.fetchErrors = fetchErrors;
    fields += 1;
  }
  const pageLoads = value.page_loads;
  if (pageLoads !== undefined) {
    if (!isCount(pageLoads)) return undefined;
    record.pageLoads = pageLoads;
    fields += 1;
  }
  const pageLoadMs = value.page_load_seconds;
  if (pageLoadMs !== undefined) {
    if (!isSeconds(pageLoadMs)) return undefined;
    record.pageLoadMs = Math.round(pageLoadMs * 1000);
    fields += 1;
  }
  const path = value.path;
  if (path !== undefined) {
    const steps = plainPath(path);
    if (steps === undefined) return undefined;
    if (steps.length > 0) record.path = steps;
    fields += 1;
  }
  return keys === fields ? record : undefined;
}

const VERSION_1_FIELDS = 6;
const MAX_PHONE_DIGITS = 15;
const NORTH_AMERICAN_LENGTH = 10;

const PLUS = 0x2b;
const ZERO = 0x30;
const NINE = 0x39;
const SPACE = 0x20;
const TILDE = 0x7e;
/** U+007F-U+009F are control characters; U+00A0 is the first character above them. */
const FIRST_ABOVE_CONTROLS = 0xa0;
const FIRST_SURROGATE = 0xd800;
const LAST_SURROGATE = 0xdfff;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * The object's keys, counted: the fields read are checked one by one, so a key beyond them is one the
 * strict schema refuses (or one present with the value undefined, which is left to the schema too).
 */
function keyCount(value: object): number {
  let keys = 0;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- only counted
  for (const _key in value) keys += 1;
  return keys;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && value >= 0 && value <= MAX_COUNT && Number.isInteger(value);

const isSeconds = (value: unknown): value is number => typeof value === 'number' && value >= 0 && value <= MAX_SECONDS;

/**
 * A non-empty text of at most `maxUnits` UTF-16 units, every one a character the storable-text pattern
 * allows outright: neither a control character nor half of a surrogate pair (pairs go to the schema).
 * At most that many units is at most that many code points, the schema's bound.
 */
function isStorableIdentifier(value: unknown, maxUnits: number): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxUnits) return false;
  for (let index = 0; index < value.length; index += 1) {
    const unit = value.charCodeAt(index);
    if (unit <= TILDE) {
      if (unit < SPACE) return false;
    } else if (unit < FIRST_ABOVE_CONTROLS || (unit >= FIRST_SURROGATE && unit <= LAST_SURROGATE)) {
      return false;
    }
  }
  return true;
}

/** The digits after an optional `+`, when they are 1-15 ASCII digits (phone-number.ts's pattern). */
function digitsAfterPlus(value: string): { digits: string; plus: boolean } | undefined {
  const plus = value.charCodeAt(0) === PLUS;
  const start = plus ? 1 : 0;
  const length = value.length - start;
  if (length < 1 || length > MAX_PHONE_DIGITS) return undefined;
  for (let index = start; index < value.length; index += 1) {
    const unit = value.charCodeAt(index);
    if (unit < ZERO || unit > NINE) return undefined;
  }
  return { digits: plus ? value.slice(1) : value, plus };
}

/** normalisePhone's answer. */
function phoneDigitsOf(value: string): string | undefined {
  return digitsAfterPlus(value)?.digits;
}

/** normaliseCaller's answer: a 10-digit number without `+` is North American. */
function callerDigitsOf(value: string): string | undefined {
  const read = digitsAfterPlus(value);
  if (read === undefined) return undefined;
  return !read.plus && read.digits.length === NORTH_AMERICAN_LENGTH ? `1${read.digits}` : read.digits;
}

function plainPath(value: unknown): PathStep[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_PATH_STEPS) return undefined;
  const steps: PathStep[] = [];
  for (const item of value as unknown[]) {
    const step = plainPathStep(item);
    if (step === undefined) return undefined;
    steps.push(step);
  }
  return steps;
}

/** A counter of a path step as the schema reads it: -1 when it refuses the value. */
const stepCount = (value: unknown): number => (isCount(value) ? value : -1);

/**
 * One pass over the step's own keys, each value read by its key: a step's counters are often left out, so
 * steps come in many shapes, and reading each field by name cost more (docs/performance-costs.md, "Import
 * into memory").
 */
function plainPathStep(value: unknown): PathStep | undefined {
  if (!isPlainObject(value)) return undefined;
  let application: unknown;
  let page: unknown;
  let form: unknown;
  let item: unknown;
  let visits = 0;
  let filled = 0;
  let nomatch = 0;
  let noinput = 0;
  let transfer = 0;
  let disconnect = 0;
  for (const key in value) {
    const field = value[key];
    switch (key) {
      case 'application':
        application = field;
        break;
      case 'page':
        page = field;
        break;
      case 'form':
        form = field;
        break;
      case 'item':
        item = field;
        break;
      case 'visits':
        visits = stepCount(field);
        break;
      case 'filled':
        filled = stepCount(field);
        break;
      case 'nomatch':
        nomatch = stepCount(field);
        break;
      case 'noinput':
        noinput = stepCount(field);
        break;
      case 'transfer':
        transfer = stepCount(field);
        break;
      case 'disconnect':
        disconnect = stepCount(field);
        break;
      default:
        return undefined;
    }
  }
  if (
    !isStorableIdentifier(application, PATH_TEXT_LENGTH) ||
    !isStorableIdentifier(page, PATH_TEXT_LENGTH) ||
    !isStorableIdentifier(form, PATH_TEXT_LENGTH) ||
    !isStorableIdentifier(item, PATH_TEXT_LENGTH) ||
    Math.min(visits, filled, nomatch, noinput, transfer, disconnect) < 0
  ) {
    return undefined;
  }
  return { application, page, form, item, visits, filled, nomatch, noinput, transfer, disconnect };
}
