import type { DateTime } from 'luxon';
import type { ExampleSession } from '../../http/openapi/examples';

/** The server keys a series' periods by their local midnights, in seconds. */
export function examplePeriodKey(day: DateTime): string {
  return String(day.toSeconds());
}

/** A series' values on the session's two days, keyed as the server keys them. */
export function onTheTwoDays({ days }: ExampleSession, first: number, second: number): Record<string, number> {
  return { [examplePeriodKey(days.first)]: first, [examplePeriodKey(days.second)]: second };
}
