import { count, plural } from '../counts';
import type { SourceLimits, Stretch } from './source';


const ALL_CALLERS: Record<AllCallers, string> = {
  planned: "distinct callers for ALL are between the source's figure and the numbers' sum, callers shared between numbers to meet it (the ALL line above says where they do)",
  'one number': "distinct callers for ALL are the sum of the numbers' (at least the source's figure)",
  'other numbers': "distinct callers for ALL are the sum of the numbers' (the source's ALL counts calls of numbers not mirrored, so its callers are not planned)",
};

/** The reference's rate-limit window, for an estimate: the answers say how many requests a window takes, not how long it lasts. */
const WINDOW_MINUTES = 15;

/**
 * How ALL's distinct callers were planned: shared between the numbers to meet the source's ALL, or not,
 * since one number was mirrored or the source's ALL counts calls of numbers the run did not mirror.
 */
export type AllCallers = 'planned' | 'one number' | 'other numbers';

/**
 * What every run states of its calls, in the words of docs/mirror.md: `unread` are the periods whose
 * distinct callers the source could not be asked for whole.
 */
export function exactness(stretch: Stretch, unread: readonly ('week' | 'month')[] = [], all: AllCallers = 'one number'): string[] {
  const over = stretch === 'month' ? 'each month of the range' : "the range (or each span the source takes at once)";
  const [weeks, months] = [!unread.includes('week'), !unread.includes('month')];
  const periods = [...(weeks ? ['each week'] : []), ...(months ? ['each month'] : [])];
  const summed = weeks ? (months ? '' : ', over a month the sum of its weeks within it') : ', over a week or a month the sum of its days';
  return [
    'exact per number and day: calls, log events, loops, form items, call minutes, transfers, transfer minutes, script errors, fetch errors, average page load, distinct callers',
    ...(weeks ? [`exact per number over ${periods.join(' and ')} of the range, and over each month by week: distinct callers`] : []),
    `exact per number and for ALL over ${over}: calls per US state, toll-free and country, every diagnostic-flow row`,
    'exact over any period and for ALL: calls, log events, loops, form items, transfers, script and fetch errors, and their ratios',
    `within a bound: ${ALL_CALLERS[all]}${summed}; ` +
      "call and transfer minutes over a week, a month or ALL are within 0.005 a day and number of the source's; the average page load is between the least and the greatest of the days'",
  ];
}

/** The requests a run made, and how many of the source's rate-limit windows a run over the same range needs. */
export function requestsLine({ requests, logins, limit }: SourceLimits): string {
  const made = `${plural(requests, 'data request')} to the source (and ${plural(logins, 'login')})`;
  if (limit === undefined) return `${made}; it sent no X-RateLimit-Limit`;
  const windows = Math.ceil(requests / limit);
  const fits =
    windows <= 1 ? 'fits in one of its rate-limit windows' : `spans ${windows} of its windows: about ${(windows - 1) * WINDOW_MINUTES} minutes of waiting at ${WINDOW_MINUTES}-minute windows`;
  return `${made}, which allows ${count(limit)} a window: a run ${fits}`;
}

