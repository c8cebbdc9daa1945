import { z } from 'zod';
import { flag, integer } from '../../config/variables';

/**
 * The sandbox's failure scenarios: on with the admin API, since they are made through it. Off, no auth,
 * data or survey request asks the store for one, which saves a server over real traffic that round trip.
 * Every such request is matched against the active ones, so their number is bounded: a client's test
 * needs a handful at once, and a hundred keeps the matching a fraction of a millisecond.
 */
export const scenarioSettings = z
  .object({ SANDBOX_SCENARIOS: flag.default(true), SANDBOX_MAX_SCENARIOS: integer(1, 10_000).default(100) })
  .transform((variables) => ({
    /** POST /admin/scenarios may add scenarios, and requests are matched against them. */
    enabled: variables.SANDBOX_SCENARIOS,
    /** How many scenarios with answers left there may be at once: POST /admin/scenarios is refused past it. */
    mostActive: variables.SANDBOX_MAX_SCENARIOS,
  }));

export type ScenarioSettings = z.output<typeof scenarioSettings>;
