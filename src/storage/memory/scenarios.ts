import { isActive, matches, type Scenario } from '../../admin/scenarios/scenario';
import type { ScenarioRepository } from '../store';

/** The scenarios in creation order; each method runs in one turn, so a firing is atomic. */
export function memoryScenarios(): ScenarioRepository {
  const scenarios = new Map<string, Scenario>();
  return {
    add: (scenario) => {
      scenarios.set(scenario.id, scenario);
      return Promise.resolve();
    },
    list: () => Promise.resolve([...scenarios.values()]),
    remove: (id) => Promise.resolve(scenarios.delete(id)),
    clear: () => {
      const count = scenarios.size;
      scenarios.clear();
      return Promise.resolve(count);
    },
    fire: (request) => {
      let fired: Scenario | undefined;
      let stillActive = 0;
      for (const scenario of scenarios.values()) {
        if (!isActive(scenario) || !matches(scenario, request)) continue;
        if (fired === undefined) {
          fired = { ...scenario, fired: scenario.fired + 1 };
          scenarios.set(fired.id, fired);
          if (isActive(fired)) stillActive += 1;
        } else {
          stillActive += 1;
        }
      }
      return Promise.resolve({ fired, stillActive });
    },
  };
}
