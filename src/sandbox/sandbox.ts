import { Router } from 'express';
import type { RateLimitSettings } from '../rate-limit/settings';
import type { Store } from '../storage/store';
import type { Clock } from '../time/clock';
import type { Random } from './scenarios/delay';
import { MovableClock } from './clock/movable-clock';
import { clockRoutes } from './clock/routes';
import { noScenarios, scenarioAnswers, type ScenarioAnswerCounter, type ScenarioAnswers } from './scenarios/forced-answers';
import { scenarioRoutes } from './scenarios/routes';
import type { SandboxSettings } from './settings';
import { callInspector, type CallInspector } from './survey-calls/inspector';
import { surveyCallRoutes } from './survey-calls/routes';

/*
 * The sandbox as the rest of the server reaches it: the movable clock, the failure scenarios and the call
 * inspector (src/sandbox/settings.ts says which are on), built once by the composition root. The routes of
 * the reporting API and the survey service hold its hooks, the admin API mounts its routes; none reaches
 * into its folders.
 */

export type { ScenarioAnswerCounter, ScenarioAnswers, ScenarioMatch } from './scenarios/forced-answers';
export type { ReportTarget } from './scenarios/scenario';
export type { ReadCall } from './survey-calls/call-entry';
export { inspectCall, type CallInspection, type CallInspector } from './survey-calls/inspector';
export type { MovableClock } from './clock/movable-clock';
export type { Random } from './scenarios/delay';

/** The clock every service reads: the one given, made movable with SANDBOX_CLOCK (then returned as movable too). */
export function sandboxClock(settings: SandboxSettings, clock: Clock): { readonly clock: Clock; readonly movable: MovableClock | undefined } {
  const movable = settings.movableClock ? new MovableClock(clock) : undefined;
  return { clock: movable ?? clock, movable };
}

export interface SandboxDependencies {
  /** The store every service uses: where the scenarios live. */
  readonly store: Store;
  /** The clock every service reads (sandboxClock's). */
  readonly clock: Clock;
  /** Set with SANDBOX_CLOCK: the clock POST /admin/clock moves. */
  readonly movableClock: MovableClock | undefined;
  /** What the scenarios' delays given as distributions draw from. */
  readonly random: Random;
  /** Where the answers scenarios forced are counted. */
  readonly counter: ScenarioAnswerCounter;
  /** The limit groups' windows, whose headers a forced 429 carries. */
  readonly limits: RateLimitSettings;
  /** Whether the admin API is on (ADMIN_TOKEN): the scenarios and the inspector are reached only through it. */
  readonly adminApi: boolean;
}

export interface Sandbox {
  readonly settings: SandboxSettings;
  readonly store: Store;
  readonly clock: Clock;
  /** Set with SANDBOX_CLOCK: every answer's Date header tells it, and POST /admin/clock moves it. */
  readonly movableClock: MovableClock | undefined;
  /** What the scenarios draw from: delays, and the seeds not given. */
  readonly random: Random;
  /** What the auth, data and survey routes call on each request: the scenario it matches, if scenarios are on. */
  readonly answers: ScenarioAnswers;
  /** What the survey routes hand each call: undefined when off (SURVEY_INSPECT_CALLS=0 or no admin API), then nothing is kept. */
  readonly inspector: CallInspector | undefined;
}

/** The sandbox of the settings: a feature off costs the requests nothing (no scenario asked for, no call kept). */
export function createSandbox(settings: SandboxSettings, { store, clock, movableClock, random, counter, limits, adminApi }: SandboxDependencies): Sandbox {
  return {
    settings,
    store,
    clock,
    movableClock,
    random,
    answers: adminApi && settings.scenarios.enabled ? scenarioAnswers({ store, clock, random, counter, limits }) : noScenarios,
    inspector: adminApi && settings.inspectCalls > 0 ? callInspector(settings.inspectCalls) : undefined,
  };
}

/** The sandbox's part of the admin API: /clock, /scenarios and /survey/calls. */
export function sandboxRoutes({ settings, store, clock, movableClock, random, inspector }: Sandbox): Router {
  const router = Router();
  router.use(clockRoutes({ clock, movable: movableClock }));
  router.use(scenarioRoutes({ store, clock, random, enabled: settings.scenarios.enabled, mostActive: settings.scenarios.mostActive }));
  router.use(surveyCallRoutes({ inspector }));
  return router;
}
