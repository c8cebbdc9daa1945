import { getExampleNumber, type CountryCode, type Examples } from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import { regionOfCaller, UNKNOWN_REGION, US_TOLL_FREE, type Region } from '../../domain/caller-region';
import { AREA_CODES_OF_STATE } from '../../domain/us-area-codes';

/** The package's JSON, typed by resolveJsonModule as plain strings where getExampleNumber wants its branded type. */
const EXAMPLES = mobileExamples as unknown as Examples;
const US_STATE_PREFIX = 'US-';
/** Subscriber numbers of North America: an exchange from 200, so that no candidate starts with 0 or 1. */
const FIRST_SUBSCRIBER = 2_000_000;
const SUBSCRIBERS_PER_AREA_CODE = 8_000_000;
/** Toll-free and unplaceable callers: an area code that places them, whatever the state table says. */
const TOLL_FREE_AREA_CODES = ['800', '888', '877', '866', '855', '844', '833'];
const UNPLACEABLE_AREA_CODE = '555';
/** Candidates a region may refuse in a row (a number its data hold invalid) before it is given up. */
const MOST_REFUSED_IN_A_ROW = 1_000;

/** How a region's numbers are made: the k-th candidate, or undefined when the region has no more. */
type Candidates = (index: number) => string | undefined;

function northAmerican(areaCodes: readonly string[]): Candidates {
  return (index) => {
    const areaCode = areaCodes[Math.floor(index / SUBSCRIBERS_PER_AREA_CODE)];
    return areaCode === undefined ? undefined : `1${areaCode}${FIRST_SUBSCRIBER + (index % SUBSCRIBERS_PER_AREA_CODE)}`;
  };
}

/**
 * A country's example mobile number with its last digits counted up: the last four first, which keep a
 * small country's exchange, then the last six (their block of four skipped), as many as leave two digits.
 */
function inCountry(country: string): Candidates | undefined {
  const example = getExampleNumber(country as CountryCode, EXAMPLES);
  if (example === undefined) return undefined;
  const digits = example.number.slice(1);
  const near = Math.min(4, example.nationalNumber.length - 2);
  const far = Math.min(6, example.nationalNumber.length - 2);
  const nearCount = 10 ** near;
  const farBlock = Number(digits.slice(digits.length - far, digits.length - near || undefined) || '0');
  return (index) => {
    if (index < nearCount) return `${digits.slice(0, digits.length - near)}${String(index).padStart(near, '0')}`;
    const farIndex = index - nearCount;
    const value = farIndex < farBlock * nearCount ? farIndex : farIndex + nearCount;
    return far > near && value < 10 ** far ? `${digits.slice(0, digits.length - far)}${String(value).padStart(far, '0')}` : undefined;
  };
}

function candidatesOf(region: Region): Candidates | undefined {
  if (region === US_TOLL_FREE) return northAmerican(TOLL_FREE_AREA_CODES);
  if (region === UNKNOWN_REGION) return northAmerican([UNPLACEABLE_AREA_CODE]);
  if (region.startsWith(US_STATE_PREFIX)) {
    const areaCodes = AREA_CODES_OF_STATE[region.slice(US_STATE_PREFIX.length)];
    return areaCodes === undefined ? undefined : northAmerican(areaCodes);
  }
  return inCountry(region);
}

/**
 * Callers' numbers that this server places in a given region, none given twice. Each candidate is placed
 * by the same code that places a stored call, so a number handed out for `US-MA` is counted in `MA`
 * by the geographic report, whatever the area-code data of this version say.
 */
export class CallerNumbers {
  private readonly next = new Map<Region, { readonly candidates: Candidates; index: number }>();

  /** A number never handed out before, in international form with its `+`; undefined when the region has none. */
  take(region: Region): string | undefined {
    const next = this.nextOf(region);
    if (next === undefined) return undefined;
    next.source.index += 1;
    return `+${next.candidate}`;
  }

  /** Whether the region has a number left to hand out; none is handed out. */
  places(region: Region): boolean {
    return this.nextOf(region) !== undefined;
  }

  /** The region's next candidate that it places, its refused ones passed over for good. */
  private nextOf(region: Region): { readonly source: { index: number }; readonly candidate: string } | undefined {
    let source = this.next.get(region);
    if (source === undefined) {
      const candidates = candidatesOf(region);
      if (candidates === undefined) return undefined;
      source = { candidates, index: 0 };
      this.next.set(region, source);
    }
    for (let refused = 0; refused < MOST_REFUSED_IN_A_ROW; refused += 1) {
      const candidate = source.candidates(source.index);
      if (candidate === undefined) return undefined;
      if (regionOfCaller(candidate) === region) return { source, candidate };
      source.index += 1;
    }
    return undefined;
  }
}
