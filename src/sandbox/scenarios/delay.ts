import { z } from 'zod';
import type { ScenarioDelay } from '../../storage/store';

/** A minute: longer than any client's sensible timeout, short enough that a forgotten scenario does not hold a socket for long. */
export const MOST_DELAY_MS = 60_000;

/** Numbers in [0, 1), as Math.random gives them: injected, so that a test chooses what a delay draws. */
export type Random = () => number;

/** The standard normal distribution's 99th percentile: how many standard deviations p99 lies above the median. */
const Z_99 = 2.3263478740408408;

const milliseconds = (least: number) =>
  z.int('must be a whole number of milliseconds').min(least, `must be at least ${least}`).max(MOST_DELAY_MS, `must be at most ${MOST_DELAY_MS}`);

const onlyKeys = (form: string) => (issue: z.core.$ZodRawIssue) =>
  issue.code === 'unrecognized_keys' ? `${form}, not ${issue.keys.join(', ')}` : undefined;

const uniformSchema = z
  .strictObject(
    {
      uniform: z
        .tuple([milliseconds(0), milliseconds(0)])
        // Stated here because zod-to-openapi writes a tuple's prefixItems without its length, which would let {"uniform": []} through.
        .meta({ description: '[min, max]: each request waits a whole number of milliseconds drawn evenly between them', minItems: 2, maxItems: 2, items: false }),
    },
    { error: onlyKeys('a uniform delay takes uniform alone') },
  )
  .refine(({ uniform: [least, most] }) => least <= most, { message: 'its min must not be above its max', path: ['uniform'] });

const logNormalSchema = z
  .strictObject(
    {
      median: milliseconds(1).meta({ description: 'Half the requests wait less, half more' }),
      p99: milliseconds(1).meta({ description: 'One request in a hundred waits longer (at most the maximum delay)' }),
    },
    { error: onlyKeys('a log-normal delay takes median and p99 alone') },
  )
  .refine(({ median, p99 }) => median <= p99, { message: 'must not be above p99', path: ['median'] });

/** `delay_ms` of a scenario: a fixed wait, or a distribution each matching request draws its own wait from. */
export const delaySchema = z
  .union([milliseconds(1), uniformSchema, logNormalSchema], {
    error: 'must be a whole number of milliseconds, or one of {"uniform": [min, max]} and {"median": m, "p99": n}',
  })
  .meta({
    id: 'ScenarioDelay',
    description:
      `Milliseconds, at most ${MOST_DELAY_MS}: a fixed wait, or {"uniform": [min, max]} (each request draws its own evenly), or ` +
      `{"median": m, "p99": n} (log-normal, 0 < m <= n; a draw past ${MOST_DELAY_MS} waits ${MOST_DELAY_MS})`,
  });

/** One standard normal value from two uniform ones (Box–Muller); 1 - u keeps the logarithm's argument above 0. */
function standardNormal(random: Random): number {
  const radius = Math.sqrt(-2 * Math.log(1 - random()));
  return radius * Math.cos(2 * Math.PI * random());
}

/** How long one request waits: drawn from the delay's distribution, in whole milliseconds, never past the maximum. */
export function drawDelayMs(delay: ScenarioDelay, random: Random): number {
  if (typeof delay === 'number') return delay;
  if ('uniform' in delay) {
    const [least, most] = delay.uniform;
    return Math.round(least + random() * (most - least));
  }
  const mu = Math.log(delay.median);
  const sigma = (Math.log(delay.p99) - mu) / Z_99;
  return Math.min(MOST_DELAY_MS, Math.round(Math.exp(mu + sigma * standardNormal(random))));
}
