import { z } from 'zod';
import { flag, integer, optionalText } from '../config/variables';

/** The call inspector's calls kept when SURVEY_INSPECT_CALLS is unset, outside production. */
const DEFAULT_INSPECT_CALLS = 200;

/**
 * The sandbox's features: the movable clock, the failure scenarios and the call inspector. Outside
 * production the scenarios and the inspector are on with the admin API, since client authors reach them
 * through it; with NODE_ENV=production no feature is on unless its variable names it, since one scenario
 * makes every real request of its target fail and the inspector keeps the answers people gave. NODE_ENV is
 * read here as well as in the server's settings: the sandbox's defaults are decided by it.
 *
 * The movable clock is off unless asked for, since moving time changes every window and expiry.
 * Off, no auth, data or survey request asks the store for a scenario, which saves a server over real
 * traffic that round trip. Every such request is matched against the active ones, so their number is
 * bounded: a client's test needs a handful at once, and a hundred keeps the matching a fraction of a
 * millisecond.
 */
export const sandboxSettings = z
  .object({
    NODE_ENV: optionalText,
    SANDBOX_CLOCK: flag.optional(),
    SANDBOX_SCENARIOS: flag.optional(),
    SANDBOX_MAX_SCENARIOS: integer(1, 10_000).default(100),
    SURVEY_INSPECT_CALLS: integer(0, 10_000).optional(),
  })
  .transform((variables) => {
    const production = variables.NODE_ENV === 'production';
    return {
      /** POST /admin/clock may move the server's time forward. */
      movableClock: variables.SANDBOX_CLOCK ?? false,
      scenarios: {
        /** POST /admin/scenarios may add scenarios, and requests are matched against them. */
        enabled: variables.SANDBOX_SCENARIOS ?? !production,
        /** How many scenarios with answers left there may be at once: POST /admin/scenarios is refused past it. */
        mostActive: variables.SANDBOX_MAX_SCENARIOS,
      },
      /**
       * The last survey calls kept in memory for GET /admin/survey/calls (the call inspector), per
       * instance; 0: none kept. Only with ADMIN_TOKEN, without which nobody could read them.
       */
      inspectCalls: variables.SURVEY_INSPECT_CALLS ?? (production ? 0 : DEFAULT_INSPECT_CALLS),
    };
  });

export type SandboxSettings = z.output<typeof sandboxSettings>;

/**
 * The features on, each named with the variable that turns it on: the scenarios and the inspector only
 * with the admin API, through which alone they are reached.
 */
export function sandboxFeaturesOn(settings: SandboxSettings, adminApi: boolean): string[] {
  return [
    ...(settings.movableClock ? ['the movable clock (SANDBOX_CLOCK=true)'] : []),
    ...(adminApi && settings.scenarios.enabled ? ['failure scenarios (SANDBOX_SCENARIOS=true)'] : []),
    ...(adminApi && settings.inspectCalls > 0 ? [`the call inspector (SURVEY_INSPECT_CALLS=${settings.inspectCalls})`] : []),
  ];
}
