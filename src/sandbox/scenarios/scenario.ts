import { isIP } from 'node:net';
import { z } from 'zod';
import { toolSchema, type Tool } from '../../domain/tool';
import { boundedText, storableIdentifier } from '../../domain/storable-text';
import { MOST_SEED } from '../../storage/scenario-draws';
import { hasAnswersLeft, type ScenarioDelay, type StoredScenario } from '../../storage/store';
import { delaySchema } from './delay';
import { CONNECTION_FAULTS, isDroppedConnection, type ConnectionFault } from '../../http/connection-faults/connection-faults';

/** The raw-data resources by name, each a target of its own; `data` is all of them. */
export const REPORT_TARGETS = ['volume', 'events', 'performance', 'caller-profile', 'geographic', 'flow'] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

export const SCENARIO_TARGETS = ['auth', 'data', ...REPORT_TARGETS, 'survey'] as const;
export type ScenarioTarget = (typeof SCENARIO_TARGETS)[number];

/** What a scenario may answer in place of the real answer: the reporting API's failures, and the survey service's. */
export const REPORTING_STATUSES = [401, 429, 500, 503] as const;
export const SURVEY_STATUSES = [429, 500, 503] as const;
export type ForcedStatus = (typeof REPORTING_STATUSES)[number] | (typeof SURVEY_STATUSES)[number];

const MOST_TIMES = 1_000_000;
const MOST_FAULT_STRING_CHARACTERS = 1000;
const MOST_RETRY_AFTER_SECONDS = 86_400;
const WITH_RETRY_AFTER: readonly number[] = [429, 503];
/** A megabyte a second: the slowest networks a client is tested on are far below it, and a drip holds its request until it ends. */
const MOST_BYTES_PER_SECOND = 1_000_000;

/** What a scenario does to the requests it matches, as POST /admin/scenarios gives it. */
export interface ScenarioRule {
  readonly target: ScenarioTarget;
  /** Only the requests of this account (auth: the login posted; data: the credentials' account). */
  readonly account: { readonly tool: Tool; readonly login: string } | undefined;
  /** Only the requests from this client address (as TRUST_PROXY reads it). */
  readonly clientAddress: string | undefined;
  /** The status answered instead of the real answer; none: the real answer, after the delay. */
  readonly status: ForcedStatus | undefined;
  /** The survey's fault string (SOAP) or error message (REST); none: the real rule's message. */
  readonly faultString: string | undefined;
  /** As given: each request draws its own wait from a distribution. */
  readonly delayMs: ScenarioDelay | undefined;
  /** A 429's or 503's Retry-After in place of the real one (a 429's: the window's end), for a retry tested in seconds. */
  readonly retryAfterSeconds: number | undefined;
  /** How many matching requests it answers; none: every one until it is deleted. */
  readonly times: number | undefined;
  /** The chance that it answers a request it matches; none: every one. */
  readonly probability: number | undefined;
  /** With a probability, the seed of its draws as given; none: one drawn when it is added. */
  readonly seed: number | undefined;
  /** A fault of the connection in place of the answer (reset, empty), or of its delivery (truncated, drip). */
  readonly connection: ConnectionFault | undefined;
  /** A drip's rate. */
  readonly bytesPerSecond: number | undefined;
}

/** A rule as the store keeps it (StoredScenario, which it is one of): with its id, its time and its use. */
export interface Scenario extends ScenarioRule {
  readonly id: string;
  readonly createdAt: number;
  /** With a probability: how many requests it has drawn for. */
  readonly draws: number;
  /** How many requests it has answered. */
  readonly fired: number;
}

const isTarget = (target: string): target is ScenarioTarget => (SCENARIO_TARGETS as readonly string[]).includes(target);
const isForcedStatus = (status: number): status is ForcedStatus => (REPORTING_STATUSES as readonly number[]).includes(status);
const isConnectionFault = (fault: string): fault is ConnectionFault => (CONNECTION_FAULTS as readonly string[]).includes(fault);

/**
 * A stored scenario read back: the store keeps what POST /admin/scenarios made, so a target, status or
 * connection fault this server does not know means the data was written by another version of it.
 */
export function scenarioOf(stored: StoredScenario): Scenario {
  const { target, status, connection } = stored;
  if (!isTarget(target) || (status !== undefined && !isForcedStatus(status)) || (connection !== undefined && !isConnectionFault(connection))) {
    throw new Error(`scenario ${stored.id}: target ${target} with status ${String(status)} and connection ${String(connection)} is not one this server answers`);
  }
  return { ...stored, target, status, connection };
}

/** IPv4 addresses as Express reports them on a dual-stack socket (`::ffff:10.0.0.1`) and as people write them. */
export function canonicalAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return (mapped?.[1] ?? address).toLowerCase();
}

const statusSchema = z
  .literal(REPORTING_STATUSES, {
    error: `must be one of ${REPORTING_STATUSES.join(', ')} (for the survey ${SURVEY_STATUSES.join(', ')})`,
  })
  // zod-to-openapi writes a literal of several values as an enum of its first alone.
  .meta({ type: 'integer', enum: [...REPORTING_STATUSES] });

/** `{id}` of /admin/scenarios/{id}: what POST answered. */
export const scenarioPathSchema = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a scenario id, as POST /admin/scenarios answered it (a UUID)')
    .meta({ description: 'The id POST /admin/scenarios answered: a UUID in lower case; anything else is a 400', format: 'uuid' }),
});

/** The body of POST /admin/scenarios. */
export const scenarioRuleSchema = z
  .strictObject({
    target: z.enum(SCENARIO_TARGETS, { error: `must be one of ${SCENARIO_TARGETS.join(', ')}` }).meta({
      description: 'auth: POST /api/auth; data: every raw-data resource; a resource by name: that one only; survey: every survey call (SOAP and REST)',
    }),
    tool: toolSchema.optional().meta({ description: 'With login: only the requests of this account (not for the survey)' }),
    login: storableIdentifier(200).optional().meta({ description: 'With tool: only the requests of this account' }),
    client_address: z
      .string()
      .refine((value) => isIP(value) !== 0, 'must be an IPv4 or IPv6 address')
      .optional()
      // isIP's rule has no pattern of reasonable size; the length bound is what a schema can state, the rest is in words.
      .meta({ description: 'Only the requests from this client address (as TRUST_PROXY reads it): an IPv4 or IPv6 address, anything else a 400', minLength: 1 }),
    status: statusSchema.optional().meta({
      description:
        'The status answered instead, as the real rule answers it (429 with Retry-After and X-RateLimit-*, 401 with its challenge); 503 is an outage, which the reporting API answers as a 500 with Retry-After, and the SOAP service as a soap:Server fault',
    }),
    fault_string: boundedText(1, MOST_FAULT_STRING_CHARACTERS)
      .optional()
      .meta({ description: 'Survey only, with status: the SOAP faultstring (the REST error message)' }),
    delay_ms: delaySchema.optional().meta({ description: 'Wait this long before answering (then the status, or the real answer)' }),
    retry_after_seconds: z
      .int('must be a whole number of seconds')
      .min(1, 'must be at least 1')
      .max(MOST_RETRY_AFTER_SECONDS, `must be at most ${MOST_RETRY_AFTER_SECONDS}`)
      .optional()
      .meta({ description: "With status 429 or 503: Retry-After in place of the real rule's (a 429's X-RateLimit-Reset moves with it)" }),
    times: z
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(MOST_TIMES, `must be at most ${MOST_TIMES}`)
      .optional()
      .meta({ description: 'How many matching requests it answers; left out: every one until it is deleted' }),
    probability: z
      .number('must be a number')
      .gt(0, 'must be above 0')
      .max(1, 'must be at most 1')
      .optional()
      .meta({ description: 'The chance that it answers a request it matches (0 < p <= 1), each request drawing its own; left out: every one' }),
    seed: z
      .int('must be a whole number')
      .min(0, 'must be at least 0')
      .max(MOST_SEED, `must be at most ${MOST_SEED}`)
      .optional()
      .meta({
        description:
          'With probability: the seed of its draws, so that the same sequence of requests meets the same answers on every run; left out: one drawn when it is added, shown in the list',
      }),
    connection: z
      .enum(CONNECTION_FAULTS, { error: `must be one of ${CONNECTION_FAULTS.join(', ')}` })
      .optional()
      .meta({
        description:
          'A fault below HTTP: reset (the connection reset before any byte), empty (closed without a byte), truncated (the status and headers, ' +
          'then half the body, then closed), drip (the answer sent at bytes_per_second, what is left after a minute at once)',
      }),
    bytes_per_second: z
      .int('must be a whole number of bytes')
      .min(1, 'must be at least 1')
      .max(MOST_BYTES_PER_SECOND, `must be at most ${MOST_BYTES_PER_SECOND}`)
      .optional()
      .meta({ description: "With connection drip, which needs it: the body's rate" }),
  })
  .superRefine((rule, context) => {
    const problem = (message: string, path: string) => context.addIssue({ code: 'custom', message, path: [path] });
    if (rule.status === undefined && rule.delay_ms === undefined && rule.connection === undefined) {
      problem('a scenario needs a status, a delay_ms or a connection', 'status');
    }
    if (isDroppedConnection(rule.connection) && rule.status !== undefined) {
      problem(`cannot go with connection ${rule.connection}, which sends no status`, 'status');
    }
    if ((rule.connection === 'drip') !== (rule.bytes_per_second !== undefined)) {
      problem(rule.connection === 'drip' ? 'a drip needs it' : 'needs connection drip', 'bytes_per_second');
    }
    if ((rule.tool === undefined) !== (rule.login === undefined)) problem('tool and login go together', rule.tool === undefined ? 'tool' : 'login');
    if (rule.target === 'survey') {
      if (rule.tool !== undefined) problem('the survey has no accounts: match by client_address instead', 'tool');
      if (rule.status === 401) problem(`must be one of ${SURVEY_STATUSES.join(', ')} for the survey`, 'status');
    } else if (rule.fault_string !== undefined) {
      problem('is for the survey only', 'fault_string');
    }
    if (rule.fault_string !== undefined && rule.status === undefined) problem('needs a status', 'fault_string');
    if (rule.retry_after_seconds !== undefined && !WITH_RETRY_AFTER.includes(rule.status ?? 0)) problem('needs status 429 or 503', 'retry_after_seconds');
    if (rule.seed !== undefined && rule.probability === undefined) problem('needs a probability', 'seed');
  })
  .meta({ id: 'ScenarioRule' });

export function toScenarioRule(body: z.output<typeof scenarioRuleSchema>): ScenarioRule {
  return {
    target: body.target,
    account: body.tool === undefined || body.login === undefined ? undefined : { tool: body.tool, login: body.login },
    clientAddress: body.client_address === undefined ? undefined : canonicalAddress(body.client_address),
    status: body.status,
    faultString: body.fault_string,
    delayMs: body.delay_ms,
    retryAfterSeconds: body.retry_after_seconds,
    times: body.times,
    probability: body.probability,
    seed: body.seed,
    connection: body.connection,
    bytesPerSecond: body.bytes_per_second,
  };
}

/** A scenario as the admin API shows it: the rule as it was given, with its id and its use. */
export const scenarioViewSchema = z
  .strictObject({
    id: z.string().meta({ description: 'DELETE /admin/scenarios/{id} removes it' }),
    target: z.enum(SCENARIO_TARGETS),
    tool: toolSchema.optional(),
    login: z.string().optional(),
    client_address: z.string().optional(),
    status: z.number().int().optional(),
    fault_string: z.string().optional(),
    delay_ms: delaySchema.optional().meta({ description: 'As it was given' }),
    retry_after_seconds: z.number().int().optional(),
    times: z.number().int().optional().meta({ description: 'Left out: until deleted' }),
    probability: z.number().optional(),
    seed: z.number().int().optional().meta({ description: 'With probability: as given, or the one drawn when it was added' }),
    connection: z.enum(CONNECTION_FAULTS).optional(),
    bytes_per_second: z.number().int().optional(),
    fired: z.number().int().meta({ description: 'How many requests it has answered' }),
    active: z.boolean().meta({ description: 'Whether it still answers (fired is below times)' }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Scenario' });

export const scenarioListSchema = z.strictObject({ scenarios: z.array(scenarioViewSchema) }).meta({ id: 'ScenarioList' });

export type ScenarioView = z.input<typeof scenarioViewSchema>;

/** Fields a rule leaves out are undefined here, and so left out of the JSON. */
export function scenarioView(scenario: Scenario): ScenarioView {
  return {
    id: scenario.id,
    target: scenario.target,
    tool: scenario.account?.tool,
    login: scenario.account?.login,
    client_address: scenario.clientAddress,
    status: scenario.status,
    fault_string: scenario.faultString,
    delay_ms: scenario.delayMs,
    retry_after_seconds: scenario.retryAfterSeconds,
    times: scenario.times,
    probability: scenario.probability,
    seed: scenario.seed,
    connection: scenario.connection,
    bytes_per_second: scenario.bytesPerSecond,
    fired: scenario.fired,
    active: hasAnswersLeft(scenario),
    created_at: new Date(scenario.createdAt).toISOString(),
  };
}
