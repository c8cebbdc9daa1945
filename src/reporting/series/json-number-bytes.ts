/** The most bytes a number's JSON text takes ("-2.2250738585072014e-308" and the like). */
export const MAX_NUMBER_BYTES = 25;

const MAX_INT32 = 2 ** 31 - 1;
const ZERO = 0x30;
const DOT = 0x2e;

function digitCount(value: number): number {
  if (value < 100_000) return value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : value < 10_000 ? 4 : 5;
  return value < 1_000_000 ? 6 : value < 10_000_000 ? 7 : value < 100_000_000 ? 8 : value < 1_000_000_000 ? 9 : 10;
}

/**
 * A whole number from 0 to 2^31 - 1 at `at`; returns the offset after it. `| 0` first: a value read from a
 * Float64Array is a double, and `%` on a double is a call to fmod, several times slower than the int32
 * arithmetic it gets instead.
 */
function writeDigits(bytes: Buffer, at: number, value: number): number {
  let rest = value | 0;
  const end = at + digitCount(rest);
  let index = end;
  do {
    const tenth = (rest / 10) | 0;
    bytes[--index] = ZERO + rest - tenth * 10;
    rest = tenth;
  } while (rest > 0);
  return end;
}

/**
 * Writes `value` at `at` exactly as JSON.stringify would, with room for MAX_NUMBER_BYTES assumed, and
 * returns the offset after it. Whole numbers and hundredths up to 2^31 - 1 (the counts and two-decimal
 * ratios of period-totals.ts) are written digit by digit: such a number of hundredths with the point put
 * back has at most ten significant digits, so it is the shortest text that reads back as the same double,
 * which is what JSON.stringify writes. Anything else goes through JSON.stringify itself.
 */
export function writeJsonNumber(bytes: Buffer, at: number, value: number): number {
  if (value >= 0 && value <= MAX_INT32 && Number.isInteger(value)) return writeDigits(bytes, at, value);
  const hundredths = Math.round(value * 100);
  if (value > 0 && hundredths <= MAX_INT32 && hundredths / 100 === value) {
    const whole = (hundredths / 100) | 0;
    const fraction = (hundredths | 0) - whole * 100;
    const tenths = (fraction / 10) | 0;
    let next = writeDigits(bytes, at, whole);
    bytes[next++] = DOT;
    bytes[next++] = ZERO + tenths;
    if (fraction !== tenths * 10) bytes[next++] = ZERO + fraction - tenths * 10;
    return next;
  }
  return at + bytes.write(JSON.stringify(value), at, 'latin1');
}
