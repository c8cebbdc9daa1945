import { delaySchema, drawDelayMs, MOST_DELAY_MS } from './delay';

/** A source of randomness that gives these numbers in turn. */
function fakeRandom(...values: number[]): () => number {
  const left = [...values];
  return () => {
    const next = left.shift();
    if (next === undefined) throw new Error('drew more numbers than the test gave');
    return next;
  };
}

/** What the log-normal of this median and p99 gives for two uniforms, by the formula Box–Muller and the 99th percentile make. */
function expectedLogNormal(median: number, p99: number, u1: number, u2: number): number {
  const sigma = (Math.log(p99) - Math.log(median)) / 2.3263478740408408;
  const z = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  return Math.round(median * Math.exp(sigma * z));
}

describe('drawDelayMs', () => {
  test('gives a fixed delay as it is, drawing nothing', () => {
    expect(drawDelayMs(300, fakeRandom())).toBe(300);
  });

  test.each([
    [0, 100],
    [0.25, 300],
    [0.5, 500],
    [0.999_999, 900],
  ])('draws a uniform delay within [min, max]: %d of the way gives %d ms', (drawn, delay) => {
    expect(drawDelayMs({ uniform: [100, 900] }, fakeRandom(drawn))).toBe(delay);
  });

  test('draws a uniform delay of equal bounds as that delay', () => {
    expect(drawDelayMs({ uniform: [0, 0] }, fakeRandom(0.7))).toBe(0);
  });

  test('draws the median itself when the normal value is 0', () => {
    // u2 = 0.25: cos(pi/2) is 0 (to rounding), whatever u1.
    expect(drawDelayMs({ median: 200, p99: 2000 }, fakeRandom(0.5, 0.25))).toBe(200);
  });

  test.each([
    [0.5, 0],
    [0.9, 0],
    [0.98, 0.5],
    [0.1, 0.1],
  ])('draws a log-normal delay by Box–Muller from the uniforms %d and %d', (u1, u2) => {
    const drawn = drawDelayMs({ median: 200, p99: 2000 }, fakeRandom(u1, u2));
    expect(drawn).toBe(expectedLogNormal(200, 2000, u1, u2));
  });

  test('draws p99 itself at the normal distribution 99th percentile', () => {
    // sqrt(-2 ln(1 - u1)) = 2.3263478740408408 with u2 = 0 (cos 0 = 1).
    const u1 = 1 - Math.exp(-(2.3263478740408408 ** 2) / 2);
    expect(drawDelayMs({ median: 200, p99: 2000 }, fakeRandom(u1, 0))).toBe(2000);
  });

  test(`caps a draw past the maximum at ${MOST_DELAY_MS} ms`, () => {
    expect(expectedLogNormal(10_000, MOST_DELAY_MS, 0.999_999, 0)).toBeGreaterThan(MOST_DELAY_MS);
    expect(drawDelayMs({ median: 10_000, p99: MOST_DELAY_MS }, fakeRandom(0.999_999, 0))).toBe(MOST_DELAY_MS);
  });

  test('draws a median equal to p99 as that delay', () => {
    expect(drawDelayMs({ median: 500, p99: 500 }, fakeRandom(0.999, 0))).toBe(500);
  });
});

describe('delaySchema', () => {
  test.each([[1], [MOST_DELAY_MS], [{ uniform: [0, 0] }], [{ uniform: [0, MOST_DELAY_MS] }], [{ median: 1, p99: 1 }], [{ median: 200, p99: MOST_DELAY_MS }]])(
    'takes %j',
    (delay) => {
      expect(delaySchema.parse(delay)).toEqual(delay);
    },
  );
});
