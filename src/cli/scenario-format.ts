import type { ScenarioView } from '../sandbox/scenarios/scenario';

function accountOf(scenario: ScenarioView): string | undefined {
  return scenario.tool === undefined ? undefined : `${scenario.tool}/${scenario.login ?? ''}`;
}

/** Whose requests it matches, as the table shows it: `dev/alice`, `10.0.0.1`, `dev/alice from 10.0.0.1`, or `anyone`. */
function whoOf(scenario: ScenarioView): string {
  const account = accountOf(scenario);
  const address = scenario.client_address;
  if (account === undefined) return address ?? 'anyone';
  return address === undefined ? account : `${account} from ${address}`;
}

/** A delay as it was given: `300 ms`, `100 to 900 ms (uniform)`, `a median of 200 ms (p99 2000 ms)`. */
function delayOf(delay: NonNullable<ScenarioView['delay_ms']>): string {
  if (typeof delay === 'number') return `${delay} ms`;
  if ('uniform' in delay) return `${delay.uniform[0]} to ${delay.uniform[1]} ms (uniform)`;
  return `a median of ${delay.median} ms (p99 ${delay.p99} ms)`;
}

/** By chance, as given: ` with probability 0.1 (seed 42)`; nothing for a scenario that answers every request it matches. */
function chanceOf(scenario: ScenarioView): string {
  return scenario.probability === undefined ? '' : ` with probability ${scenario.probability} (seed ${String(scenario.seed)})`;
}

/** The status or the real answer, as the connection delivers it: `a reset connection`, `429, truncated`, `the real answer at 200 bytes/s`. */
function deliveredOf(scenario: ScenarioView, status: string): string {
  switch (scenario.connection) {
    case 'reset':
      return 'a reset connection';
    case 'empty':
      return 'an empty reply';
    case 'truncated':
      return `${status}, truncated`;
    case 'drip':
      return `${status} at ${String(scenario.bytes_per_second)} bytes/s`;
    default:
      return status;
  }
}

/**
 * What it answers: `429`, `429 (Retry-After 2)`, `500 "closed"`, `429 after 300 ms`, `the real answer after 300 ms`,
 * `500 with probability 0.1 (seed 42)`, `a reset connection after 300 ms`, `the real answer at 200 bytes/s`.
 */
function answerOf(scenario: ScenarioView): string {
  const faultString = scenario.fault_string === undefined ? '' : ` ${JSON.stringify(scenario.fault_string)}`;
  const retryAfter = scenario.retry_after_seconds === undefined ? '' : ` (Retry-After ${scenario.retry_after_seconds})`;
  const status = deliveredOf(scenario, scenario.status === undefined ? 'the real answer' : `${scenario.status}${faultString}${retryAfter}`);
  return `${scenario.delay_ms === undefined ? status : `${status} after ${delayOf(scenario.delay_ms)}`}${chanceOf(scenario)}`;
}

/** One scenario as `add` prints it, e.g. `data of dev/alice from 10.0.0.1 answers 429, the next 3 requests`. */
export function describeScenario(scenario: ScenarioView): string {
  const account = accountOf(scenario);
  const who = `${account === undefined ? '' : ` of ${account}`}${scenario.client_address === undefined ? '' : ` from ${scenario.client_address}`}`;
  const requests =
    scenario.times === undefined ? 'every request until removed' : scenario.times === 1 ? 'the next request' : `the next ${scenario.times} requests`;
  const does =
    scenario.status === undefined && scenario.connection === undefined && scenario.delay_ms !== undefined
      ? `delays the real answer ${delayOf(scenario.delay_ms)}${chanceOf(scenario)}`
      : `answers ${answerOf(scenario)}`;
  return `${scenario.target}${who} ${does}, ${requests}`;
}

const HEADER = ['ID', 'TARGET', 'FOR', 'ANSWER', 'FIRED', 'STATE'] as const;

/** Scenarios as a table with a header row, columns padded to their widest cell, as `scenario list` prints them. */
export function scenarioTable(scenarios: readonly ScenarioView[]): string {
  const rows: string[][] = [
    [...HEADER],
    ...scenarios.map((scenario) => [
      scenario.id,
      scenario.target,
      whoOf(scenario),
      answerOf(scenario),
      scenario.times === undefined ? `${scenario.fired} (no limit)` : `${scenario.fired}/${scenario.times}`,
      scenario.active ? 'active' : 'used up',
    ]),
  ];
  const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const lines = rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd());
  return `${lines.join('\n')}\n`;
}
