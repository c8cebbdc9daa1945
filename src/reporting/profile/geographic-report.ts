import { US_STATES, US_TOLL_FREE, usStateOf } from '../../domain/caller-region';
import { compareText } from '../../domain/text-order';
import type { Account } from '../../accounts/account';
import type { CallReads, PhoneScope } from '../../storage/store';
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
  /** Every state and DC in the reference's order (US_STATES), zero-filled, then US Toll-Free last. */
  readonly us: ReadonlyArray<readonly [key: string, calls: number]>;
  /** Every other country with calls (ZZ for numbers nothing can place), most calls first, then by code. */
  readonly nonUs: readonly CountryCalls[];
}

export type GeographicReporter = (account: Account, query: RangeQuery, scope: PhoneScope, calls: CallReads) => Promise<GeographicReport>;

export function geographicReporter(): GeographicReporter {
  return async (_account, query, scope, reads) => {
    const callsByState = new Map<string, number>();
    let tollFree = 0;
    const nonUs: CountryCalls[] = [];
    for (const { region, calls } of await reads.regionTotals(scope, query.from, query.to)) {
      const state = usStateOf(region);
      if (state !== undefined) callsByState.set(state, calls);
      else if (region === US_TOLL_FREE) tollFree = calls;
      else nonUs.push({ country: region, calls });
    }
    const us = [...US_STATES.map((state) => [state, callsByState.get(state) ?? 0] as const), [TOLL_FREE_KEY, tollFree] as const];
    nonUs.sort((a, b) => b.calls - a.calls || compareText(a.country, b.country));
    return { us, nonUs };
  };
}
