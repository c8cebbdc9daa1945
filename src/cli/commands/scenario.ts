import { Command, InvalidArgumentError } from 'commander';
import type { Tool } from '../../domain/tool';
import { SCENARIO_TARGETS } from '../../sandbox/scenarios/scenario';
import { CONNECTION_FAULTS } from '../../http/connection-faults/connection-faults';
import { describeScenario, scenarioTable } from '../scenario-format';
import { CliError } from '../cli-error';
import { adminClient, withServerOptions, type ServerOptions } from '../server-options';
import { parseTool } from './account-key';
import { wholeNumber } from './number-options';

interface AddOptions extends ServerOptions {
  readonly status?: number;
  readonly delayMs?: number | Readonly<Record<string, unknown>>;
  readonly times?: number;
  readonly account?: { readonly tool: Tool; readonly login: string };
  readonly clientAddress?: string;
  readonly faultString?: string;
  readonly retryAfterSeconds?: number;
  readonly probability?: number;
  readonly seed?: number;
  readonly connection?: string;
  readonly bytesPerSecond?: number;
}

/** A whole number for the JSON body; its real bounds are the server's to check, and its refusal names the field. */
const anyWholeNumber = wholeNumber(0, Number.MAX_SAFE_INTEGER);

/** --delay-ms: whole milliseconds, or a distribution in JSON; the server checks its bounds and names what it refuses. */
function parseDelay(value: string): number | Readonly<Record<string, unknown>> {
  if (/^\d+$/.test(value)) return Number(value);
  const refused = new InvalidArgumentError('must be a whole number of milliseconds, or a distribution in JSON: {"uniform":[min,max]} or {"median":m,"p99":n}');
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw refused;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refused;
  return parsed as Readonly<Record<string, unknown>>;
}

/** --probability: a decimal number; the server checks that it is above 0 and at most 1. */
function parseProbability(value: string): number {
  if (!/^(\d+\.?\d*|\.\d+)$/.test(value)) throw new InvalidArgumentError('must be a number above 0 and at most 1, e.g. 0.1');
  return Number(value);
}

/** --account TOOL/LOGIN: split at the first slash (a tool has none, a login may). */
function parseAccount(value: string): { tool: Tool; login: string } {
  const slash = value.indexOf('/');
  if (slash < 0) throw new InvalidArgumentError('must be TOOL/LOGIN, e.g. dev/acme');
  return { tool: parseTool(value.slice(0, slash)), login: value.slice(slash + 1) };
}

export function scenarioCommand(env: NodeJS.ProcessEnv): Command {
  const scenario = new Command('scenario')
    .summary("force failures on a running server's next requests")
    .description(
      'add, list and remove failure scenarios: the next requests of a target answered with a 401, 429, 500 or 503, ' +
        'delayed, or their connection faulted, as the real rule answers them (the server must run with SANDBOX_SCENARIOS, the default)',
    );

  withServerOptions(
    scenario
      .command('add')
      .description('add a scenario and print its id first, then what it does')
      .argument('<target>', `the requests it answers: ${SCENARIO_TARGETS.join(', ')}`)
      .option('--status <code>', 'answer this status instead: 401, 429, 500 or 503 (survey: 429, 500, 503)', anyWholeNumber)
      .option(
        '--delay-ms <ms>',
        'wait this long before answering, 1 to 60000 (then the status, or the real answer); or each request draws its wait: ' +
          '{"uniform":[min,max]} or {"median":m,"p99":n}',
        parseDelay,
      )
      .option('--times <n>', 'answer only the next N matching requests (default: every one until removed)', anyWholeNumber)
      .option('--account <tool/login>', "only this account's requests, e.g. dev/acme (not for the survey)", parseAccount)
      .option('--client-address <ip>', 'only the requests from this IPv4 or IPv6 address')
      .option('--fault-string <text>', 'survey only, with --status: the SOAP faultstring (the REST error message)')
      .option('--retry-after-seconds <s>', 'with --status 429 or 503: this Retry-After instead of the real one', anyWholeNumber)
      .option('--probability <p>', 'answer each matching request with this chance, above 0 and at most 1 (default: every one)', parseProbability)
      .option('--seed <n>', 'with --probability: the seed of its draws, for the same answers on every run (default: one drawn, shown)', anyWholeNumber)
      .option(
        '--connection <fault>',
        `fault the connection: ${CONNECTION_FAULTS.join(', ')} (reset and empty send no status; truncated sends half the body; drip needs --bytes-per-second)`,
      )
      .option('--bytes-per-second <n>', 'with --connection drip: the rate the answer is sent at, 1 to 1000000', anyWholeNumber),
  )
    .addHelpText('after', '\nA scenario needs --status, --delay-ms, --connection or more than one. The server\nchecks the rest and says what it refuses.')
    .action(async (target: string, options: AddOptions) => {
      const added = await adminClient(options, env).addScenario({
        target,
        tool: options.account?.tool,
        login: options.account?.login,
        client_address: options.clientAddress,
        status: options.status,
        fault_string: options.faultString,
        delay_ms: options.delayMs,
        retry_after_seconds: options.retryAfterSeconds,
        times: options.times,
        probability: options.probability,
        seed: options.seed,
        connection: options.connection,
        bytes_per_second: options.bytesPerSecond,
      });
      process.stdout.write(`${added.id} added: ${describeScenario(added)}\n`);
    });

  withServerOptions(scenario.command('list').description('list every scenario, oldest first, with how many requests it answered'))
    .option('--json', 'print the admin API answer as JSON')
    .action(async (options: ServerOptions & { json?: boolean }) => {
      const list = await adminClient(options, env).listScenarios();
      process.stdout.write(options.json === true ? `${JSON.stringify({ scenarios: list })}\n` : scenarioTable(list));
    });

  withServerOptions(
    scenario
      .command('remove')
      .description('remove scenarios by id, or every one with --all')
      .argument('[id...]', 'the ids "scenario add" printed')
      .option('--all', 'remove every scenario'),
  ).action(async (ids: string[], options: ServerOptions & { all?: boolean }) => {
    if (options.all === true && ids.length > 0) throw new CliError('give scenario ids or --all, not both');
    if (options.all !== true && ids.length === 0) throw new CliError('give the ids of the scenarios to remove, or --all');
    const client = adminClient(options, env);
    if (options.all === true) {
      const removed = await client.removeAllScenarios();
      process.stdout.write(`removed ${removed} scenario${removed === 1 ? '' : 's'}\n`);
      return;
    }
    for (const id of ids) {
      await client.removeScenario(id);
      process.stdout.write(`${id} removed\n`);
    }
  });

  return scenario;
}
