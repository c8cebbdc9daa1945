import { US_STATES, US_TOLL_FREE, type Region } from '../../domain/caller-region';
import { compareText } from '../../domain/text-order';
import type { Account } from '../../domain/account';
import type { Store } from '../../storage/store';
import type { RangeQuery } from '../query/params';

/** Three segments: told from the caller profile, which has four. */
export const GEOGRAPHIC_PATH = '/profile/:start/:end/:phone';

export const TOLL_FREE_KEY = 'US Toll-Free';

export interface CountryCalls {
  readonly country: string;
  readonly calls: number;
}

/** Calls by where the caller's number is from, over the whole range. */
export interface GeographicReport {
  /** Every state and DC in alphabetical order, zero-filled, then US Toll-Free last. */
  readonly us: ReadonlyArray<readonly [key: string, calls: number]>;
  /** Every other country with calls (ZZ for numbers nothing can place), most calls first, then by code. */
  readonly nonUs: readonly CountryCalls[];
}

const STATE_PREFIX = 'US-';

export type GeographicReporter = (account: Account, query: RangeQuery, phones: readonly string[]) => Promise<GeographicReport>;

export function geographicReporter(store: Store): GeographicReporter {
  return async (_account, query, phones) => {
    const regions = await store.calls.regionTotals(phones, query.from, query.to);
    const byRegion = new Map<Region, number>(regions.map(({ region, calls }) => [region, calls]));
    const us: Array<readonly [string, number]> = US_STATES.map((state) => [state, byRegion.get(`${STATE_PREFIX}${state}`) ?? 0]);
    us.push([TOLL_FREE_KEY, byRegion.get(US_TOLL_FREE) ?? 0]);
    const nonUs = regions
      .filter(({ region }) => region !== US_TOLL_FREE && !region.startsWith(STATE_PREFIX))
      .map(({ region, calls }) => ({ country: region, calls }))
      .sort((a, b) => b.calls - a.calls || compareText(a.country, b.country));
    return { us, nonUs };
  };
}
