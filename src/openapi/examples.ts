import { DateTime } from 'luxon';
import { adminExamples } from '../admin/openapi';
import type { ExampleExchange, ExampleSession } from '../http/openapi/examples';
import { MONITORING_EXAMPLES } from '../operations/openapi';
import { reportingExamples } from '../reporting/openapi';
import { pathDate } from '../reporting/query/examples';
import { DEMO_ACCOUNT } from '../startup-data/demo/demo-account';
import { surveyExamples } from '../survey/openapi';

const { tool, login, password, timeZone } = DEMO_ACCOUNT;

/** The day before `now`'s in the demo account's time zone, complete: the session's calls are on it. */
function secondDay(now: number): DateTime {
  return DateTime.fromMillis(now, { zone: timeZone }).startOf('day').minus({ days: 1 });
}

/** The day whose calls the examples show, as YYYYMMDD: the examples of two instants of one day are equal. */
export function exampleDay(now: number): string {
  return pathDate(secondDay(now));
}

/**
 * What the features' examples share: the demo account's, so that the examples and the "Try it out"
 * values they give the page at /docs work as they are against `npm start`, on the days of the demo data.
 */
function exampleSession(now: number): ExampleSession {
  const second = secondDay(now);
  return {
    account: { tool, login, password, timeZone, phone: DEMO_ACCOUNT.phones[0] },
    days: { first: second.minus({ days: 1 }), second },
    application: 'https://ivr.example.com/start.vxml',
  };
}

/**
 * The session, in order, on the days before `now`'s day, each feature's exchanges written beside its
 * operations; without the admin API, its examples are left out (the others are answers to the same data).
 */
export function exampleExchanges(adminApi: boolean, now: number, surveyOperations: { readonly svcEval?: string; readonly rest?: string }): readonly ExampleExchange[] {
  const session = exampleSession(now);
  const middle = [...reportingExamples(session), ...surveyExamples(surveyOperations), ...MONITORING_EXAMPLES];
  if (!adminApi) return middle;
  const admin = adminExamples(session);
  return [...admin.setUp, ...middle, ...admin.tornDown];
}
