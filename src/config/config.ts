import proxyAddr from 'proxy-addr';
import { z } from 'zod';
import { timeZoneSchema } from '../domain/time-zone';
import { WEEK_STARTS, type WeekStart } from '../reporting/query/periods';

/** A whole number in range; every refusal names the range, in the house style of the other messages. */
const integer = (min: number, max = Number.MAX_SAFE_INTEGER) => {
  const range = max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  return z
    .string()
    .trim()
    .regex(/^\d+$/, `must be ${range}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be ${range}`).max(max, `must be ${range}`));
};

/** One of a few words, in any case (`Sunday` is sunday), refused with the list of them. */
const oneOf = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z
    .string()
    .trim()
    .transform((value) => value.toLowerCase())
    .pipe(z.enum(values, { error: `must be one of ${values.join(', ')}` }));

const timeZone = z.string().trim().pipe(timeZoneSchema);

/** Express's own reading of `trust proxy`, checked here with the library it uses, so a typo stops the start by name. */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): boolean | number | string => {
    if (value === 'true') return true;
    if (value === 'false' || value === '') return false;
    if (/^\d+$/.test(value)) return Number(value);
    try {
      proxyAddr.compile(value.split(',').map((entry) => entry.trim()));
    } catch {
      context.addIssue({
        code: 'custom',
        message:
          'must be true, false, a number of proxy hops, or a comma-separated list of addresses, subnets, loopback, linklocal or uniquelocal',
      });
      return z.NEVER;
    }
    return value;
  });

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/**
 * The paths the server's own routes answer (the reporting and admin APIs, the API reference and its
 * document, the dashboard's files, the probes and the metrics): the survey service mounted on one of
 * them would hide the route or be hidden by it, depending on the order.
 */
export const RESERVED_PATHS = ['/api', '/admin', '/docs', '/openapi.json', '/dashboard', '/healthz', '/readyz', '/metrics'] as const;

/** An absolute URL path of plain segments, so it is safe in routes, cookies and the WSDL. */
const urlPath = z
  .string()
  .trim()
  .regex(/^(\/[A-Za-z0-9._~-]+)+\/?$/, 'must be a path such as /survey')
  .transform((value) => value.replace(/\/+$/, ''))
  .refine(
    (value) => !RESERVED_PATHS.some((taken) => value === taken || value.startsWith(`${taken}/`)),
    `must not be one of the server's own paths or under them: ${RESERVED_PATHS.join(', ')}`,
  );

const publicUrl = optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional());

/** Long enough that guessing it through the admin rate limit is hopeless. */
const adminToken = optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional());

/** As long as the admin token: GET /metrics has no rate limit, so only its length stops guessing. */
const metricsToken = adminToken;

const DEFAULT_REQUEST_IDLE_TIMEOUT_SECONDS = 30;
/** A default the PostgreSQL store and the Redis client also fall back to when a test or benchmark opens one without a Config. */
export const DEFAULT_DEPENDENCY_TIMEOUT_SECONDS = 5;
const DEFAULT_READINESS_TIMEOUT_SECONDS = 2;

/** Whether TRUST_PROXY says a proxy stands in front: then every connection comes from it. */
function behindProxy(trusted: boolean | number | string): boolean {
  return trusted !== false && trusted !== 0;
}

/** Kestrel's MinRequestBodyDataRate: 240 bytes/s, measured over 5-second windows. */
const DEFAULT_MINIMUM_BODY_RATE = { bytesPerSecond: 240, windowSeconds: 5 } as const;
/** Per client address, when the server is not behind a proxy (TRUST_PROXY=false). */
const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 100;

const defaultRestPath = (soapPath: string) => `${soapPath}/rest`;
const defaultPlumPath = (soapPath: string) => `${soapPath}/plum`;

const schema = z.object({
  PORT: integer(0, 65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: optionalText,
  PUBLIC_URL: publicUrl,
  TRUST_PROXY: trustProxy.default(false),
  SEED_FILE: optionalText,
  DEFAULT_TIMEZONE: timeZone.default('UTC'),
  WEEK_START: oneOf(WEEK_STARTS).default('monday'),
  MAX_RANGE_DAYS: integer(1, 100_000).default(3660),
  REPORT_CACHE_BYTES: integer(0).default(67_108_864),
  CREDENTIAL_TTL_SECONDS: integer(1).default(86_400),
  PASSWORD_HASH_CONCURRENCY: integer(1, 64).default(1),
  PASSWORD_HASH_QUEUE: integer(0, 100_000).default(64),
  AUTH_RATE_LIMIT: integer(1).default(15),
  DATA_RATE_LIMIT: integer(1).default(150),
  RATE_LIMIT_WINDOW_SECONDS: integer(1, 86_400).default(900),
  STORE: oneOf(['memory', 'postgres']).default('memory'),
  DATABASE_URL: optionalText.pipe(z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional()),
  REDIS_URL: optionalText.pipe(z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional()),
  SOAP_PATH: urlPath.default('/survey'),
  SOAP_MAX_BYTES: integer(1).default(10_485_760),
  SURVEY_HANDLER: optionalText,
  SURVEY_SESSION_TTL_SECONDS: integer(1).default(3600),
  SURVEY_HANDLER_TIMEOUT_SECONDS: integer(1, 3600).default(10),
  SURVEY_REST_PATH: urlPath.optional(),
  SURVEY_PLUM_PATH: urlPath.optional(),
  SURVEY_MAX_SESSIONS: integer(1).default(100_000),
  SURVEY_RATE_LIMIT: integer(1).default(20_000),
  SURVEY_MAX_DEPTH: integer(5, 1000).default(32),
  SURVEY_MAX_ELEMENTS: integer(5).default(10_000),
  SURVEY_MAX_ITEMS: integer(1).default(1000),
  SURVEY_MAX_ATTRIBUTES: integer(6).default(32),
  SURVEY_MAX_TEXT_LENGTH: integer(1).default(10_485_760),
  ADMIN_TOKEN: adminToken,
  ADMIN_RATE_LIMIT: integer(1).default(90_000),
  REQUEST_IDLE_TIMEOUT_SECONDS: integer(1, 3600).default(DEFAULT_REQUEST_IDLE_TIMEOUT_SECONDS),
  MIN_BODY_RATE_BYTES_PER_SECOND: integer(0, 1_000_000_000).default(DEFAULT_MINIMUM_BODY_RATE.bytesPerSecond),
  MIN_BODY_RATE_WINDOW_SECONDS: integer(1, 3600).default(DEFAULT_MINIMUM_BODY_RATE.windowSeconds),
  MAX_CONNECTIONS_PER_ADDRESS: integer(0, 1_000_000).optional(),
  DEPENDENCY_TIMEOUT_SECONDS: integer(1, 600).default(DEFAULT_DEPENDENCY_TIMEOUT_SECONDS),
  METRICS_TOKEN: metricsToken,
  READINESS_TIMEOUT_SECONDS: integer(1, 60).default(DEFAULT_READINESS_TIMEOUT_SECONDS),
  SHUTDOWN_DRAIN_SECONDS: integer(0, 3600).default(0),
}).superRefine((variables, context) => {
  if (variables.STORE === 'postgres' && variables.DATABASE_URL === undefined) {
    context.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: 'is required when STORE=postgres' });
  }
  const restPath = variables.SURVEY_REST_PATH ?? defaultRestPath(variables.SOAP_PATH);
  if (restPath === variables.SOAP_PATH) {
    context.addIssue({ code: 'custom', path: ['SURVEY_REST_PATH'], message: 'must differ from SOAP_PATH' });
  }
  const plumPath = variables.SURVEY_PLUM_PATH ?? defaultPlumPath(variables.SOAP_PATH);
  if (plumPath === variables.SOAP_PATH || plumPath === restPath) {
    context.addIssue({ code: 'custom', path: ['SURVEY_PLUM_PATH'], message: 'must differ from SOAP_PATH and SURVEY_REST_PATH' });
  }
});

type Parsed = z.output<typeof schema>;

/** Every environment variable the server reads. */
export const CONFIG_VARIABLES: readonly string[] = Object.freeze(Object.keys(schema.shape));

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly logLevel: Parsed['LOG_LEVEL'];
  /** NODE_ENV=production: a deployment, where settings left to their development defaults are warned of. */
  readonly production: boolean;
  readonly publicUrl: string | undefined;
  readonly trustProxy: boolean | number | string;
  readonly seedFile: string | undefined;
  readonly defaultTimeZone: string;
  readonly weekStart: WeekStart;
  readonly maxRangeDays: number;
  /** Memory for finished reports kept across requests; 0 keeps none. */
  readonly reportCacheBytes: number;
  readonly credentialTtlSeconds: number;
  /** Tool-password hashes (scrypt) computed at once; further logins wait in line. */
  readonly passwordHashConcurrency: number;
  /** Tool-password hashes waiting for one of those at most; past it a login is refused at once, told to retry. */
  readonly passwordHashQueue: number;
  readonly authRateLimit: number;
  readonly dataRateLimit: number;
  readonly rateLimitWindowSeconds: number;
  readonly store: Parsed['STORE'];
  /** PostgreSQL connection URL; set exactly when the store is postgres. */
  readonly databaseUrl: string | undefined;
  /** Redis connection URL; set: rate-limit counters and survey sessions live there, shared by instances. */
  readonly redisUrl: string | undefined;
  readonly soapPath: string;
  readonly soapMaxBytes: number;
  /** Module path of a custom survey handler, resolved from the working directory; unset: the sample. */
  readonly surveyHandler: string | undefined;
  readonly surveySessionTtlSeconds: number;
  /** How long SURVEY_HANDLER's function may take before the call gets a soap:Server fault. */
  readonly surveyHandlerTimeoutSeconds: number;
  /** Path of the service's REST twin (multipart form posts); SOAP_PATH + /rest unless set. */
  readonly surveyRestPath: string;
  /** Path of the plumEval SOAP service and its WSDL; SOAP_PATH + /plum unless set. */
  readonly surveyPlumPath: string;
  /** Live survey sessions kept at most; beyond it the longest idle is forgotten first. */
  readonly surveyMaxSessions: number;
  /** svcEval calls (SOAP and REST) per client address and rate-limit window. */
  readonly surveyRateLimit: number;
  readonly surveyMessageLimits: SurveyMessageLimits;
  /** Bearer token of the admin API; unset: the admin API is off (every /admin path is 404). */
  readonly adminToken: string | undefined;
  readonly adminRateLimit: number;
  /**
   * How long a connection may send nothing while its request's headers or body are still arriving;
   * then it gets a 400 and is closed. A long upload that keeps sending is never cut.
   */
  readonly requestIdleTimeoutSeconds: number;
  /**
   * The least rate of a request body, on average over each window: a body that brings less in a window
   * is answered 408 (400 on the reporting API) and its connection closed. 0 bytes/s: no least rate.
   */
  readonly minimumBodyRate: { readonly bytesPerSecond: number; readonly windowSeconds: number };
  /**
   * Connections open at once from one client address; past it a new one gets a 429 and is closed. 0: no
   * cap. Unset: 100, or no cap behind a proxy (TRUST_PROXY set), where every connection is the proxy's.
   */
  readonly maxConnectionsPerAddress: number;
  /** The bound on every wait for PostgreSQL or Redis (connecting, a query, a command): then a 500. */
  readonly dependencyTimeoutSeconds: number;
  /** Bearer token of GET /metrics; unset: the metrics are open to whoever reaches the server. */
  readonly metricsToken: string | undefined;
  /** How long GET /readyz waits for each dependency's answer before it reports it unavailable (503). */
  readonly readinessTimeoutSeconds: number;
  /**
   * How long the server keeps serving after SIGTERM or SIGINT while GET /readyz answers 503, before it
   * stops accepting and finishes the requests in flight; a second signal ends the wait.
   */
  readonly shutdownDrainSeconds: number;
}

/**
 * Bounds on one svcEval message, enforced while it is read: a page has tens of questions, not
 * thousands, and a recording is one long text.
 */
export interface SurveyMessageLimits {
  /** Elements nested in each other, the envelope counting as one. */
  readonly maxDepth: number;
  /** Elements in the whole message. */
  readonly maxElements: number;
  /** Items of one array part (question_texts, answers). */
  readonly maxItems: number;
  /** Attributes, namespace declarations included, of one element. */
  readonly maxAttributes: number;
  /** Characters of one text: an item, an optional part or a form field. */
  readonly maxTextLength: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * The only place that reads the environment. Unset and empty variables take their defaults, so an
 * `.env` copied from `.env.example` with blanks behaves like no `.env` at all.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = parseVariables(schema, env);
  return Object.freeze({
    port: parsed.PORT,
    host: parsed.HOST,
    logLevel: parsed.LOG_LEVEL,
    production: parsed.NODE_ENV === 'production',
    publicUrl: parsed.PUBLIC_URL?.replace(/\/+$/, ''),
    trustProxy: parsed.TRUST_PROXY,
    seedFile: parsed.SEED_FILE,
    defaultTimeZone: parsed.DEFAULT_TIMEZONE,
    weekStart: parsed.WEEK_START,
    maxRangeDays: parsed.MAX_RANGE_DAYS,
    reportCacheBytes: parsed.REPORT_CACHE_BYTES,
    credentialTtlSeconds: parsed.CREDENTIAL_TTL_SECONDS,
    passwordHashConcurrency: parsed.PASSWORD_HASH_CONCURRENCY,
    passwordHashQueue: parsed.PASSWORD_HASH_QUEUE,
    authRateLimit: parsed.AUTH_RATE_LIMIT,
    dataRateLimit: parsed.DATA_RATE_LIMIT,
    rateLimitWindowSeconds: parsed.RATE_LIMIT_WINDOW_SECONDS,
    store: parsed.STORE,
    databaseUrl: parsed.DATABASE_URL,
    redisUrl: parsed.REDIS_URL,
    soapPath: parsed.SOAP_PATH,
    soapMaxBytes: parsed.SOAP_MAX_BYTES,
    surveyHandler: parsed.SURVEY_HANDLER,
    surveySessionTtlSeconds: parsed.SURVEY_SESSION_TTL_SECONDS,
    surveyHandlerTimeoutSeconds: parsed.SURVEY_HANDLER_TIMEOUT_SECONDS,
    surveyRestPath: parsed.SURVEY_REST_PATH ?? defaultRestPath(parsed.SOAP_PATH),
    surveyPlumPath: parsed.SURVEY_PLUM_PATH ?? defaultPlumPath(parsed.SOAP_PATH),
    surveyMaxSessions: parsed.SURVEY_MAX_SESSIONS,
    surveyRateLimit: parsed.SURVEY_RATE_LIMIT,
    surveyMessageLimits: Object.freeze({
      maxDepth: parsed.SURVEY_MAX_DEPTH,
      maxElements: parsed.SURVEY_MAX_ELEMENTS,
      maxItems: parsed.SURVEY_MAX_ITEMS,
      maxAttributes: parsed.SURVEY_MAX_ATTRIBUTES,
      maxTextLength: parsed.SURVEY_MAX_TEXT_LENGTH,
    }),
    adminToken: parsed.ADMIN_TOKEN,
    adminRateLimit: parsed.ADMIN_RATE_LIMIT,
    requestIdleTimeoutSeconds: parsed.REQUEST_IDLE_TIMEOUT_SECONDS,
    minimumBodyRate: { bytesPerSecond: parsed.MIN_BODY_RATE_BYTES_PER_SECOND, windowSeconds: parsed.MIN_BODY_RATE_WINDOW_SECONDS },
    maxConnectionsPerAddress: parsed.MAX_CONNECTIONS_PER_ADDRESS ?? (behindProxy(parsed.TRUST_PROXY) ? 0 : DEFAULT_MAX_CONNECTIONS_PER_ADDRESS),
    dependencyTimeoutSeconds: parsed.DEPENDENCY_TIMEOUT_SECONDS,
    metricsToken: parsed.METRICS_TOKEN,
    readinessTimeoutSeconds: parsed.READINESS_TIMEOUT_SECONDS,
    shutdownDrainSeconds: parsed.SHUTDOWN_DRAIN_SECONDS,
  });
}

function parseVariables<Shape extends z.ZodRawShape>(
  variables: z.ZodObject<Shape>,
  env: NodeJS.ProcessEnv,
): z.output<z.ZodObject<Shape>> {
  const present = Object.fromEntries(
    Object.keys(variables.shape)
      .map((name) => [name, env[name]] as const)
      .filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const result = variables.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      const value = present[name];
      return value === undefined ? `${name} ${issue.message}` : `${shownVariable(name, value)}: ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  return result.data;
}

/** Secrets a message names but never repeats: start-up errors end up in terminals, logs and tickets. */
const SECRET_VARIABLES: ReadonlySet<string> = new Set(['ADMIN_TOKEN', 'METRICS_TOKEN']);

/** The variable as a message shows it: its value, but never a secret's, nor the password of a URL's user. */
function shownVariable(name: string, value: string): string {
  if (SECRET_VARIABLES.has(name)) return `${name} (value not shown)`;
  return `${name}=${JSON.stringify(value.replace(/(\/\/[^/?#@:]*:)[^/?#@]*@/, '$1***@'))}`;
}

const cliSchema = z.object({ PUBLIC_URL: publicUrl, ADMIN_TOKEN: adminToken });

/** Where the command-line tool finds a running server, unless its --url and --token say otherwise. */
export interface CliConfig {
  /** PUBLIC_URL, else the server's default address. */
  readonly serverUrl: string;
  readonly adminToken: string | undefined;
}

const DEFAULT_SERVER_URL = 'http://127.0.0.1:3000';

/** The command-line tool's view of the environment: only what it needs, so an unrelated bad variable does not stop it. */
export function loadCliConfig(env: NodeJS.ProcessEnv): CliConfig {
  const parsed = parseVariables(cliSchema, env);
  return Object.freeze({
    serverUrl: parsed.PUBLIC_URL?.replace(/\/+$/, '') ?? DEFAULT_SERVER_URL,
    adminToken: parsed.ADMIN_TOKEN,
  });
}

/**
 * Settings that work but are likely a mistake where they are: said at start, on the banner and in the
 * log, without stopping it.
 */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.production && config.publicUrl === undefined) {
    warnings.push(
      "NODE_ENV=production without PUBLIC_URL: the survey service's WSDL takes its address from each request's Host header; " +
        'set PUBLIC_URL to the address survey systems reach',
    );
  }
  return warnings;
}
