import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Config } from '../config/config';
import { ADMIN_TAG, registerAdminOperations } from './admin-operations';
import { attachExamples } from './attach-examples';
import { jsonOnly, registerSharedComponents } from './components';
import { exampleDay, exampleExchanges } from './examples';
import { MONITORING_TAG, registerMonitoringOperations } from './monitoring-operations';
import { AUTHENTICATION_TAG, RAW_DATA_TAG, registerReportingOperations } from './reporting-operations';
import { registerSurveyOperations, SURVEY_TAG, wsdlAddress } from './survey-operations';

export const OPENAPI_PATH = '/openapi.json';
export const REFERENCE_TAG = 'API reference';

const DOCUMENTED_SETTINGS = [
  'publicUrl',
  'adminToken',
  'authRateLimit',
  'dataRateLimit',
  'adminRateLimit',
  'surveyRateLimit',
  'rateLimitWindowSeconds',
  'maxRangeDays',
  'credentialTtlSeconds',
  'soapPath',
  'surveyRestPath',
  'surveyPlumPath',
  'soapMaxBytes',
  'surveyMessageLimits',
  'metricsToken',
] as const satisfies ReadonlyArray<keyof Config>;

/** What the document describes of this server's configuration. */
export type DocumentedConfig = Pick<Config, (typeof DOCUMENTED_SETTINGS)[number]>;

export type ApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** src/openapi and dist/openapi are both two folders below package.json. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;
}

function introduction(config: DocumentedConfig): string {
  return [
    'The reporting API of a hosted IVR platform, its raw-data resources, the admin API and the survey web service, as this server serves them.',
    '',
    '1. `POST /api/auth` with a tool account\'s login and password returns a temporary login and password.',
    '2. Send those as HTTP Basic credentials to the raw-data resources (the page at /docs does so after a successful `POST /api/auth`).',
    '',
    'Every answer is JSON, or XML when `Accept` prefers `application/xml`; errors are `{"error": "..."}` or `<result><error>...</error></result>`.',
    'A method a path does not serve is a 405 with `Allow`; an unknown path a 404.',
    '',
    config.adminToken === undefined
      ? 'The admin API is off on this server (it exists only when `ADMIN_TOKEN` is set), so it is not listed here.'
      : 'The admin API takes the server\'s `ADMIN_TOKEN` as a Bearer token.',
    '',
    `The survey web service's contract is its WSDL: [${wsdlAddress(config, config.soapPath)}](${wsdlAddress(config, config.soapPath)}) for svcEval, ` +
      `[${wsdlAddress(config, config.surveyPlumPath)}](${wsdlAddress(config, config.surveyPlumPath)}) for plumEval.`,
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
export function apiDocument(config: DocumentedConfig, now: number): ApiDocument {
  // The tokens' values are not described, only whether they are set.
  const key = JSON.stringify([
    exampleDay(now),
    ...DOCUMENTED_SETTINGS.map((setting) => (setting === 'adminToken' || setting === 'metricsToken' ? config[setting] !== undefined : config[setting])),
  ]);
  let document = builtDocuments.get(key);
  if (document === undefined) {
    if (builtDocuments.size >= MOST_DOCUMENTS_KEPT) builtDocuments.clear();
    document = deepFreeze(buildDocument(config, now));
    builtDocuments.set(key, document);
  }
  return document;
}

function buildDocument(config: DocumentedConfig, now: number): ApiDocument {
  const adminApi = config.adminToken !== undefined;
  const registry = new OpenAPIRegistry();
  const headers = registerSharedComponents(registry, adminApi);
  registerReportingOperations(registry, headers, config);
  if (adminApi) registerAdminOperations(registry, headers, config);
  registerSurveyOperations(registry, headers, config);
  registerMonitoringOperations(registry, config);
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
    info: { title: 'IVR reporting server', version: packageVersion(), description: introduction(config) },
    servers: [{ url: config.publicUrl ?? '/', description: config.publicUrl === undefined ? 'This server' : 'PUBLIC_URL' }],
    tags: [
      { name: AUTHENTICATION_TAG, description: 'Temporary credentials for the raw-data resources' },
      { name: RAW_DATA_TAG, description: 'The reports, behind HTTP Basic with the temporary credentials' },
      ...(adminApi ? [{ name: ADMIN_TAG, description: 'Accounts, their numbers and call records, behind the admin token' }] : []),
      {
        name: SURVEY_TAG,
        description: 'svcEval and plumEval over SOAP 1.1, and as a form post',
        externalDocs: { url: wsdlAddress(config, config.soapPath), description: 'The WSDL of svcEval: the contract of the SOAP service' },
      },
      { name: MONITORING_TAG, description: 'The probes of a load balancer and the metrics of Prometheus' },
      { name: REFERENCE_TAG, description: 'This document; the page at /docs renders it' },
    ],
  });
  attachExamples(document, exampleExchanges(adminApi, now));
  return document;
}
