import { drawAnswers } from '../scenario-draws';
import { hasAnswersLeft, type ScenarioRepository, type ScenarioRequest, type StoredScenario } from '../store';

interface Kept {
  /** Its place in creation order. */
  readonly position: number;
  readonly scenario: StoredScenario;
}

/** The request is one of the scenario's targets, and of the account and from the address it names, if it names them. */
function matches(scenario: StoredScenario, request: ScenarioRequest): boolean {
  return (
    request.targets.includes(scenario.target) &&
    (scenario.account === undefined ||
      (scenario.account.tool === request.account?.tool && scenario.account.login === request.account.login)) &&
    (scenario.clientAddress === undefined || scenario.clientAddress === request.clientAddress)
  );
}

/**
 * The scenarios in creation order; each method runs in one turn, so an addition with its count and a
 * firing are atomic. The used-up ones are kept apart, for the list only: a firing scans the ones with
 * answers left, at most SANDBOX_MAX_SCENARIOS of them, however many were used up before.
 */
export function memoryScenarios(): ScenarioRepository {
  let added = 0;
  const active = new Map<string, Kept>();
  const usedUp = new Map<string, Kept>();
  return {
    add: (scenario, mostActive) => {
      if (active.size >= mostActive) return Promise.resolve('full');
      added += 1;
      (hasAnswersLeft(scenario) ? active : usedUp).set(scenario.id, { position: added, scenario });
      return Promise.resolve('added');
    },
    list: () =>
      Promise.resolve(
        [...active.values(), ...usedUp.values()].sort((one, other) => one.position - other.position).map(({ scenario }) => scenario),
      ),
    remove: (id) => Promise.resolve(active.delete(id) || usedUp.delete(id)),
    clear: () => {
      const count = active.size + usedUp.size;
      active.clear();
      usedUp.clear();
      return Promise.resolve(count);
    },
    fire: (request) => {
      let fired: StoredScenario | undefined;
      let stillActive = 0;
      for (const [id, { position, scenario: matched }] of active) {
        if (!matches(matched, request)) continue;
        const scenario = matched.probability === undefined ? matched : { ...matched, draws: matched.draws + 1 };
        const answers = fired === undefined && (scenario.probability === undefined || drawAnswers(scenario.seed ?? 0, scenario.draws, scenario.probability));
        const now = answers ? { ...scenario, fired: scenario.fired + 1 } : scenario;
        if (answers) fired = now;
        if (hasAnswersLeft(now)) {
          active.set(id, { position, scenario: now });
          stillActive += 1;
        } else {
          // Deleting the entry being visited is safe: a Map's iteration goes on with the next.
          active.delete(id);
          usedUp.set(id, { position, scenario: now });
        }
      }
      return Promise.resolve({ fired, stillActive });
    },
  };
}
