import { z } from 'zod';
import type { Representation } from '../../http/representation';
import { MAX_NUMBER_BYTES, writeJsonNumber } from './json-number-bytes';
import type { PeriodKeys } from './period-keys';
import type { NamedSeries, SeriesReport } from './series-report';

const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;

/** At least the bytes of the JSON: every key once per series, and the widest text for every value. */
function upperBound(report: SeriesReport): number {
  const names = report.series.reduce((total, [name]) => total + name.length + 6, 2);
  return names + report.series.length * (report.keys.jsonText.length + report.keys.seconds.length * (MAX_NUMBER_BYTES + 1));
}

/** The largest report whose bytes are written in the kept scratch buffer (a year by day needs 85 kB). */
const MAX_SCRATCH_BYTES = 1 << 20;
/**
 * Where a report's JSON is written before its own bytes are copied out, kept across reports: the writer
 * runs from start to end without yielding, so no two reports share it, and a report of a year allocates
 * only its own bytes, not the bound's spare room as well.
 */
let scratch = Buffer.allocUnsafe(0);

/**
 * JSON is written by hand, straight into bytes: keys are digit strings and values finite numbers, so
 * nothing needs escaping, and the period keys keep ascending order whatever the engine does with
 * integer-like property names (JSON.stringify would put a negative key, a period before 1970 east of UTC,
 * after the positive ones). Each key's text is made once (period-keys.ts), and none per value. Plain loops
 * over locals: this runs for every value of a report that is not kept.
 *
 * Kept because a report built on every request would spend more in Buffer.from(JSON.stringify(...)) than
 * in all the rest of its work; a kept report gains nothing (docs/performance-costs.md, "Hand-written
 * shortcuts on Node.js 24").
 */
function toJsonBytes(report: SeriesReport): Buffer {
  const bound = upperBound(report);
  if (scratch.length < bound && bound <= MAX_SCRATCH_BYTES) scratch = Buffer.allocUnsafe(bound);
  const bytes = bound <= scratch.length ? scratch : Buffer.allocUnsafe(bound);
  const bytesView = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const keysView = new DataView(report.keys.jsonText.buffer, report.keys.jsonText.byteOffset, report.keys.jsonText.length);
  let at = 0;
  bytes[at++] = OPEN;
  for (let seriesIndex = 0; seriesIndex < report.series.length; seriesIndex += 1) {
    const [name, values] = report.series[seriesIndex] as NamedSeries;
    if (seriesIndex > 0) bytes[at++] = COMMA;
    at += bytes.write(`"${name}":`, at, 'latin1');
    at = writeSeriesObject(bytes, bytesView, at, report.keys, keysView, values);
  }
  bytes[at++] = CLOSE;
  const body = Buffer.allocUnsafe(at);
  bytes.copy(body, 0, 0, at);
  return body;
}

/**
 * `{"<key>":<value>,...}` at `at`; returns the offset after it. A function of its own, called per series:
 * with the loop inline, the writer was entered in the interpreter and optimised on the stack in the loop,
 * and the code after the loop, never run before then, threw the optimised code away on every report.
 * A key's text (`"1735707600":`, 13 bytes) is copied four bytes at a time through the views rather than
 * byte by byte: it is copied for every value of every series (docs/performance-costs.md, "A report built
 * on every request").
 */
function writeSeriesObject(bytes: Buffer, bytesView: DataView, at: number, keys: PeriodKeys, keysView: DataView, values: ArrayLike<number>): number {
  const keyBytes = keys.jsonText;
  const keyEnds = keys.jsonEnds;
  let next = at;
  bytes[next++] = OPEN;
  let from = 0;
  for (let index = 0; index < keyEnds.length; index += 1) {
    if (index > 0) bytes[next++] = COMMA;
    const keyEnd = keyEnds[index] as number;
    for (; from + 4 <= keyEnd; from += 4, next += 4) bytesView.setUint32(next, keysView.getUint32(from, true), true);
    for (; from < keyEnd; from += 1) bytes[next++] = keyBytes[from] as number;
    next = writeJsonNumber(bytes, next, values[index] as number);
  }
  bytes[next++] = CLOSE;
  return next;
}

/** One child element per series, in order, each holding a `period` element per key. */
function toXml(report: SeriesReport): Record<string, unknown> {
  return Object.fromEntries(
    report.series.map(([name, values]) => {
      const period = report.keys.seconds.map((key, index) => ({ $: { timestamp: String(key) }, _: String(values[index]) }));
      return [name, { period }];
    }),
  );
}

const PERIOD_KEY = /^[0-9]+$/;

function seriesSchema(value: z.ZodNumber, description: string) {
  return z.record(z.string().regex(PERIOD_KEY), value).meta({
    description: `${description}, per period: keyed by the Unix second of the period's local start, keys ascending`,
    propertyNames: { pattern: PERIOD_KEY.source },
  });
}

/** A series of whole counts, as its JSON shows it. */
export const countSeries = (description: string) => seriesSchema(z.number().int().min(0), description);

/** A series of ratios or averages, as its JSON shows it. */
export const ratioSeries = (description: string) =>
  seriesSchema(z.number().min(0), `${description}, rounded half up to two decimals, 0 when its divisor is 0`);

/** A series resource's JSON body: its series in the order its definition writes them, each a value per period. */
export function seriesBodySchema<Shape extends Record<string, ReturnType<typeof countSeries>>>(id: string, series: Shape) {
  return z.strictObject(series).meta({ id });
}

/**
 * A series resource's XML body. A `<period timestamp="...">` element is an attribute beside text, which
 * OpenAPI's XML object cannot describe, so the API reference shows the form by example.
 */
export const seriesXmlSchema = z.string().meta({
  id: 'SeriesReportXml',
  description: '<result> holding one element per series, in the order of the JSON, each with a <period timestamp="..."> element per key',
});

export function seriesRepresentation(report: SeriesReport): Representation {
  return {
    jsonBytes: () => toJsonBytes(report),
    json: () => toJsonBytes(report).toString('latin1'),
    xml: () => toXml(report),
  };
}
