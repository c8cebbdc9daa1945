import type { Request, Response } from 'express';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, errors } from '../../errors/catalogue';
import { clientGoneSignal } from '../../http/client-gone';
import { REALM } from '../../accounts/authenticated-account';
import type { Store } from '../../storage/store';
import type { Clock } from '../../time/clock';
import type { RateLimitSettings } from '../../rate-limit/settings';
import type { Tool } from '../../domain/tool';
import { deliverBody, dropConnection, isDroppedConnection } from '../../http/connection-faults/connection-faults';
import { drawDelayMs, MOST_DELAY_MS, type Random } from './delay';
import { canonicalAddress, scenarioOf, type ForcedStatus, type Scenario, type ScenarioTarget } from './scenario';

/** Set on every answer a scenario delayed or forced: which one. */
export const SCENARIO_HEADER = 'X-Sandbox-Scenario';
/** Set on the answers of auth, data and survey requests while scenarios that match them have answers left: how many. */
export const ACTIVE_SCENARIOS_HEADER = 'X-Sandbox-Scenarios-Active';

/** Where the answers scenarios forced are counted (the app's metrics). */
export interface ScenarioAnswerCounter {
  /** `answer`: the connection's fault (reset, empty, truncated, drip), else the status forced, else `delay`. */
  scenarioAnswered(target: ScenarioTarget, answer: string): void;
}

export interface ScenarioAnswerDependencies {
  readonly store: Store;
  readonly clock: Clock;
  /** What a delay given as a distribution draws each request's wait from. */
  readonly random: Random;
  readonly counter: ScenarioAnswerCounter;
  /** The limit groups' windows, whose headers a forced 429 carries. */
  readonly limits: Pick<RateLimitSettings, 'auth' | 'data' | 'survey' | 'windowSeconds'>;
}

/** What a request is, for the scenarios: its targets, and its account when it has one. */
export interface ScenarioMatch {
  /** `auth`; `data` and the resource's name; `survey`. */
  readonly targets: readonly ScenarioTarget[];
  /** Auth: the login posted; data: the credentials' account. */
  readonly account: { readonly tool: Tool; readonly login: string } | undefined;
}

/**
 * Runs the scenario a request matches, if one has answers left: waits its delay, then drops the connection
 * (throwing ConnectionDropped, which ends the route unanswered), or throws the error it forces (the app's
 * error handlers answer it as the real rule would), or returns for the real answer; a truncated or
 * dripped answer, forced or real, is sent so once the route has written it.
 */
export type ScenarioAnswers = (req: Request, res: Response, match: ScenarioMatch) => Promise<void>;

/** Without the admin API (or with SANDBOX_SCENARIOS=false) no scenario can exist: the store is not asked. */
export const noScenarios: ScenarioAnswers = () => Promise.resolve();

const groupOf = (target: ScenarioTarget): 'auth' | 'data' | 'survey' =>
  target === 'auth' || target === 'survey' ? target : 'data';

/**
 * The answer the real rule gives for the status: the same code, message and headers (a 429's window
 * spent, a 401's challenge, an outage's Retry-After), the survey's fault string in place of the message.
 */
function forcedError(scenario: Scenario, status: ForcedStatus, { clock, limits }: ScenarioAnswerDependencies): AppError {
  const group = groupOf(scenario.target);
  const real = (() => {
    switch (status) {
      case 401:
        return group === 'auth' ? errors.invalidLogin(REALM) : errors.unauthorized(REALM);
      case 429: {
        const windowMs = limits.windowSeconds * 1000;
        const resetMs =
          scenario.retryAfterSeconds === undefined
            ? (Math.floor(clock.now() / windowMs) + 1) * windowMs
            : clock.now() + scenario.retryAfterSeconds * 1000;
        const refused = errors.rateLimited();
        return new AppError(refused.code, refused.statusCode, refused.message, {
          'Retry-After': String(Math.max(1, Math.ceil((resetMs - clock.now()) / 1000))),
          'X-RateLimit-Limit': String(limits[group]),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
        });
      }
      case 503: {
        const outage = errors.dependencyUnavailable('store', undefined);
        if (scenario.retryAfterSeconds === undefined) return outage;
        return new AppError(outage.code, outage.statusCode, outage.message, { ...outage.headers, 'Retry-After': String(scenario.retryAfterSeconds) });
      }
      default:
        return group === 'survey' ? errors.surveyHandlerFailed() : errors.internal();
    }
  })();
  return new AppError(real.code, real.statusCode, scenario.faultString ?? real.message, { ...real.headers, [SCENARIO_HEADER]: scenario.id });
}

/**
 * How many requests delays and drips may hold at once. A held survey call keeps its body, read before the
 * scenarios run, and a dripped answer its own; many held at once fill the heap (docs/performance-costs.md,
 * "Survey bodies held by the sandbox's delays"): past this, a delayed request waits no more and a dripped
 * answer is sent at once, so what they hold is at most this many bodies.
 */
export const MOST_HELD_REQUESTS = 100;

/** The scenarios of the store, run on the requests they match. */
export function scenarioAnswers(dependencies: ScenarioAnswerDependencies): ScenarioAnswers {
  const { store, random, counter } = dependencies;
  let held = 0;
  return async (req, res, match) => {
    const firing = await store.scenarios.fire({ ...match, clientAddress: canonicalAddress(req.ip ?? '') });
    if (firing.stillActive > 0) res.setHeader(ACTIVE_SCENARIOS_HEADER, String(firing.stillActive));
    if (firing.fired === undefined) return;
    const fired = scenarioOf(firing.fired);
    counter.scenarioAnswered(fired.target, fired.connection ?? (fired.status === undefined ? 'delay' : String(fired.status)));
    if (fired.delayMs !== undefined && held < MOST_HELD_REQUESTS) {
      // In real time, not the sandbox clock's: it is the client's wait that is under test. A client that
      // leaves ends the wait: nothing would read the answer.
      held += 1;
      try {
        await sleep(drawDelayMs(fired.delayMs, random), undefined, { signal: clientGoneSignal(res) }).catch(() => undefined);
      } finally {
        held -= 1;
      }
    }
    if (isDroppedConnection(fired.connection)) throw dropConnection(res, fired.connection);
    if (fired.connection === 'truncated') deliverBody(res, { fault: 'truncated' }, () => undefined);
    if (fired.connection === 'drip' && fired.bytesPerSecond !== undefined && held < MOST_HELD_REQUESTS) {
      held += 1;
      deliverBody(res, { fault: 'drip', bytesPerSecond: fired.bytesPerSecond, mostMs: MOST_DELAY_MS }, () => {
        held -= 1;
      });
    }
    if (fired.status !== undefined) throw forcedError(fired, fired.status, dependencies);
    res.setHeader(SCENARIO_HEADER, fired.id);
  };
}
