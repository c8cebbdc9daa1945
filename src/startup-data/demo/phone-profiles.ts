import { JOURNEY_LIST } from './ivr-application';
import { between, mulberry32, seedFrom } from './random';

export interface PhoneProfile {
  readonly volume: number;
  /** Hours by which this line's day runs earlier or later than the usual pattern. */
  readonly hourShift: number;
  /** This line's mix of journeys: some lines take more payments, others more questions. */
  readonly journeyWeights: readonly number[];
}

export function phoneProfile(seed: number, phone: string): PhoneProfile {
  const random = mulberry32(seedFrom(seed, phone));
  return {
    volume: between(random, 0.6, 1.4),
    hourShift: Math.floor(between(random, -1, 2)),
    journeyWeights: JOURNEY_LIST.map((journey) => journey.weight * between(random, 0.6, 1.4)),
  };
}
