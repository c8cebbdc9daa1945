/**
 * npm run bench:fast-paths (this file, pinned to the second core with taskset): what each
 * hand-written fast path on a request path buys over the library way doing the same job, in one process
 * on realistic input, so that the figure each one is kept for can be stated in docs/performance-costs.md
 * ("Hand-written shortcuts on Node.js 24"), to which its code's comment points:
 *
 * - survey/soap/plain-envelope.ts against the sax reader it falls back to, on the two-question svcEval page
 *   PHP's SoapClient sends (the page of docs/performance.md's svcEval row);
 * - the series JSON written into one buffer (reporting/series/representation.ts, json-number-bytes.ts,
 *   period-keys.ts) against Buffer.from(JSON.stringify(...)), on the event tracker's reports of rows 1
 *   and 2 (one year by day over ALL, eight days of one number) built from the demo generator's calls, their
 *   values the Float64Array columns the store's daily totals are read into (storage/day-totals.ts);
 * - domain/instant.ts against luxon and against a regular expression with Date.UTC, on 100,000 different
 *   instants in the forms clients send;
 * - domain/plain-call-record.ts against the zod wire schema (parseCallRecord, as the import called it before),
 *   on the demo generator's records as JSON.parse gives them, version 1 and version 2.
 *
 * Each comparison first asserts that every way gives the same result, then warms every way up and runs
 * ROUNDS rounds, each way in turn and at least ROUND_MS long. It prints the median time per operation of
 * each way and the median of the rounds' ratios library / fast path (ways measured milliseconds apart
 * share the machine's state), with their least and greatest, as a markdown table. The project's modules
 * run through tsx, whose output adds a little to each call of theirs and nothing to the libraries': the
 * ratios, if anything, understate what a fast path buys.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { DateTime } from 'luxon';
import { accountId, type Account } from '../src/accounts/account';
import { parseCallRecord, type CallRecordInput } from '../src/domain/call-record';
import { parseInstantWithOffset } from '../src/domain/instant';
import { readPlainCallRecord } from '../src/domain/plain-call-record';
import { eventSeries } from '../src/reporting/events/series';
import { parseSeriesQuery } from '../src/reporting/query/params';
import { askedPhone, phoneScope } from '../src/reporting/query/phone-scope';
import { seriesRepresentation } from '../src/reporting/series/representation';
import { seriesReporter, type SeriesReport } from '../src/reporting/series/series-report';
import { generateDemoCallRecords, generateDemoCalls } from '../src/startup-data/demo/calls';
import { mulberry32, type Random } from '../src/startup-data/demo/random';
import { createMemoryStore } from '../src/storage/memory/memory-store';
import type { Store } from '../src/storage/store';
import { envelopeReader } from '../src/survey/soap/envelope-reader';
import { readPlainEnvelope } from '../src/survey/soap/plain-envelope';
import { HISTORY_END, PHONES, TIME_ZONE } from './bench-account';
import { describeMachine } from './machine';
import { median } from './rounds';

const ROUNDS = 7;
/** Every round of every way lasts at least this long, so that a timer tick or one collection is noise. */
const ROUND_MS = 200;
/** Time each way runs before the rounds: optimised by the JIT, and timed to size its rounds. */
const WARM_UP_MS = 1000;

/** One way of doing a job: `run` does it `perRun` times and returns a number made from the results. */
interface Way {
  readonly name: string;
  readonly perRun: number;
  readonly run: () => number;
}

/** A fast path against one or more library ways of doing the same job. */
interface Comparison {
  readonly job: string;
  readonly fast: Way;
  readonly libraries: readonly Way[];
}

/** Where every result goes, so that no work the compiler could prove unused is left out of a timing. */
let sink = 0;

function nanosecondsPerOperation(way: Way, runs: number): number {
  const start = process.hrtime.bigint();
  for (let run = 0; run < runs; run += 1) sink += way.run();
  return Number(process.hrtime.bigint() - start) / (runs * way.perRun);
}

/** Warms `way` up for WARM_UP_MS and returns how many runs make a round of at least ROUND_MS (with a quarter to spare). */
function warmUp(way: Way): number {
  const start = performance.now();
  let runs = 0;
  while (performance.now() - start < WARM_UP_MS) {
    sink += way.run();
    runs += 1;
  }
  return Math.ceil((runs * ROUND_MS * 1.25) / (performance.now() - start));
}

interface Figure {
  readonly job: string;
  readonly fastName: string;
  readonly libraryName: string;
  readonly fastNs: number;
  readonly libraryNs: number;
  /** Median, least and greatest over the rounds of library / fast path. */
  readonly ratio: number;
  readonly minRatio: number;
  readonly maxRatio: number;
}

function measure({ job, fast, libraries }: Comparison): Figure[] {
  const ways = [fast, ...libraries];
  const runs = ways.map(warmUp);
  const samples = ways.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round += 1) {
    ways.forEach((way, index) => samples[index]?.push(nanosecondsPerOperation(way, runs[index] as number)));
  }
  const [fastSamples = []] = samples;
  return libraries.map((library, index) => {
    const librarySamples = samples[index + 1] ?? [];
    const ratios = librarySamples.map((ns, round) => ns / (fastSamples[round] as number));
    return {
      job,
      fastName: fast.name,
      libraryName: library.name,
      fastNs: median(fastSamples),
      libraryNs: median(librarySamples),
      ratio: median(ratios),
      minRatio: Math.min(...ratios),
      maxRatio: Math.max(...ratios),
    };
  });
}

// 1. svcEval envelopes: the plain scan against sax.

/** SURVEY_MAX_* at their defaults (src/survey/settings.ts): the bounds are checked alike either way. */
const MESSAGE_LIMITS: Parameters<typeof readPlainEnvelope>[1] = { maxDepth: 32, maxElements: 10_000, maxItems: 1000, maxAttributes: 32, maxTextLength: 10_485_760 };

/** A two-question page as PHP's SoapClient sends it: bench/survey.ts's PAGE, the svcEval row's load. */
const PHP_SVCEVAL_PAGE =
  '<?xml version="1.0" encoding="UTF-8"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" ' +
  'xmlns:ns1="urn:SampleWebservice" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:SOAP-ENC="http://schemas.xmlsoap.org/soap/encoding/" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" SOAP-ENV:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><SOAP-ENV:Body>' +
  '<ns1:svcEval><question_texts SOAP-ENC:arrayType="xsd:string[2]" xsi:type="ns1:ArrayOfstring">' +
  '<item xsi:type="xsd:string">Would you recommend us?</item><item xsi:type="xsd:string">Your comments</item></question_texts>' +
  '<answers SOAP-ENC:arrayType="xsd:string[2]" xsi:type="ns1:ArrayOfstring">' +
  '<item xsi:type="xsd:string">yes</item><item xsi:type="xsd:string">Quick &amp; friendly</item></answers>' +
  '</ns1:svcEval></SOAP-ENV:Body></SOAP-ENV:Envelope>\n';

function envelopeComparison(): Comparison {
  const plain = () => readPlainEnvelope(PHP_SVCEVAL_PAGE, MESSAGE_LIMITS);
  const sax = () => {
    const reader = envelopeReader(MESSAGE_LIMITS);
    reader.write(PHP_SVCEVAL_PAGE);
    return reader.end();
  };
  const parts = plain();
  assert.ok(parts !== undefined, 'the plain scan reads the PHP page');
  assert.deepEqual(parts, sax());
  return {
    job: 'svcEval envelope (PHP, 2 questions), per message',
    fast: { name: 'plain scan', perRun: 1, run: () => plain()?.answers?.length ?? -1 },
    libraries: [{ name: 'sax reader', perRun: 1, run: () => sax().answers?.length ?? -1 }],
  };
}

// 2. Series JSON: written into one buffer against JSON.stringify.

/** The demo's calls on the three numbers of bench-account.ts over 2025, in a memory store (as bench/servers.ts does). */
async function demoStore(): Promise<{ store: Store; account: Account }> {
  const store = createMemoryStore();
  const account: Account = {
    id: accountId('dev', 'bench'),
    tool: 'dev',
    login: 'bench',
    passwordHash: 'not used',
    active: true,
    timeZone: TIME_ZONE,
    credentialGeneration: 0,
  };
  await store.accounts.save(account);
  for (const phone of PHONES) await store.phones.assign(phone, account.id);
  const calls = [...generateDemoCallRecords({ phones: PHONES, days: 365, callsPerDay: 100, seed: 7, timeZone: TIME_ZONE, now: HISTORY_END })];
  for (let start = 0; start < calls.length; start += 10_000) await store.calls.add(calls.slice(start, start + 10_000));
  return { store, account };
}

/** The event tracker's report as the route builds it (WEEK_START and MAX_RANGE_DAYS at their defaults). */
async function eventReport(store: Store, account: Account, path: Record<string, string>): Promise<SeriesReport> {
  const query = parseSeriesQuery(path, { maxRangeDays: 3660, weekStart: 'monday', timeZone: account.timeZone });
  const basis = await store.accounts.reportBasis(account.id, askedPhone(query.phone));
  return seriesReporter('monday', eventSeries)(account, query, phoneScope(account, query.phone, basis.ownsPhone), store.calls);
}

/** The object JSON.stringify would be given: integer-like keys come out ascending, as the specification orders them. */
function reportObject(report: SeriesReport): Record<string, Record<string, number>> {
  return Object.fromEntries(report.series.map(([name, values]) => [name, Object.fromEntries(report.keys.seconds.map((key, index) => [key, values[index] as number]))]));
}

function seriesJsonComparison(job: string, report: SeriesReport): Comparison {
  const representation = seriesRepresentation(report);
  const written = (): Buffer => representation.jsonBytes?.() ?? assert.fail('a series report writes its JSON as bytes');
  const built = reportObject(report);
  const stringified = () => Buffer.from(JSON.stringify(reportObject(report)));
  assert.ok(written().equals(stringified()), `${job}: the hand-written JSON is byte for byte JSON.stringify's`);
  return {
    job: `${job} (${written().length.toLocaleString('en-US')} B), per report`,
    fast: { name: 'hand-written into one buffer', perRun: 1, run: () => written().length },
    libraries: [
      // What representation.ts would do instead: the report's series and keys made an object, then stringified.
      { name: 'JSON.stringify of the object built from the report', perRun: 1, run: () => stringified().length },
      // Its floor: the object already built, as if the series were made as objects in the first place.
      { name: 'JSON.stringify of an object already built', perRun: 1, run: () => Buffer.from(JSON.stringify(built)).length },
    ],
  };
}

// 3. Instants: read character by character against luxon and a regular expression.

const INSTANT_COUNT = 100_000;
/** Offsets callers' platforms write, in minutes. */
const OFFSETS = [-480, -420, -360, -300, -240, -210, 0, 60, 120, 330, 345, 540, 600, 780];

const twoDigits = (value: number) => String(value).padStart(2, '0');

function offsetText(minutes: number, colon: boolean): string {
  const magnitude = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${twoDigits(Math.floor(magnitude / 60))}${colon ? ':' : ''}${twoDigits(magnitude % 60)}`;
}

/** One valid instant of 2015-2026: mostly local time with seconds and ±hh:mm, or JavaScript's toISOString; some of the rarer forms. */
function randomInstant(random: Random): string {
  const milliseconds = Date.UTC(2015, 0, 1) + Math.floor(random() * 12 * 365.25 * 86_400_000);
  const form = random();
  if (form < 0.3) return new Date(milliseconds).toISOString();
  const offset = OFFSETS[Math.floor(random() * OFFSETS.length)] as number;
  const local = new Date(milliseconds + offset * 60_000).toISOString().slice(0, 19);
  if (form < 0.85) return local + offsetText(offset, true);
  if (form < 0.9) return local.slice(0, 16) + offsetText(offset, true);
  if (form < 0.95) return `${local}.${String(Math.floor(random() * 1e6)).padStart(6, '0')}${offsetText(offset, false)}`;
  return `${local.replace('T', 't')}z`;
}

function differentInstants(count: number): string[] {
  const random = mulberry32(11);
  const texts = new Set<string>();
  while (texts.size < count) texts.add(randomInstant(random));
  return [...texts];
}

/** domain/instant.ts's grammar without the calendar: luxon checks the date and reads the time, but would take hour 24, offsets past 18 hours or minutes 60. */
const INSTANT_SHAPE = /^\d{4}-\d{2}-\d{2}[Tt](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:[Zz]|[+-](?:0\d|1[0-8]):?[0-5]\d)$/;

/** luxon's ISO reader, in the zone written (setZone), so that the year checked is the one written. */
function byLuxon(text: string): number | undefined {
  if (!INSTANT_SHAPE.test(text)) return undefined;
  const instant = DateTime.fromISO(text, { setZone: true });
  return instant.isValid && instant.year >= 1970 ? instant.toMillis() : undefined;
}

const INSTANT_FIELDS = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:[Zz]|([+-])(\d{2}):?(\d{2}))$/;

/** One regular expression's captures, the ranges checked, and Date.UTC, which would roll February 30 over to March: refused first. */
function byRegularExpression(text: string): number | undefined {
  const fields = INSTANT_FIELDS.exec(text);
  if (fields === null) return undefined;
  const [year, month, day, hour, minute, second] = fields.slice(1, 7).map((field) => Number(field ?? 0)) as [number, number, number, number, number, number];
  const offsetHours = Number(fields[9] ?? 0);
  const offsetMinutes = Number(fields[10] ?? 0);
  const inRange = year >= 1970 && month >= 1 && month <= 12 && day >= 1 && hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 18 && offsetMinutes <= 59;
  if (!inRange || Date.UTC(year, month - 1, day) >= Date.UTC(year, month, 1)) return undefined;
  const milliseconds = Number((fields[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const offset = (fields[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  return Date.UTC(year, month - 1, day, hour, minute, second, milliseconds) - offset * 60_000;
}

/** What all three must refuse: texts shaped like instants that name none (src/domain/instant.test.ts's refusals, and April 31). */
const NOT_INSTANTS = [
  '2018-02-30T00:00:00Z',
  '2019-02-29T00:00:00Z',
  '2018-04-31T00:00:00Z',
  '2018-13-01T00:00:00Z',
  '2018-02-07T24:00:00Z',
  '2018-02-07T10:15:60Z',
  '2018-02-07T10:15:00+19:00',
  '2018-02-07T15:15:00+05:60',
  '1969-12-31T23:59:59Z',
  '2018-02-07T10:15:00',
  '2018-02-07',
  '2018-02-07 10:15:00Z',
  '2018-02-07T15:15:00.1234567890Z',
  '2018-02-07T15:15.5Z',
];

/** Reads every text with `parse`; a refusal counts -1, so that the sum depends on every result. */
function readAll(texts: readonly string[], parse: (text: string) => number | undefined): number {
  let total = 0;
  for (const text of texts) total += parse(text) ?? -1;
  return total;
}

function instantComparison(): Comparison {
  const texts = differentInstants(INSTANT_COUNT);
  for (const text of texts) {
    const expected = parseInstantWithOffset(text);
    assert.ok(expected !== undefined, text);
    assert.equal(byLuxon(text), expected, text);
    assert.equal(byRegularExpression(text), expected, text);
  }
  for (const text of NOT_INSTANTS) assert.deepEqual([parseInstantWithOffset(text), byLuxon(text), byRegularExpression(text)], [undefined, undefined, undefined], text);
  return {
    job: `ISO-8601 instant (${INSTANT_COUNT.toLocaleString('en-US')} different), per instant`,
    fast: { name: 'parseInstantWithOffset', perRun: texts.length, run: () => readAll(texts, parseInstantWithOffset) },
    libraries: [
      { name: 'luxon fromISO (setZone) after a shape check', perRun: texts.length, run: () => readAll(texts, byLuxon) },
      { name: 'regular expression + Date.UTC', perRun: texts.length, run: () => readAll(texts, byRegularExpression) },
    ],
  };
}

// 4. Call records: read by hand against the zod wire schema.

const CALL_RECORD_COUNT = 20_000;
const VERSION_1_FIELDS = ['call_id', 'phone', 'started_at', 'log_events', 'loops', 'form_items'] as const;

/** The demo generator's records as an import's JSON.parse gives them, version 2 as generated or cut to version 1's fields. */
function parsedRecords(version: 1 | 2): unknown[] {
  const records: unknown[] = [];
  for (const wire of generateDemoCalls({ phones: PHONES, days: 90, callsPerDay: 100, seed: 11, timeZone: TIME_ZONE, now: HISTORY_END })) {
    const fields: Partial<CallRecordInput> = version === 2 ? wire : Object.fromEntries(VERSION_1_FIELDS.map((field) => [field, wire[field]]));
    records.push(JSON.parse(JSON.stringify(fields)));
    if (records.length === CALL_RECORD_COUNT) break;
  }
  return records;
}

function callRecordComparison(version: 1 | 2): Comparison {
  const records = parsedRecords(version);
  const bySchema = (value: unknown) => {
    const parsed = parseCallRecord(value);
    return 'record' in parsed ? parsed.record : undefined;
  };
  for (const value of records) {
    const plain = readPlainCallRecord(value);
    assert.ok(plain !== undefined, 'the plain reading takes every generated record');
    assert.deepEqual(plain, bySchema(value));
  }
  const readAllWith = (read: (value: unknown) => { logEvents: number } | undefined) => () => {
    let total = 0;
    for (const value of records) total += read(value)?.logEvents ?? -1;
    return total;
  };
  return {
    job: `call record, version ${version} (${CALL_RECORD_COUNT.toLocaleString('en-US')} of the demo's, parsed JSON), per record`,
    fast: { name: 'readPlainCallRecord', perRun: records.length, run: readAllWith(readPlainCallRecord) },
    libraries: [{ name: 'the zod wire schema (parseCallRecord)', perRun: records.length, run: readAllWith(bySchema) }],
  };
}

// The run.

const log = (line: string) => process.stdout.write(`${line}\n`);

const nanoseconds = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

async function main(): Promise<void> {
  const machine = describeMachine();
  log(`${machine.cpu}, ${machine.logicalCores} cores, Node ${machine.node}, load average ${machine.loadAverage.toFixed(2)}`);
  log(`${ROUNDS} alternating rounds of at least ${ROUND_MS} ms per way after ${WARM_UP_MS} ms of warm-up; medians`);
  const { store, account } = await demoStore();
  const comparisons = [
    envelopeComparison(),
    seriesJsonComparison('event tracker, one year by day, ALL', await eventReport(store, account, { start: '20250101', end: '20251231', period: 'day', phone: 'ALL' })),
    seriesJsonComparison('event tracker, 8 days by day, one number', await eventReport(store, account, { start: '20250106', end: '20250113', period: 'day', phone: PHONES[0] as string })),
    instantComparison(),
    callRecordComparison(1),
    callRecordComparison(2),
  ];
  const figures: Figure[] = [];
  for (const comparison of comparisons) {
    const measured = measure(comparison);
    for (const figure of measured) {
      log(`${figure.job}: ${figure.fastName} ${nanoseconds(figure.fastNs)} ns, ${figure.libraryName} ${nanoseconds(figure.libraryNs)} ns, ${figure.ratio.toFixed(2)}x`);
    }
    figures.push(...measured);
  }
  assert.ok(Number.isFinite(sink), 'every way returned a number');
  log('');
  log('| job | fast path | ns/op | library way | ns/op | library / fast (median) | min | max |');
  log('|---|---|---:|---|---:|---:|---:|---:|');
  for (const figure of figures) {
    const ratios = [figure.ratio, figure.minRatio, figure.maxRatio].map((ratio) => ratio.toFixed(2)).join(' | ');
    log(`| ${figure.job} | ${figure.fastName} | ${nanoseconds(figure.fastNs)} | ${figure.libraryName} | ${nanoseconds(figure.libraryNs)} | ${ratios} |`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench/fast-paths.ts: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
