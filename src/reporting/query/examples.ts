import type { DateTime } from 'luxon';
import type { ExampleSession } from '../../http/openapi/examples';

/** A local day as the path writes it: YYYYMMDD. */
export function pathDate(day: DateTime): string {
  return day.toFormat('yyyyMMdd');
}

/** The path values of a range resource's examples: the session's two days, every number. */
export function exampleRangePath({ days }: ExampleSession): { start: string; end: string; phone: string } {
  return { start: pathDate(days.first), end: pathDate(days.second), phone: 'ALL' };
}

/** The path values of a series resource's examples: the session's two days, by day, every number. */
export function exampleSeriesPath(session: ExampleSession): { start: string; end: string; period: string; phone: string } {
  const { start, end, phone } = exampleRangePath(session);
  return { start, end, period: 'day', phone };
}
