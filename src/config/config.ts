import { IANAZone } from 'luxon';
import { z } from 'zod';

const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const timeZone = z
  .string()
  .trim()
  .refine((zone) => IANAZone.isValidZone(zone), 'must be an IANA time zone such as UTC or America/New_York');

const trustProxy = z
  .string()
  .trim()
  .transform((value): boolean | number | string => {
    if (value === 'true') return true;
    if (value === 'false' || value === '') return false;
    if (/^\d+$/.test(value)) return Number(value);
    return value;
  });

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const schema = z.object({
  PORT: integer(0, 65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional()),
  TRUST_PROXY: trustProxy.default(false),
  SEED_FILE: optionalText,
  DEFAULT_TIMEZONE: timeZone.default('UTC'),
  WEEK_START: z.enum(['monday', 'sunday']).default('monday'),
  MAX_RANGE_DAYS: integer(1, 100_000).default(3660),
  CREDENTIAL_TTL_SECONDS: integer(1).default(86_400),
  AUTH_RATE_LIMIT: integer(1).default(15),
  DATA_RATE_LIMIT: integer(1).default(150),
  RATE_LIMIT_WINDOW_SECONDS: integer(1, 86_400).default(900),
  STORE: z.enum(['memory']).default('memory'),
});

type Parsed = z.output<typeof schema>;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly logLevel: Parsed['LOG_LEVEL'];
  readonly publicUrl: string | undefined;
  readonly trustProxy: boolean | number | string;
  readonly seedFile: string | undefined;
  readonly defaultTimeZone: string;
  readonly weekStart: Parsed['WEEK_START'];
  readonly maxRangeDays: number;
  readonly credentialTtlSeconds: number;
  readonly authRateLimit: number;
  readonly dataRateLimit: number;
  readonly rateLimitWindowSeconds: number;
  readonly store: Parsed['STORE'];
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * The only place that reads the environment. Unset and empty variables take their defaults, so an
 * `.env` copied from `.env.example` with blanks behaves like no `.env` at all.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const present = Object.fromEntries(
    Object.keys(schema.shape)
      .map((name) => [name, env[name]] as const)
      .filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const result = schema.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name}=${JSON.stringify(env[name])}: ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const parsed = result.data;
  return Object.freeze({
    port: parsed.PORT,
    host: parsed.HOST,
    logLevel: parsed.LOG_LEVEL,
    publicUrl: parsed.PUBLIC_URL?.replace(/\/+$/, ''),
    trustProxy: parsed.TRUST_PROXY,
    seedFile: parsed.SEED_FILE,
    defaultTimeZone: parsed.DEFAULT_TIMEZONE,
    weekStart: parsed.WEEK_START,
    maxRangeDays: parsed.MAX_RANGE_DAYS,
    credentialTtlSeconds: parsed.CREDENTIAL_TTL_SECONDS,
    authRateLimit: parsed.AUTH_RATE_LIMIT,
    dataRateLimit: parsed.DATA_RATE_LIMIT,
    rateLimitWindowSeconds: parsed.RATE_LIMIT_WINDOW_SECONDS,
    store: parsed.STORE,
  });
}
