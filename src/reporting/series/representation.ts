import type { Representation } from '../../http/representation';
import type { SeriesReport } from './series-report';

/**
 * JSON is written by hand: keys are digit strings and values finite numbers, so nothing needs escaping,
 * and the period keys keep ascending order whatever the engine does with integer-like property names.
 */
function toJson(report: SeriesReport): string {
  const keyPrefixes = report.keys.map((key) => `"${key}":`);
  let json = '{';
  report.series.forEach(([name, values], seriesIndex) => {
    json += `${seriesIndex === 0 ? '' : ','}"${name}":{`;
    keyPrefixes.forEach((prefix, index) => {
      json += `${index === 0 ? '' : ','}${prefix}${values[index]}`;
    });
    json += '}';
  });
  return `${json}}`;
}

/** One child element per series, in order, each holding a `period` element per key. */
function toXml(report: SeriesReport): Record<string, unknown> {
  return Object.fromEntries(
    report.series.map(([name, values]) => {
      const period = report.keys.map((key, index) => ({ $: { timestamp: String(key) }, _: String(values[index]) }));
      return [name, { period }];
    }),
  );
}

export function seriesRepresentation(report: SeriesReport): Representation {
  return { json: () => toJson(report), xml: () => toXml(report) };
}
