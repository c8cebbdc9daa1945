import { DateTime } from 'luxon';
import type { CallRecordInput } from '../../src/domain/call-record';
import { regionOfCaller } from '../../src/domain/caller-region';
import { localDate, periodKey, periodKeys, type CompactDate, type Period } from './calendar';

/*
 * The oracle: every answer recomputed from the raw records with plain code, following
 * docs/specification.md §2.4, never the server's rollups, calendar or reports. Only the
 * region of a caller comes from the domain (regionOfCaller), which is tested on its own.
 */

export interface OracleStep {
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

export interface OracleCall {
  readonly id: string;
  readonly phone: string;
  readonly ms: number;
  readonly logEvents: number;
  readonly loops: number;
  readonly formItems: number;
  readonly caller: string | undefined;
  readonly durationMs: number;
  readonly transfers: number;
  readonly transferMs: number;
  readonly jsErrors: number;
  readonly fetchErrors: number;
  readonly pageLoads: number;
  readonly pageLoadMs: number;
  readonly path: readonly OracleStep[];
}

/** A caller in international digits: a + is dropped; ten digits without one are North American (country code 1). */
export function oracleCaller(wire: string | undefined): string | undefined {
  if (wire === undefined) return undefined;
  if (wire.startsWith('+')) return wire.slice(1);
  return wire.length === 10 ? `1${wire}` : wire;
}

/** Seconds as whole milliseconds, rounded as the call record's rule says (call-record.ts). */
const toMs = (seconds: number | undefined) => (seconds === undefined ? 0 : Math.round(seconds * 1000));

const STEP_COUNTERS = ['visits', 'filled', 'nomatch', 'noinput', 'transfer', 'disconnect'] as const;

export function readRecord(wire: CallRecordInput): OracleCall {
  const started = DateTime.fromISO(wire.started_at, { setZone: true });
  if (!started.isValid) throw new Error(`the oracle cannot read started_at ${wire.started_at}`);
  return {
    id: wire.call_id,
    phone: wire.phone.replace(/^\+/, ''),
    ms: started.toMillis(),
    logEvents: wire.log_events,
    loops: wire.loops,
    formItems: wire.form_items,
    caller: oracleCaller(wire.caller),
    durationMs: toMs(wire.duration_seconds),
    transfers: wire.transfers ?? 0,
    transferMs: toMs(wire.transfer_seconds),
    jsErrors: wire.js_errors ?? 0,
    fetchErrors: wire.fetch_errors ?? 0,
    pageLoads: wire.page_loads ?? 0,
    pageLoadMs: toMs(wire.page_load_seconds),
    path: (wire.path ?? []).map((step) => ({
      application: step.application,
      page: step.page,
      form: step.form,
      item: step.item,
      ...(Object.fromEntries(STEP_COUNTERS.map((counter) => [counter, step[counter] ?? 0])) as Record<(typeof STEP_COUNTERS)[number], number>),
    })),
  };
}

/** numerator / denominator rounded half up to two decimals, exactly (integers in, no float on the way); 0 for a 0 divisor. */
export function ratio(numerator: number, denominator: number): number {
  if (denominator === 0) return 0;
  const n = BigInt(numerator);
  const d = BigInt(denominator);
  return Number((200n * n + d) / (2n * d)) / 100;
}

interface PeriodTotals {
  calls: number;
  logEvents: number;
  loops: number;
  formItems: number;
  durationMs: number;
  transfers: number;
  transferMs: number;
  jsErrors: number;
  fetchErrors: number;
  pageLoads: number;
  pageLoadMs: number;
  readonly callers: Set<string>;
}

const emptyTotals = (): PeriodTotals => ({
  calls: 0,
  logEvents: 0,
  loops: 0,
  formItems: 0,
  durationMs: 0,
  transfers: 0,
  transferMs: 0,
  jsErrors: 0,
  fetchErrors: 0,
  pageLoads: 0,
  pageLoadMs: 0,
  callers: new Set(),
});

export type SeriesResource = 'events' | 'volume' | 'performance' | 'profile';
export const SERIES_RESOURCES: readonly SeriesResource[] = ['events', 'volume', 'performance', 'profile'];

/** Each resource's series, in the order of the specification. */
const SERIES: Record<SeriesResource, readonly (readonly [string, (totals: PeriodTotals) => number])[]> = {
  events: [
    ['calls', (t) => t.calls],
    ['log_events', (t) => t.logEvents],
    ['loops_per_call', (t) => ratio(t.loops, t.calls)],
    ['form_items', (t) => t.formItems],
    ['loops', (t) => t.loops],
    ['average_form_items', (t) => ratio(t.formItems, t.calls)],
  ],
  volume: [
    ['calls', (t) => t.calls],
    ['call_minutes', (t) => ratio(t.durationMs, 60_000)],
    ['transfers', (t) => t.transfers],
    ['transfer_minutes', (t) => ratio(t.transferMs, 60_000)],
  ],
  performance: [
    ['calls', (t) => t.calls],
    ['js_errors', (t) => t.jsErrors],
    ['js_errors_per_call', (t) => ratio(t.jsErrors, t.calls)],
    ['fetch_errors', (t) => t.fetchErrors],
    ['fetch_errors_per_call', (t) => ratio(t.fetchErrors, t.calls)],
    ['average_page_load', (t) => ratio(t.pageLoadMs, 1000 * t.pageLoads)],
  ],
  profile: [
    ['calls', (t) => t.calls],
    ['callers', (t) => t.callers.size],
  ],
};

export const US_STATE_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DC', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY',
  'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH',
  'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
] as const;
export const TOLL_FREE_KEY = 'US Toll-Free';

export const MAX_ENTRIES_PER_APPLICATION = 1_000;
export const MAX_ENTRIES_IN_RANGE = 10_000;

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

export interface Geographic {
  US: Record<string, number>;
  NON_US: { country: string; calls: number }[];
}

export type DiagnosticFlow = { status: 200; body: { applications: Record<string, FlowEntry[]> } } | { status: 400 };

/** Ascending by UTF-16 code units, the same in every locale. */
export const ascending = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface DatedCall {
  readonly call: OracleCall;
  readonly date: CompactDate;
}

interface AccountState {
  zone: string;
  readonly phones: Set<string>;
}

export class Oracle {
  private readonly calls: OracleCall[] = [];
  private readonly callsOfPhone = new Map<string, OracleCall[]>();
  private readonly seen = new Set<string>();
  private readonly accounts = new Map<string, AccountState>();

  /** Records as the server got them: a call_id seen before is a duplicate and left as it was. */
  addRecords(records: readonly CallRecordInput[]): void {
    for (const record of records) {
      if (this.seen.has(record.call_id)) continue;
      this.seen.add(record.call_id);
      const call = readRecord(record);
      this.calls.push(call);
      const ofPhone = this.callsOfPhone.get(call.phone);
      if (ofPhone === undefined) this.callsOfPhone.set(call.phone, [call]);
      else ofPhone.push(call);
    }
  }

  get callCount(): number {
    return this.calls.length;
  }

  allCalls(): readonly OracleCall[] {
    return this.calls;
  }

  setAccount(login: string, zone: string, phones: readonly string[]): void {
    this.accounts.set(login, { zone, phones: new Set(phones) });
  }

  setZone(login: string, zone: string): void {
    this.account(login).zone = zone;
  }

  movePhone(phone: string, from: string, to: string): void {
    this.account(from).phones.delete(phone);
    this.account(to).phones.add(phone);
  }

  zoneOf(login: string): string {
    return this.account(login).zone;
  }

  phonesOf(login: string): string[] {
    return [...this.account(login).phones];
  }

  private account(login: string): AccountState {
    const account = this.accounts.get(login);
    if (account === undefined) throw new Error(`the oracle has no account ${login}`);
    return account;
  }

  /** The calls of an account's numbers (ALL) or of one of them, on the local days start..end. */
  callsIn(login: string, phone: string, start: CompactDate, end: CompactDate): { zone: string; calls: DatedCall[] } {
    const { zone, phones } = this.account(login);
    const wanted = phone === 'ALL' ? phones : new Set([phone.replace(/^\+/, '')]);
    const calls: DatedCall[] = [];
    for (const number of wanted) {
      for (const call of this.callsOfPhone.get(number) ?? []) {
        const date = localDate(call.ms, zone);
        if (date >= start && date <= end) calls.push({ call, date });
      }
    }
    return { zone, calls };
  }

  series(
    resource: SeriesResource,
    login: string,
    phone: string,
    start: CompactDate,
    end: CompactDate,
    period: Period,
  ): Record<string, Record<string, number>> {
    const { zone, calls } = this.callsIn(login, phone, start, end);
    const totals = new Map<string, PeriodTotals>(periodKeys(start, end, period, zone).map((key) => [key, emptyTotals()]));
    for (const { call, date } of calls) {
      const key = periodKey(date, period, zone);
      const sums = totals.get(key);
      if (sums === undefined) throw new Error(`the oracle's call ${call.id} on ${date} fell in no period (${key})`);
      sums.calls += 1;
      sums.logEvents += call.logEvents;
      sums.loops += call.loops;
      sums.formItems += call.formItems;
      sums.durationMs += call.durationMs;
      sums.transfers += call.transfers;
      sums.transferMs += call.transferMs;
      sums.jsErrors += call.jsErrors;
      sums.fetchErrors += call.fetchErrors;
      sums.pageLoads += call.pageLoads;
      sums.pageLoadMs += call.pageLoadMs;
      if (call.caller !== undefined) sums.callers.add(call.caller);
    }
    return Object.fromEntries(
      SERIES[resource].map(([name, value]) => [name, Object.fromEntries([...totals].map(([key, sums]) => [key, value(sums)]))]),
    );
  }

  geographic(login: string, phone: string, start: CompactDate, end: CompactDate): Geographic {
    const US: Record<string, number> = Object.fromEntries([...US_STATE_CODES, TOLL_FREE_KEY].map((code) => [code, 0]));
    const abroad = new Map<string, number>();
    for (const { call } of this.callsIn(login, phone, start, end).calls) {
      if (call.caller === undefined) continue;
      const region = regionOfCaller(call.caller);
      if (region === 'US-TOLLFREE') US[TOLL_FREE_KEY] = (US[TOLL_FREE_KEY] ?? 0) + 1;
      else if (region.startsWith('US-')) {
        const state = region.slice(3);
        if (US[state] === undefined) throw new Error(`regionOfCaller(${call.caller}) gave ${region}, not one of the 51`);
        US[state] += 1;
      } else abroad.set(region, (abroad.get(region) ?? 0) + 1);
    }
    const NON_US = [...abroad]
      .sort(([codeA, callsA], [codeB, callsB]) => callsB - callsA || ascending(codeA, codeB))
      .map(([country, calls]) => ({ country, calls }));
    return { US, NON_US };
  }

  diagnosticFlow(login: string, phone: string, start: CompactDate, end: CompactDate): DiagnosticFlow {
    const applications = new Map<string, Map<string, FlowEntry>>();
    let entries = 0;
    for (const { call } of this.callsIn(login, phone, start, end).calls) {
      for (const step of call.path) {
        let items = applications.get(step.application);
        if (items === undefined) {
          items = new Map();
          applications.set(step.application, items);
        }
        const id = JSON.stringify([step.page, step.form, step.item]);
        let entry = items.get(id);
        if (entry === undefined) {
          entries += 1;
          entry = { page: step.page, form: step.form, item: step.item, visits: 0, filled: 0, nomatch: 0, noinput: 0, transfer: 0, disconnect: 0 };
          items.set(id, entry);
        }
        for (const counter of STEP_COUNTERS) entry[counter] += step[counter];
      }
    }
    if (entries > MAX_ENTRIES_IN_RANGE) return { status: 400 };
    // Object.fromEntries makes own keys of any text, `__proto__` included.
    const body: Record<string, FlowEntry[]> = Object.fromEntries(
      [...applications.keys()].sort(ascending).map((url) => [
        url,
        [...(applications.get(url) as Map<string, FlowEntry>).values()]
          .sort((a, b) => b.visits - a.visits || ascending(a.page, b.page) || ascending(a.form, b.form) || ascending(a.item, b.item))
          .slice(0, MAX_ENTRIES_PER_APPLICATION),
      ]),
    );
    return { status: 200, body: { applications: body } };
  }
}
