import type { Representation } from '../../http/representation';
import type { EventReport } from './report';

/** The series in the order of the specification's table (section 2.2), with their wire names. */
const SERIES = [
  ['calls', 'calls'],
  ['log_events', 'logEvents'],
  ['loops_per_call', 'loopsPerCall'],
  ['form_items', 'formItems'],
  ['loops', 'loops'],
  ['average_form_items', 'averageFormItems'],
] as const satisfies ReadonlyArray<readonly [string, keyof EventReport]>;

/**
 * JSON is written by hand: keys are digit strings and values finite numbers, so nothing needs escaping,
 * and the period keys keep ascending order whatever the engine does with integer-like property names.
 */
function toJson(report: EventReport): string {
  const keyPrefixes = report.keys.map((key) => `"${key}":`);
  let json = '{';
  SERIES.forEach(([name, field], seriesIndex) => {
    const values = report[field];
    json += `${seriesIndex === 0 ? '' : ','}"${name}":{`;
    keyPrefixes.forEach((prefix, index) => {
      json += `${index === 0 ? '' : ','}${prefix}${values[index]}`;
    });
    json += '}';
  });
  return `${json}}`;
}

function toXml(report: EventReport): Record<string, unknown> {
  return Object.fromEntries(
    SERIES.map(([name, field]) => {
      const values = report[field];
      const period = report.keys.map((key, index) => ({ $: { timestamp: String(key) }, _: String(values[index]) }));
      return [name, { period }];
    }),
  );
}

export function eventReportRepresentation(report: EventReport): Representation {
  return { json: () => toJson(report), xml: () => toXml(report) };
}
