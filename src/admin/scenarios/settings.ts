import { z } from 'zod';
import { flag } from '../../config/variables';

/**
 * The sandbox's failure scenarios: on with the admin API, since they are made through it. Off, no auth,
 * data or survey request asks the store for one, which saves a server over real traffic that round trip.
 */
export const scenarioSettings = z
  .object({ SANDBOX_SCENARIOS: flag.default(true) })
  .transform((variables) => ({
    /** POST /admin/scenarios may add scenarios, and requests are matched against them. */
    enabled: variables.SANDBOX_SCENARIOS,
  }));

export type ScenarioSettings = z.output<typeof scenarioSettings>;
