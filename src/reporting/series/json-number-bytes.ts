/** The most bytes a number's JSON text takes ("-2.2250738585072014e-308" and the like). */
export const MAX_NUMBER_BYTES = 25;

const MAX_INT32 = 2 ** 31 - 1;
const ZERO = 0x30;
const DOT = 0x2e;

/** A whole number from 0 to 2^31 - 1 at `at`, in 32-bit integer arithmetic; returns the offset after it. */
function writeDigits(bytes: Buffer, at: number, value: number): number {
  let count = 1;
  for (let rest = value; rest >= 10; rest = (rest / 10) | 0) count += 1;
  let rest = value;
  for (let index = at + count - 1; index >= at; index -= 1) {
    bytes[index] = ZERO + (rest % 10);
    rest = (rest / 10) | 0;
  }
  return at + count;
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
    let next = writeDigits(bytes, at, (hundredths / 100) | 0);
    const fraction = hundredths % 100;
    bytes[next++] = DOT;
    if (fraction % 10 === 0) bytes[next++] = ZERO + fraction / 10;
    else {
      bytes[next++] = ZERO + ((fraction / 10) | 0);
      bytes[next++] = ZERO + (fraction % 10);
    }
    return next;
  }
  return at + bytes.write(JSON.stringify(value), at, 'latin1');
}
