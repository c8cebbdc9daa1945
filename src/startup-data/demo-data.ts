import { DateTime } from 'luxon';
import { hashPassword } from '../accounts/password-hash';
import { callRecordSchema, type CallRecord, type CallRecordInput } from '../domain/call-record';
import type { Clock } from '../time/clock';
import { addCallsInBatches } from './seed-file';
import { accountId, type Tool } from '../domain/account';
import type { Store } from '../storage/store';

export interface DemoAccount {
  tool: Tool;
  login: string;
  password: string;
  phones: string[];
  timeZone: string;
  /** The 7 local days ending today, as YYYYMMDD, ready for an /api/events URL. */
  lastWeek: { start: string; end: string };
}

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

const DEMO_ACCOUNT = {
  tool: 'dev',
  login: 'demo',
  password: 'demo-password',
  timeZone: 'America/New_York',
  phones: ['18005550100', '18005550101', '18005550102'],
} as const;

export const DEMO_ACCOUNT_ID = accountId(DEMO_ACCOUNT.tool, DEMO_ACCOUNT.login);

/** About 17,000 calls: a history worth charting that still loads in well under a second. */
const DEMO_HISTORY = { days: 120, callsPerDay: 60, seed: 20_180_207 } as const;

/** Relative volume by ISO weekday, Monday first: Mondays are busiest, weekends quiet. */
const WEEKDAY_VOLUME = [1.1, 1.05, 1, 1, 0.85, 0.25, 0.15] as const;

/** Relative volume by local hour: office hours on weekdays, a late and flat day at weekends. */
const WEEKDAY_HOURS = [
  0.3, 0.2, 0.15, 0.15, 0.2, 0.4, 0.8, 2, 5, 9, 10, 10, 7, 8, 10, 9, 8, 6, 3.5, 2.5, 1.8, 1.2, 0.8, 0.5,
] as const;
const WEEKEND_HOURS = [
  0.3, 0.2, 0.15, 0.15, 0.15, 0.2, 0.3, 0.6, 1.2, 2, 3, 3.5, 3.5, 3.5, 3.2, 3, 2.8, 2.5, 2.2, 1.8, 1.4, 1, 0.7, 0.5,
] as const;

const MS_PER_HOUR = 3_600_000;

/** Share of calls that hang up at once, with almost no events. */
const HANG_UP_SHARE = 0.12;

type Random = () => number;

/** mulberry32: tiny and fast, and plenty for plausible-looking data reproducible from one seed. */
function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * FNV-1a over the parts. Each phone and each phone-day gets its own stream, so a day's calls are the
 * same whatever window is asked for, and generating again later re-sends identical records.
 */
function seedFrom(...parts: readonly (string | number)[]): number {
  const text = parts.join('|');
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}

function between(random: Random, low: number, high: number): number {
  return low + (high - low) * random();
}

function pickWeighted(random: Random, weights: readonly number[]): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let remaining = random() * total;
  for (const [index, weight] of weights.entries()) {
    remaining -= weight;
    if (remaining < 0) return index;
  }
  return weights.length - 1;
}

interface PhoneProfile {
  readonly volume: number;
  /** Hours by which this line's day runs earlier or later than the usual pattern. */
  readonly hourShift: number;
  /** How long this line's menus are, scaling the events per call. */
  readonly menuLength: number;
}

function phoneProfile(seed: number, phone: string): PhoneProfile {
  const random = mulberry32(seedFrom(seed, phone));
  return {
    volume: between(random, 0.6, 1.4),
    hourShift: Math.floor(between(random, -1, 2)),
    menuLength: between(random, 0.7, 1.3),
  };
}

interface CallCounts {
  readonly log_events: number;
  readonly loops: number;
  readonly form_items: number;
}

function callCounts(random: Random, menuLength: number): CallCounts {
  if (random() < HANG_UP_SHARE) return { log_events: 1 + Math.floor(random() * 2), loops: 0, form_items: 0 };
  // The product of two uniforms skews towards short calls with a long tail.
  const logEvents = Math.max(2, Math.round(menuLength * (4 + 26 * random() * random())));
  return {
    log_events: logEvents,
    loops: Math.floor(logEvents * between(random, 0.05, 0.25)),
    form_items: Math.floor(logEvents * between(random, 0.2, 0.5)),
  };
}

/** The start of one local hour; luxon is consulted once per hour rather than once per call. */
interface LocalHour {
  readonly startMs: number;
  /** `yyyy-MM-ddTHH`, local. */
  readonly wallPrefix: string;
  /** `+hh:mm`. */
  readonly offset: string;
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

function localHourByLuxon(day: DateTime, hour: number): LocalHour {
  // In a DST gap luxon moves the missing hour forward; those calls simply land in the next hour.
  const start = day.set({ hour });
  return { startMs: start.toMillis(), wallPrefix: start.toFormat("yyyy-MM-dd'T'HH"), offset: start.toFormat('ZZ') };
}

/** Asking luxon for every hour is slow, so it is asked only on the few days whose offset changes. */
function localHoursOf(day: DateTime): LocalHour[] {
  const hours = Array.from({ length: 24 }, (_, hour) => hour);
  if (day.plus({ days: 1 }).offset !== day.offset) return hours.map((hour) => localHourByLuxon(day, hour));
  const date = day.toFormat('yyyy-MM-dd');
  const offset = day.toFormat('ZZ');
  return hours.map((hour) => ({
    startMs: day.toMillis() + hour * MS_PER_HOUR,
    wallPrefix: `${date}T${twoDigits(hour)}`,
    offset,
  }));
}

interface LocalDay {
  readonly stamp: string;
  readonly isWeekend: boolean;
  readonly volume: number;
  readonly hours: readonly LocalHour[];
}

function localDayOf(day: DateTime): LocalDay {
  return {
    stamp: day.toFormat('yyyyMMdd'),
    isWeekend: day.weekday >= 6,
    volume: WEEKDAY_VOLUME[day.weekday - 1] ?? 1,
    hours: localHoursOf(day),
  };
}

interface TimedCall {
  readonly startedAtMs: number;
  readonly startedAt: string;
}

function startTime(random: Random, day: LocalDay, profile: PhoneProfile): TimedCall {
  const pattern = day.isWeekend ? WEEKEND_HOURS : WEEKDAY_HOURS;
  const hour = day.hours[Math.min(23, Math.max(0, pickWeighted(random, pattern) + profile.hourShift))];
  if (hour === undefined) throw new RangeError('a local day has 24 hours');
  const minute = Math.floor(random() * 60);
  const second = Math.floor(random() * 60);
  return {
    startedAtMs: hour.startMs + (minute * 60 + second) * 1000,
    startedAt: `${hour.wallPrefix}:${twoDigits(minute)}:${twoDigits(second)}${hour.offset}`,
  };
}

interface DemoCall {
  readonly startedAtMs: number;
  readonly record: CallRecordInput;
}

function phoneCallsOfDay(phone: string, day: LocalDay, options: DemoCallOptions): DemoCall[] {
  const profile = phoneProfile(options.seed, phone);
  const random = mulberry32(seedFrom(options.seed, phone, day.stamp));
  const count = Math.round(options.callsPerDay * day.volume * profile.volume * between(random, 0.8, 1.2));
  const starts = Array.from({ length: count }, () => startTime(random, day, profile)).sort(
    (a, b) => a.startedAtMs - b.startedAtMs,
  );
  return starts.map(({ startedAtMs, startedAt }, index) => ({
    startedAtMs,
    record: {
      call_id: `demo-${phone}-${day.stamp}-${index + 1}`,
      phone,
      started_at: startedAt,
      ...callCounts(random, profile.menuLength),
    },
  }));
}

function callsOfDay(day: DateTime, options: DemoCallOptions): CallRecordInput[] {
  const localDay = localDayOf(day);
  return options.phones
    .flatMap((phone) => phoneCallsOfDay(phone, localDay, options))
    .filter((call) => call.startedAtMs <= options.now)
    .sort((a, b) => a.startedAtMs - b.startedAtMs)
    .map((call) => call.record);
}

/**
 * Plausible call records in wire format, oldest first, for the `days` local days ending today.
 * The same options always give the same records.
 */
export function* generateDemoCalls(options: DemoCallOptions): Generator<CallRecordInput> {
  const today = DateTime.fromMillis(options.now, { zone: options.timeZone }).startOf('day');
  for (let daysBack = options.days - 1; daysBack >= 0; daysBack -= 1) {
    yield* callsOfDay(today.minus({ days: daysBack }), options);
  }
}

function* parseCalls(inputs: Iterable<CallRecordInput>): Generator<CallRecord> {
  for (const input of inputs) yield callRecordSchema.parse(input);
}

function lastWeekOf(now: number, timeZone: string): DemoAccount['lastWeek'] {
  const today = DateTime.fromMillis(now, { zone: timeZone });
  return { start: today.minus({ days: 6 }).toFormat('yyyyMMdd'), end: today.toFormat('yyyyMMdd') };
}

/** Creates the demo account with its numbers and about four months of calls up to now. */
export async function loadDemoData(store: Store, clock: Clock): Promise<DemoAccount> {
  const now = clock.now();
  const { tool, login, password, timeZone } = DEMO_ACCOUNT;
  const phones = [...DEMO_ACCOUNT.phones];
  const id = accountId(tool, login);
  await store.accounts.save({ id, tool, login, passwordHash: await hashPassword(password), active: true, timeZone, credentialGeneration: 0 });
  for (const phone of phones) await store.phones.assign(phone, id);
  await addCallsInBatches(store, parseCalls(generateDemoCalls({ ...DEMO_HISTORY, phones, timeZone, now })));
  return { tool, login, password, phones, timeZone, lastWeek: lastWeekOf(now, timeZone) };
}
