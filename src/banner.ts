import { answers, type SurveyServiceSettings } from './survey/services/survey-service';
import { configWarnings, type Config } from './configuration';
import type { DemoAccount } from './startup-data/demo/demo-account';
import type { SeedFileSummary } from './startup-data/seed-file';

/** The banner's last line: whoever reads the banner (a person, a test) knows it is whole. */
export const BANNER_END = 'Stop with Ctrl+C.';

/** The raw-data resources besides the event tracker, named so a reader knows they are there. */
const OTHER_RESOURCES = ['/api/volume', '/api/performance', '/api/profile', '/api/path'] as const;

function demoLines(base: string, demo: DemoAccount): string[] {
  const authCommand = `curl -s -X POST ${base}/api/auth -d tool=${demo.tool} -d login=${demo.login} -d password=${demo.password}`;
  const lastWeek = `${base}/api/events/${demo.lastWeek.start}/${demo.lastWeek.end}/day/ALL`;
  // The answer is {"login":"...","password":"..."} in that order: sed makes it curl's LOGIN:PASSWORD.
  const toBasicCredentials = `sed -E 's/.*"login":"([0-9a-f]+)","password":"([0-9a-f]+)".*/\\1:\\2/'`;
  return [
    `Demo account: tool=${demo.tool} login=${demo.login} password=${demo.password} (numbers ${demo.phones.join(', ')}, time zone ${demo.timeZone})`,
    '',
    'Get temporary credentials:',
    `  ${authCommand}`,
    '',
    'Then ask for the last week by day, with the login and password it returned:',
    `  curl -s -u LOGIN:PASSWORD ${lastWeek}`,
    '',
    'Or both in one command:',
    `  curl -s -u "$(${authCommand} | ${toBasicCredentials})" ${lastWeek}`,
    '',
    `The same credentials and dates work for ${OTHER_RESOURCES.map((path) => `${base}${path}`).join(', ')}`,
    '(geographic is profile without the period, and path has none either: .../{start}/{end}/{phone}).',
    '',
  ];
}

/** What was loaded at start: the demo data, or a seed file's summary; and what the stored data call for. */
export interface LoadedData {
  readonly demo: DemoAccount | undefined;
  readonly seed: SeedFileSummary | undefined;
  readonly dataWarnings?: readonly string[];
}

const counted = (count: number, one: string, many: string) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

function sharedStateLine(config: Config): string {
  if (config.storage.redisUrl !== undefined) return 'Rate limits and survey sessions: Redis (REDIS_URL), shared by every instance';
  if (config.storage.store === 'postgres') return 'Rate limits and survey sessions: PostgreSQL, shared by every instance (REDIS_URL moves them to Redis)';
  return 'Rate limits and survey sessions: in this process';
}

function seedLine(config: Config, seed: SeedFileSummary): string {
  return (
    `Seed file ${config.startupData.seedFile ?? ''}: ${counted(seed.accounts, 'account', 'accounts')}, ${counted(seed.phones, 'number', 'numbers')}, ` +
    `${counted(seed.calls, 'call', 'calls')} stored (${counted(seed.duplicates, 'duplicate', 'duplicates')})`
  );
}

/** Where a survey service's clients find it, and its logic; named when there are several. */
function surveyServiceLines(base: string, service: SurveyServiceSettings, named: boolean): string[] {
  const label = named ? `Survey web service ${service.name}` : 'Survey web service';
  const wsdls = [
    ...(answers(service, 'plumEval') ? [`${base}${service.plumPath}?wsdl (plumEval)`] : []),
    ...(answers(service, 'svcEval') ? [`${base}${service.soapPath}?wsdl (svcEval)`] : []),
  ];
  return [
    ...(wsdls.length === 0 ? [] : [`${label} WSDL: ${wsdls.join(', ')}`]),
    ...(answers(service, 'rest') && named ? [`${label} REST: ${base}${service.restPath}`] : []),
    `${named ? `${label} handler` : 'Survey handler'}: ${service.handler?.file ?? "the sample state table ('accepted', 'accepted again', 'rejected')"}`,
  ];
}

/**
 * What a person starting the server reads: where it listens, on which store and where the shared state
 * lives, the dashboard, the API reference, the survey service's WSDL and handler, whether the admin API
 * is on, what a seed file brought, the settings likely mistaken where they are (the demo data in
 * production among them), a demo account left with its published password, and with the demo data, its
 * credentials and curl commands that work as printed. It goes to standard error, apart from the JSON logs on standard output.
 */
export function banner(url: string, config: Config, { demo, seed, dataWarnings = [] }: LoadedData): string {
  const base = config.server.publicUrl ?? url;
  const store = config.storage.store === 'postgres' ? 'PostgreSQL' : 'in-memory';
  return [
    `IVR reporting server listening on ${url} (${store} store${demo === undefined ? '' : ' with demo data'})`,
    sharedStateLine(config),
    `Dashboard: ${base}/`,
    `API reference: ${base}/docs (OpenAPI document: ${base}/openapi.json)`,
    ...config.survey.services.flatMap((service) => surveyServiceLines(base, service, config.survey.servicesFile !== undefined)),
    config.admin.token === undefined
      ? 'Admin API: off (set ADMIN_TOKEN to turn it on)'
      : `Admin API: on at ${base}/admin (Bearer ADMIN_TOKEN)${config.sandbox.inspectCalls > 0 ? `; survey calls in the call inspector at ${base}/inspector` : ''}`,
    config.sandbox.movableClock
      ? `Clock: movable (SANDBOX_CLOCK): POST ${base}/admin/clock {"advance_seconds": n} moves it forward`
      : "Clock: the system's (SANDBOX_CLOCK=true lets the admin API move it forward)",
    ...(seed === undefined ? [] : [seedLine(config, seed)]),
    ...[...configWarnings(config), ...dataWarnings].map((warning) => `Warning: ${warning}`),
    '',
    ...(demo === undefined ? [] : demoLines(url, demo)),
    BANNER_END,
    '',
  ].join('\n');
}
