import express, { Router } from 'express';
import { randomUUID } from 'node:crypto';
import { errors } from '../../errors/catalogue';
import { methodNotAllowed } from '../../http/error-handler';
import { MOST_SEED } from '../../storage/scenario-draws';
import type { Store } from '../../storage/store';
import type { Random } from './delay';
import type { Clock } from '../../time/clock';
import { describeIssues } from '../../http/field-errors';
import { requireJsonIfAny } from '../../http/json-body';
import { scenarioOf, scenarioPathSchema, scenarioRuleSchema, scenarioView, toScenarioRule, type Scenario } from './scenario';

function parseScenarioId(params: Record<string, string>): string {
  const path = scenarioPathSchema.safeParse(params);
  if (!path.success) throw errors.invalidParameter(describeIssues(path.error.issues));
  return path.data.id;
}

export interface ScenarioAdmin {
  readonly store: Store;
  readonly clock: Clock;
  /** SANDBOX_SCENARIOS: off, no scenario may be added. */
  readonly enabled: boolean;
  /** SANDBOX_MAX_SCENARIOS: how many may have answers left at once. */
  readonly mostActive: number;
  /** What the seed of a scenario with a probability and none given is drawn from. */
  readonly random: Random;
}

/** /admin/scenarios: the sandbox's failure scenarios, added, listed and removed. */
export function scenarioRoutes({ store, clock, enabled, mostActive, random }: ScenarioAdmin): Router {
  const router = Router();
  router
    .route('/scenarios')
    .get(async (_req, res) => {
      res.status(200).json({ scenarios: (await store.scenarios.list()).map((stored) => scenarioView(scenarioOf(stored))) });
    })
    .post(requireJsonIfAny, express.json({ limit: '4kb', strict: false }), async (req, res) => {
      // No body at all names every missing field, as an empty object does.
      const body = scenarioRuleSchema.safeParse(req.body ?? {});
      if (!body.success) throw errors.invalidParameter(describeIssues(body.error.issues));
      if (!enabled) throw errors.scenariosOff();
      const rule = toScenarioRule(body.data);
      // A seed drawn now and shown in the list: the same run can be had again by giving it.
      const seed = rule.probability === undefined ? undefined : (rule.seed ?? Math.floor(random() * (MOST_SEED + 1)));
      const scenario: Scenario = { ...rule, seed, id: randomUUID(), createdAt: clock.now(), draws: 0, fired: 0 };
      if ((await store.scenarios.add(scenario, mostActive)) === 'full') throw errors.tooManyScenarios(mostActive);
      res.status(201).location(`${req.baseUrl}/scenarios/${scenario.id}`).json(scenarioView(scenario));
    })
    .delete(async (_req, res) => {
      res.status(200).json({ removed: await store.scenarios.clear() });
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'POST', 'DELETE']));
  router
    .route('/scenarios/:id')
    .get(async (req, res) => {
      const id = parseScenarioId(req.params);
      const stored = (await store.scenarios.list()).find((candidate) => candidate.id === id);
      if (stored === undefined) throw errors.scenarioNotFound(id);
      res.status(200).json(scenarioView(scenarioOf(stored)));
    })
    .delete(async (req, res) => {
      const id = parseScenarioId(req.params);
      if (!(await store.scenarios.remove(id))) throw errors.scenarioNotFound(id);
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'DELETE']));
  return router;
}
