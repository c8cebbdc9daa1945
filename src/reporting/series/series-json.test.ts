import fc from 'fast-check';
import type { Account } from '../../accounts/account';
import { COUNTERS, DayTotalsTable, zeroSums, type Sums } from '../../storage/day-totals';
import type { CallReads } from '../../storage/store';
import { epochDayOf, localDayStartSeconds } from '../../time/calendar';
import { eventSeries } from '../events/series';
import { performanceSeries } from '../performance/series';
import type { SeriesQuery } from '../query/params';
import { PERIODS, periodsOverlapping, WEEK_STARTS } from '../query/periods';
import { volumeSeries } from '../volume/series';
import { MAX_NUMBER_BYTES, writeJsonNumber } from './json-number-bytes';
import { ratio } from './period-totals';
import { seriesRepresentation } from './representation';
import { keysOf } from './period-keys';
import { seriesReporter, type NamedSeries, type SeriesDefinition } from './series-report';

const account = (timeZone: string): Account => ({
  id: 'dev:plain',
  tool: 'dev',
  login: 'plain',
  passwordHash: 'not used',
  active: true,
  timeZone,
  credentialGeneration: 0,
});

/** The bytes the writer makes of one number. */
function written(value: number): string {
  const bytes = Buffer.alloc(MAX_NUMBER_BYTES);
  return bytes.toString('latin1', 0, writeJsonNumber(bytes, 0, value));
}

/** The series JSON as it is specified: JSON.stringify's text of each value, keys ascending, compact. */
function expectedJson(keys: readonly number[], namedSeries: readonly NamedSeries[]): string {
  const series = namedSeries.map(
    ([name, values]) => `${JSON.stringify(name)}:{${keys.map((key, index) => `"${key}":${JSON.stringify(values[index])}`).join(',')}}`,
  );
  return `{${series.join(',')}}`;
}

describe('the series JSON written straight into bytes', () => {
  test('writes every number as JSON.stringify does: counts, two-decimal ratios and any other double', () => {
    const hundredths = fc.integer({ min: 0, max: 2 ** 53 - 1 }).map((count) => count / 100);
    fc.assert(
      fc.property(fc.oneof(fc.nat(), fc.maxSafeNat(), hundredths, fc.double()), (value) => {
        expect(written(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 20_000 },
    );
    for (const value of [0, -0, 0.05, 0.1, 0.29, 1.005, 1e15, 1e21, 99999999999.99, 9999999999999.99, -1.5, Number.NaN]) {
      expect(written(value)).toBe(JSON.stringify(value));
    }
  });

  test('writes the same text as the series named in order, keys ascending, over any number of periods', () => {
    const report = fc
      .tuple(fc.uniqueArray(fc.integer({ min: 0, max: 4_102_444_800 }), { maxLength: 400 }), fc.integer({ min: 1, max: 6 }))
      .chain(([keys, seriesCount]) =>
        fc.record({
          keys: fc.constant([...keys].sort((a, b) => a - b)),
          series: fc.array(
            fc.tuple(
              fc.constantFrom('calls', 'log_events', 'loops_per_call', 'call_minutes'),
              fc.array(fc.oneof(fc.nat(), fc.integer({ min: 0, max: 1e9 }).map((count) => count / 100)), {
                minLength: keys.length,
                maxLength: keys.length,
              }),
            ),
            { minLength: seriesCount, maxLength: seriesCount },
          ),
        }),
      );
    fc.assert(
      fc.property(report, ({ keys, series }) => {
        const representation = seriesRepresentation({ keys: keysOf(keys), series });
        const bytes = representation.jsonBytes?.();
        expect(bytes?.toString('latin1')).toBe(expectedJson(keys, series));
        expect(representation.json()).toBe(expectedJson(keys, series));
      }),
      { numRuns: 300 },
    );
  });
});

/** What a series resource names, and how each series is made from a period's sums, written the plain way. */
const PLAIN_SERIES: ReadonlyArray<readonly [SeriesDefinition, ReadonlyArray<readonly [string, (sums: Sums) => number]>]> = [
  [
    eventSeries,
    [
      ['calls', (sums) => sums.calls],
      ['log_events', (sums) => sums.logEvents],
      ['loops_per_call', (sums) => ratio(sums.loops, sums.calls)],
      ['form_items', (sums) => sums.formItems],
      ['loops', (sums) => sums.loops],
      ['average_form_items', (sums) => ratio(sums.formItems, sums.calls)],
    ],
  ],
  [
    volumeSeries,
    [
      ['calls', (sums) => sums.calls],
      ['call_minutes', (sums) => ratio(sums.durationMs, 60_000)],
      ['transfers', (sums) => sums.transfers],
      ['transfer_minutes', (sums) => ratio(sums.transferMs, 60_000)],
    ],
  ],
  [
    performanceSeries,
    [
      ['calls', (sums) => sums.calls],
      ['js_errors', (sums) => sums.jsErrors],
      ['js_errors_per_call', (sums) => ratio(sums.jsErrors, sums.calls)],
      ['fetch_errors', (sums) => sums.fetchErrors],
      ['fetch_errors_per_call', (sums) => ratio(sums.fetchErrors, sums.calls)],
      ['average_page_load', (sums) => ratio(sums.pageLoadMs, sums.pageLoads * 1000)],
    ],
  ],
];

const FIRST_DAY = epochDayOf({ year: 2018, month: 1, day: 1 });

/** A day's sums as the rollups hold them: most days empty, counters from none to many, milliseconds past 2^32 over a month. */
const daySums = fc.oneof(
  { weight: 1, arbitrary: fc.constant(zeroSums()) },
  {
    weight: 3,
    arbitrary: fc.record({
      calls: fc.integer({ min: 1, max: 5000 }),
      logEvents: fc.nat(100_000),
      loops: fc.nat(20_000),
      formItems: fc.nat(50_000),
      durationMs: fc.nat(500_000_000),
      transfers: fc.nat(2000),
      transferMs: fc.nat(100_000_000),
      jsErrors: fc.nat(3000),
      fetchErrors: fc.nat(3000),
      pageLoads: fc.nat(10_000),
      pageLoadMs: fc.nat(50_000_000),
    }),
  },
);

describe('a series report read from daily totals and written straight into bytes', () => {
  test("is byte for byte JSON.stringify of the report made the plain way: an object per day, summed per period, keys ascending", async () => {
    const query = fc
      .record({
        from: fc.integer({ min: FIRST_DAY, max: FIRST_DAY + 4000 }),
        length: fc.integer({ min: 1, max: 120 }),
        period: fc.constantFrom(...PERIODS),
        weekStart: fc.constantFrom(...WEEK_STARTS),
        timeZone: fc.constantFrom('UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'),
        resource: fc.integer({ min: 0, max: PLAIN_SERIES.length - 1 }),
      })
      .chain((shape) => fc.record({ shape: fc.constant(shape), days: fc.array(daySums, { minLength: shape.length, maxLength: shape.length }) }));
    await fc.assert(
      fc.asyncProperty(query, async ({ shape: { from, length, period, weekStart, timeZone, resource }, days }) => {
        const to = from + length - 1;
        const table = new DayTotalsTable(from, to);
        for (const counter of COUNTERS) days.forEach((sums, index) => (table.column(counter)[index] = sums[counter]));
        const [definition, plainSeries] = PLAIN_SERIES[resource] as (typeof PLAIN_SERIES)[number];
        const calls = { dailyTotals: () => Promise.resolve(table) } as Partial<CallReads> as CallReads;
        const seriesQuery: SeriesQuery = { from, to, period, phone: 'ALL' };
        const report = await seriesReporter(weekStart, definition)(account(timeZone), seriesQuery, { ownedBy: 'dev:plain' }, calls);

        const spans = periodsOverlapping(from, to, period, weekStart);
        const periodSums = spans.map(({ first, last }) => {
          const sum = zeroSums();
          for (let day = first; day <= last; day += 1) for (const counter of COUNTERS) sum[counter] += (days[day - from] as Sums)[counter];
          return sum;
        });
        const plain = Object.fromEntries(
          plainSeries.map(([name, value]) => [
            name,
            Object.fromEntries(spans.map(({ start }, index) => [localDayStartSeconds(start, timeZone), value(periodSums[index] as Sums)])),
          ]),
        );
        expect(seriesRepresentation(report).jsonBytes?.().toString('latin1')).toBe(JSON.stringify(plain));
      }),
      { numRuns: 300 },
    );
  });
});
