/**
 * The geographic report's places by name beside the API's codes (docs/reporting-resources.md,
 * "Geographic"): a country's ISO 3166-1 code named by the browser (Intl.DisplayNames), a US state's or
 * DC's postal code by the table below, so that the country "CA - Canada" and the state "CA - California"
 * are not mistaken for each other.
 */

const US_STATES = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DC: 'District of Columbia',
  DE: 'Delaware',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

/** What the server means by ZZ (src/reporting/profile/geographic-report.ts): a number it could place nowhere. */
const UNPLACED = 'ZZ';
const UNPLACED_NAME = 'unknown: numbers nothing can place';

// The page is in English (index.html's lang), and so are the names.
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

const withName = (code, name) => (name === undefined ? code : `${code} - ${name}`);

/** `CA - Canada`, `ZZ - unknown: numbers nothing can place`; a code the browser cannot name, alone. */
export function countryText(code) {
  if (code === UNPLACED) return withName(code, UNPLACED_NAME);
  let name;
  try {
    name = regionNames.of(code);
  } catch {
    name = undefined; // not a well-formed region code: shown as the API gives it
  }
  return withName(code, name);
}

/** `CA - California`; the API's `US Toll-Free`, and an empty state (a country's row), as they are. */
export function stateText(code) {
  return withName(code, US_STATES[code]);
}
