import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Config } from '../configuration';
import { ADMIN_TAG, registerAdminOperations } from '../admin/openapi';
import { ADMIN_REALM } from '../admin/admin-token';
import { REALM } from '../accounts/authenticated-account';
import { SESSION_COOKIE } from '../survey/sessions/session-cookie';
import { attachExamples } from './attach-examples';
import { jsonOnly, registerSharedComponents } from '../http/openapi/components';
import { exampleDay, exampleExchanges } from './examples';
import { MONITORING_TAG, registerMonitoringOperations } from '../operations/openapi';
import { RAW_DATA_TAG, registerReportingOperations } from '../reporting/openapi';
import { AUTHENTICATION_TAG } from '../reporting/auth/openapi';
import { wsdlPaths } from '../survey/services/survey-service';
import { registerSurveyOperations, SURVEY_TAG, surveyExampleOperations, wsdlAddress, type DescribedSurveys } from '../survey/openapi';

export const OPENAPI_PATH = '/openapi.json';
export const REFERENCE_TAG = 'API reference';

/** What the document says of this server's configuration: the tokens only as set or not. */
function describedSettings(config: Config) {
  return {
    publicUrl: config.server.publicUrl,
    adminApi: config.admin.token !== undefined,
    metricsBehindToken: config.operations.metricsToken !== undefined,
    rateLimits: config.rateLimits,
    reporting: { maxRangeDays: config.reporting.maxRangeDays, credentialTtlSeconds: config.reporting.credentialTtlSeconds },
    survey: {
      services: config.survey.services,
      named: config.survey.servicesFile !== undefined,
      maxBytes: config.survey.maxBytes,
      messageLimits: config.survey.messageLimits,
    } satisfies DescribedSurveys,
  };
}

type DescribedSettings = ReturnType<typeof describedSettings>;

export type ApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** src/openapi and dist/openapi are both two folders below package.json. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;
}

function wsdlLink(publicUrl: string | undefined, path: string): string {
  const address = wsdlAddress(publicUrl, path);
  return `[${address}](${address})`;
}

function introduction({ adminApi, publicUrl, survey }: DescribedSettings): string {
  return [
    'The reporting API of a hosted IVR platform, its raw-data resources, the admin API and the survey web service, as this server serves them.',
    '',
    '1. `POST /api/auth` with a tool account\'s login and password returns a temporary login and password.',
    '2. Send those as HTTP Basic credentials to the raw-data resources (the page at /docs does so after a successful `POST /api/auth`).',
    '',
    'Every answer is JSON, or XML when `Accept` prefers `application/xml`; errors are `{"error": "..."}` or `<result><error>...</error></result>`.',
    'A method a path does not serve is a 405 with `Allow`; an unknown path a 404.',
    '',
    !adminApi
      ? 'The admin API is off on this server (it exists only when `ADMIN_TOKEN` is set), so it is not listed here.'
      : 'The admin API takes the server\'s `ADMIN_TOKEN` as a Bearer token.',
    '',
    ...survey.services.map((service) => {
      const links = wsdlPaths(service).map(({ path, flavour }) => `${wsdlLink(publicUrl, path)} for ${flavour}`);
      const whose = survey.named ? `The survey service ${service.name}'s contract` : "The survey web service's contract";
      return links.length === 0 ? `${whose} is its form post at ${service.restPath}.` : `${whose} is its WSDL: ${links.join(', ')}.`;
    }),
  ].join('\n');
}

/** Documents already built, by what they describe and the day of their examples: building one takes milliseconds, and tests build an app each. */
const builtDocuments = new Map<string, ApiDocument>();
const MOST_DOCUMENTS_KEPT = 16;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const property of Object.values(value)) deepFreeze(property);
  }
  return value;
}

/**
 * The OpenAPI 3.1 document of this server, generated from the zod schemas that its routes validate
 * requests with and that describe its answers, with the example session on the days before `now`'s
 * attached. Built once per configuration it describes and day, and frozen, since every app of that
 * configuration started that day shares it.
 */
export function apiDocument(config: Config, now: number): ApiDocument {
  const described = describedSettings(config);
  const key = JSON.stringify([exampleDay(now), described]);
  let document = builtDocuments.get(key);
  if (document === undefined) {
    if (builtDocuments.size >= MOST_DOCUMENTS_KEPT) builtDocuments.clear();
    document = deepFreeze(buildDocument(described, now));
    builtDocuments.set(key, document);
  }
  return document;
}

/** The survey tag's link: the first service's WSDL, svcEval's or else plumEval's. */
function tagWsdl(publicUrl: string | undefined, survey: DescribedSurveys): { externalDocs?: { url: string; description: string } } {
  const [first] = survey.services.flatMap(wsdlPaths);
  return first === undefined ? {} : { externalDocs: { url: wsdlAddress(publicUrl, first.path), description: `The WSDL of ${first.flavour}: the contract of the SOAP service` } };
}

function buildDocument(described: DescribedSettings, now: number): ApiDocument {
  const { adminApi, publicUrl, rateLimits, survey } = described;
  const registry = new OpenAPIRegistry();
  const headers = registerSharedComponents(registry, { basicRealm: REALM, adminRealm: adminApi ? ADMIN_REALM : undefined, sessionCookie: SESSION_COOKIE });
  registerReportingOperations(registry, headers, { rateLimits, reporting: described.reporting });
  if (adminApi) registerAdminOperations(registry, headers, rateLimits);
  registerSurveyOperations(registry, headers, { publicUrl, rateLimits, survey });
  registerMonitoringOperations(registry, described);
  registry.registerPath({
    method: 'get',
    path: OPENAPI_PATH,
    operationId: 'getOpenApiDocument',
    tags: [REFERENCE_TAG],
    summary: 'This document',
    security: [],
    responses: {
      200: { description: 'The OpenAPI 3.1 document', content: jsonOnly(z.looseObject({ openapi: z.string() }).meta({ id: 'OpenApiDocument' })) },
    },
  });

  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'IVR reporting server', version: packageVersion(), description: introduction(described) },
    servers: [{ url: publicUrl ?? '/', description: publicUrl === undefined ? 'This server' : 'PUBLIC_URL' }],
    tags: [
      { name: AUTHENTICATION_TAG, description: 'Temporary credentials for the raw-data resources' },
      { name: RAW_DATA_TAG, description: 'The reports, behind HTTP Basic with the temporary credentials' },
      ...(adminApi ? [{ name: ADMIN_TAG, description: 'Accounts, their numbers and call records, behind the admin token' }] : []),
      {
        name: SURVEY_TAG,
        description: 'svcEval and plumEval over SOAP 1.1, and as a form post',
        ...tagWsdl(publicUrl, survey),
      },
      { name: MONITORING_TAG, description: 'The probes of a load balancer and the metrics of Prometheus' },
      { name: REFERENCE_TAG, description: 'This document; the page at /docs renders it' },
    ],
  });
  attachExamples(document, exampleExchanges(adminApi, now, surveyExampleOperations(survey)));
  return document;
}
