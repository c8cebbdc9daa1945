import { pickOne, pickWeighted, type Random } from './random';

/** Where callers' numbers come from: prefixes in international form (country code first), and how long the numbers are. */
interface CallerArea {
  readonly weight: number;
  readonly prefixes: readonly [string, ...string[]];
  readonly digits: number;
}

function area(weight: number, prefixes: readonly [string, ...string[]], digits: number): CallerArea {
  return { weight, prefixes, digits };
}

function northAmerican(weight: number, areaCodes: readonly [string, ...string[]]): CallerArea {
  const [first, ...others] = areaCodes;
  return area(weight, [`1${first}`, ...others.map((areaCode) => `1${areaCode}`)], 11);
}

/**
 * Real area codes, weighted roughly by population and towards the account's own East Coast, so that
 * the geographic report has a few big states, a long tail, neighbours and a few numbers it cannot place.
 */
const CALLER_AREAS: Record<string, CallerArea> = {
  'US-NY': northAmerican(11, ['212', '718', '917', '646', '516', '914', '585', '716']),
  'US-CA': northAmerican(10, ['213', '310', '415', '408', '619', '714', '818', '916', '510']),
  'US-TX': northAmerican(7, ['713', '214', '512', '210', '817', '469']),
  'US-FL': northAmerican(6, ['305', '407', '813', '904', '954', '561']),
  'US-IL': northAmerican(4, ['312', '773', '847', '630']),
  'US-MA': northAmerican(4, ['617', '508', '781', '978']),
  'US-PA': northAmerican(4, ['215', '412', '610', '717']),
  'US-NJ': northAmerican(4, ['201', '973', '732', '609']),
  'US-GA': northAmerican(3, ['404', '770', '678']),
  'US-OH': northAmerican(3, ['216', '614', '513']),
  'US-NC': northAmerican(2.5, ['704', '919', '336']),
  'US-VA': northAmerican(2.5, ['703', '804', '757']),
  'US-MI': northAmerican(2.5, ['313', '248', '616']),
  'US-WA': northAmerican(2.5, ['206', '425', '509']),
  'US-AZ': northAmerican(2, ['602', '480', '520']),
  'US-MD': northAmerican(2, ['410', '301']),
  'US-CO': northAmerican(2, ['303', '720', '719']),
  'US-CT': northAmerican(1.5, ['203', '860']),
  'US-MN': northAmerican(1.5, ['612', '651']),
  'US-TN': northAmerican(1.5, ['615', '901']),
  'US-MO': northAmerican(1.5, ['314', '816']),
  'US-DC': northAmerican(1, ['202']),
  'US-OR': northAmerican(1, ['503', '541']),
  'US-NV': northAmerican(1, ['702', '775']),
  'US-LA': northAmerican(1, ['504', '225']),
  'US-IN': northAmerican(1, ['317']),
  'US-WI': northAmerican(1, ['414', '608']),
  'US-SC': northAmerican(1, ['803', '843']),
  'US-KY': northAmerican(0.6, ['502']),
  'US-AL': northAmerican(0.6, ['205']),
  'US-OK': northAmerican(0.5, ['405']),
  'US-UT': northAmerican(0.5, ['801']),
  'US-NM': northAmerican(0.3, ['505']),
  'US-HI': northAmerican(0.2, ['808']),
  'US-AK': northAmerican(0.1, ['907']),
  CA: northAmerican(4, ['416', '647', '604', '514']),
  PR: northAmerican(1.5, ['787', '939']),
  GB: area(0.8, ['44207', '44203'], 12),
  MX: area(0.6, ['5255'], 12),
  FR: area(0.4, ['3314'], 11),
  DE: area(0.4, ['4930'], 12),
  'no such area code': northAmerican(0.15, ['555']),
  // No country code starts with 0: what is left of a number a trunk cut short cannot be placed.
  'a number cut short': area(0.1, ['0'], 5),
};

const CALLER_AREA_LIST: readonly CallerArea[] = Object.values(CALLER_AREAS);
const CALLER_AREA_WEIGHTS = CALLER_AREA_LIST.map((area) => area.weight);

/** A number in international form; the digit after a prefix is never 0 or 1, as in a real exchange code. */
function numberIn(random: Random, area: CallerArea): string {
  const prefix = pickOne(random, area.prefixes);
  let digits = `${prefix}${2 + Math.floor(random() * 8)}`;
  while (digits.length < area.digits) digits += String(Math.floor(random() * 10));
  return digits;
}

export function anyNumber(random: Random): string {
  const origin = CALLER_AREA_LIST[pickWeighted(random, CALLER_AREA_WEIGHTS)];
  if (origin === undefined) throw new RangeError('there are caller areas');
  return numberIn(random, origin);
}
