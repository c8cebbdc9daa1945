/**
 * A scenario's draws by chance (its `probability`), the same in every store and instance: the n-th
 * request a scenario matches draws the n-th number of its seed's sequence, so that a seed gives the same
 * requests the same answers on every run, and the instances sharing a PostgreSQL store draw from one
 * sequence. A 32-bit integer hash of the seed and n (a Weyl step, then two multiply-xorshift rounds),
 * written here and in SQL (postgres/scenarios.ts), whose store contract test holds the two in step.
 */

/** The largest seed: what PostgreSQL's integer and JavaScript's 32-bit operations both hold. */
export const MOST_SEED = 2_147_483_647;

const TWO_TO_32 = 4_294_967_296;

/** The n-th number (n from 1) of a seed's sequence, an integer in [0, 2^32). */
export function scenarioDraw(seed: number, n: number): number {
  let x = (seed + Math.imul(n, 0x9e3779b9)) >>> 0;
  x = Math.imul((x >>> 16) ^ x, 0x45d9f3b) >>> 0;
  x = Math.imul((x >>> 16) ^ x, 0x45d9f3b) >>> 0;
  return ((x >>> 16) ^ x) >>> 0;
}

/** Whether the n-th request a scenario of this seed and probability matches is one it answers. */
export function drawAnswers(seed: number, n: number, probability: number): boolean {
  return scenarioDraw(seed, n) < probability * TWO_TO_32;
}
