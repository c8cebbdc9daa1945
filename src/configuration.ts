import { z } from 'zod';
import { accountSettings } from './accounts/settings';
import { adminSettings } from './admin/settings';
import { serverSettings } from './http/settings';
import { operationsSettings } from './operations/settings';
import { rateLimitSettings } from './rate-limit/settings';
import { reportingSettings } from './reporting/settings';
import { retentionSettings } from './retention/settings';
import { sandboxFeaturesOn, sandboxSettings } from './sandbox/settings';
import { startupDataSettings } from './startup-data/settings';
import { storageSettings } from './storage/settings';
import { surveySettings } from './survey/settings';
import { ConfigError } from './config/config-error';
import { strayVariables, strayVariableWarning, type StrayVariable } from './config/stray-variables';
import { bearerToken, publicUrl } from './config/variables';

/**
 * Each feature declares its own settings (the variables it reads, how, and the typed value it gets) in
 * its folder's settings.ts; the configuration is their sum, one group per feature, its type derived from
 * their schemas.
 */
const FEATURE_SETTINGS = {
  server: serverSettings,
  storage: storageSettings,
  startupData: startupDataSettings,
  accounts: accountSettings,
  reporting: reportingSettings,
  rateLimits: rateLimitSettings,
  admin: adminSettings,
  sandbox: sandboxSettings,
  survey: surveySettings,
  operations: operationsSettings,
  retention: retentionSettings,
} as const;

type FeatureSettings = typeof FEATURE_SETTINGS;

export type Config = { readonly [Feature in keyof FeatureSettings]: Readonly<z.output<FeatureSettings[Feature]>> } & {
  /** Variables of the environment that look meant as settings but are none: warned about, never read. */
  readonly strayVariables: readonly StrayVariable[];
};

/** Every environment variable the server reads, once (NODE_ENV decides the server's warnings and the sandbox's defaults). */
export const CONFIG_VARIABLES: readonly string[] = Object.freeze([
  ...new Set(Object.values(FEATURE_SETTINGS).flatMap((settings) => Object.keys(settings.in.shape))),
]);

/**
 * The only place that reads the environment. Unset and empty variables take their defaults, so an
 * `.env` copied from `.env.example` with blanks behaves like no `.env` at all. Every mistake of every
 * feature is named in one ConfigError.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [feature, settings] of Object.entries(FEATURE_SETTINGS)) {
    const parsed = parseVariables(settings, env);
    if (parsed.success) config[feature] = deepFreeze(parsed.data);
    else problems.push(...parsed.problems);
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  config.strayVariables = deepFreeze(strayVariables(env, CONFIG_VARIABLES));
  return Object.freeze(config) as Config;
}

type Parsed<Output> = { readonly success: true; readonly data: Output } | { readonly success: false; readonly problems: string[] };

/** The variables a schema reads, as set in `env` (blank is unset), parsed; its refusals as messages naming each variable. */
function parseVariables<Settings extends z.ZodPipe<z.ZodObject, z.ZodTransform>>(settings: Settings, env: NodeJS.ProcessEnv): Parsed<z.output<Settings>> {
  const present = Object.fromEntries(
    Object.keys(settings.in.shape)
      .map((name) => [name, env[name]] as const)
      .filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const result = settings.safeParse(present);
  if (result.success) return { success: true, data: result.data };
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    const value = present[name];
    return value === undefined ? `${name} ${issue.message}` : `${shownVariable(name, value)}: ${issue.message}`;
  });
  return { success: false, problems };
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}

/** Secrets a message names but never repeats: start-up errors end up in terminals, logs and tickets. */
const SECRET_VARIABLES: ReadonlySet<string> = new Set(['ADMIN_TOKEN', 'METRICS_TOKEN', 'MIRROR_SOURCE_PASSWORD']);

/** The variable as a message shows it: its value, but never a secret's, nor the password of a URL's user. */
function shownVariable(name: string, value: string): string {
  if (SECRET_VARIABLES.has(name)) return `${name} (value not shown)`;
  return `${name}=${JSON.stringify(value.replace(/(\/\/[^/?#@:,]*:)[^/?#@,]*@/g, '$1***@'))}`;
}

const DEFAULT_SERVER_URL = 'http://127.0.0.1:3000';

/** The command-line tool's view of the environment: only what it needs, so an unrelated bad variable does not stop it. */
const cliSettings = z
  .object({ PUBLIC_URL: publicUrl, ADMIN_TOKEN: bearerToken, MIRROR_SOURCE_PASSWORD: z.string().min(1).optional() })
  .transform((variables) => ({
    /** Where the command-line tool finds a running server, unless its --url says otherwise: PUBLIC_URL, else the server's default address. */
    serverUrl: variables.PUBLIC_URL ?? DEFAULT_SERVER_URL,
    adminToken: variables.ADMIN_TOKEN,
    /** `ivr-reporting mirror`'s password at the source, unless its --password says otherwise (kept out of the shell's history). */
    mirrorSourcePassword: variables.MIRROR_SOURCE_PASSWORD,
  }));

export type CliConfig = Readonly<z.output<typeof cliSettings>>;

export function loadCliConfig(env: NodeJS.ProcessEnv): CliConfig {
  const parsed = parseVariables(cliSettings, env);
  if (!parsed.success) throw new ConfigError(`invalid configuration: ${parsed.problems.join('; ')}`);
  return Object.freeze(parsed.data);
}

/**
 * Settings that work but are likely a mistake where they are, and variables that look meant as settings
 * but are none: said at start, on the banner and in the log, without stopping it.
 */
export function configWarnings(config: Config): string[] {
  const warnings = config.strayVariables.map(strayVariableWarning);
  if (config.server.production && config.server.publicUrl === undefined) {
    warnings.push(
      "NODE_ENV=production without PUBLIC_URL: the survey service's WSDL takes its address from each request's Host header; " +
        'set PUBLIC_URL to the address survey systems reach',
    );
  }
  if (config.server.production && config.startupData.demoData && config.startupData.seedFile === undefined) {
    warnings.push(
      'NODE_ENV=production with DEMO_DATA=true: the demo account dev/demo, whose password demo-password is published, ' +
        'is created with its calls when the store lacks it; unset DEMO_DATA unless this server is a sandbox',
    );
  }
  const sandbox = sandboxFeaturesOn(config.sandbox, config.admin.token !== undefined);
  if (config.server.production && sandbox.length > 0) {
    warnings.push(
      `NODE_ENV=production with sandbox features on: ${sandbox.join(', ')}; ` +
        'they are for client authors: unset them unless this server is a sandbox',
    );
  }
  if (config.sandbox.movableClock && config.admin.token === undefined) {
    warnings.push('SANDBOX_CLOCK=true without ADMIN_TOKEN: the clock can be moved only through the admin API, which is off');
  }
  if (config.survey.reload && config.survey.services.every((service) => service.handler === undefined)) {
    warnings.push(
      config.survey.servicesFile === undefined
        ? 'SURVEY_RELOAD=true without SURVEY_HANDLER: the built-in sample has no file to reload'
        : 'SURVEY_RELOAD=true but no service of SURVEY_SERVICES names a handler: the built-in sample has no file to reload',
    );
  }
  return warnings;
}
