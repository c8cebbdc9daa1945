import fc from 'fast-check';
import { MAX_NUMBER_BYTES, writeJsonNumber } from './json-number-bytes';
import { seriesRepresentation } from './representation';
import { keysOf } from './period-keys';
import type { NamedSeries } from './series-report';

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
