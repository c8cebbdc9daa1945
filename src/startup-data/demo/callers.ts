import { anyNumber } from './caller-areas';
import { mulberry32, seedFrom, type Random } from './random';

/** Share of calls whose caller withholds the number, so that none reaches the platform. */
const WITHHELD_SHARE = 0.06;
/** Share of calls from the account's regular customers; the others come from people who call once. */
const REGULAR_SHARE = 0.45;
/** How many regular customers an account has per call that one of its phones takes on a weekday. */
const REGULARS_PER_DAILY_CALL = 2;
/** Above 1, the regulars' calls bunch on the first few of them: a handful call every other day. */
const REGULAR_SKEW = 1.3;

/** The account's regular customers: the i-th one's number follows from the seed, so none is stored. */
export interface CallerPool {
  readonly seed: number;
  readonly regulars: number;
}

export function callerPool(seed: number, callsPerDay: number, phones: number): CallerPool {
  const regulars = Math.round(REGULARS_PER_DAILY_CALL * callsPerDay * phones);
  return { seed: seedFrom(seed, 'regular callers'), regulars: Math.max(1, regulars) };
}

function regularCaller(pool: CallerPool, random: Random): string {
  const rank = Math.floor(pool.regulars * random() ** REGULAR_SKEW);
  return anyNumber(mulberry32(seedFrom(pool.seed, rank)));
}

/**
 * Carriers hand the calling number over in any of the forms the wire accepts, so a North American
 * number comes 10-digit, with its 1 or after a `+`: the reports must see one caller in all three.
 */
function asDelivered(random: Random, number: string): string {
  if (number.startsWith('0')) return number;
  if (!number.startsWith('1') || number.length !== 11) return `+${number}`;
  const form = random();
  if (form < 0.3) return number.slice(1);
  return form < 0.8 ? number : `+${number}`;
}

export function callerOf(random: Random, pool: CallerPool): string | undefined {
  const who = random();
  if (who < WITHHELD_SHARE) return undefined;
  const number = who < WITHHELD_SHARE + REGULAR_SHARE ? regularCaller(pool, random) : anyNumber(random);
  return asDelivered(random, number);
}
