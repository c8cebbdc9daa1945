import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Express } from 'express';
import request from 'supertest';
import { apiDocument, type ApiDocument } from '../../src/openapi/document';
import type { ExampleExchange } from '../../src/http/openapi/examples';
import { basic } from './http';
import type { TestApp } from './test-app';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

type Json = Record<string, unknown>;

/** The document an app serves: that of its configuration, with the examples of its clock's day. */
export function documentOf({ config, clock }: TestApp): ApiDocument {
  return apiDocument(config, clock.now());
}

/** An operation of the document, with where it lives. */
export interface DocumentedOperation {
  readonly path: string;
  readonly method: string;
  readonly operation: Json;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export function documentedOperations(document: ApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({ path, method, operation: operation as Json })),
  );
}

export function operationById(document: ApiDocument, operationId: string): DocumentedOperation {
  const found = documentedOperations(document).find(({ operation }) => operation.operationId === operationId);
  if (found === undefined) throw new Error(`no operation ${operationId}`);
  return found;
}

/** The routes an Express app serves, read from its routers as `METHOD /path/{param}` (HEAD answered by GET, `.all` left out). */
export function servedRoutes(app: Express): string[] {
  interface Layer {
    rawPath?: unknown;
    route?: { path: string; methods: Record<string, boolean> };
    handle?: { stack?: Layer[] };
  }
  const routes: string[] = [];
  const walk = (stack: readonly Layer[], prefix: string): void => {
    for (const layer of stack) {
      if (layer.route !== undefined) {
        for (const method of Object.keys(layer.route.methods).filter((name) => name !== '_all')) {
          // A route at the mount path of its router ('/' under '/metrics') is the mount path itself.
          const joined = `${prefix}${layer.route.path}`;
          const full = joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
          routes.push(`${method.toUpperCase()} ${full.replace(/:(\w+)/g, '{$1}')}`);
        }
      } else if (layer.handle?.stack !== undefined) {
        walk(layer.handle.stack, layer.rawPath === '/' ? prefix : `${prefix}${String(layer.rawPath)}`);
      }
    }
  };
  walk((app.router as unknown as { stack: Layer[] }).stack, '');
  return routes.sort();
}

export interface ValidationResult {
  readonly valid: boolean;
  readonly version?: string;
  readonly errors?: unknown;
}

const execFileAsync = promisify(execFile);
const validatorModule = require.resolve('@seriousme/openapi-schema-validator');

/**
 * @seriousme/openapi-schema-validator is an ES module, which jest's CommonJS runtime cannot load: it
 * runs in a Node process of its own, on the document written to a file.
 */
export async function validateOpenApi(document: ApiDocument): Promise<ValidationResult> {
  const folder = mkdtempSync(path.join(tmpdir(), 'openapi-'));
  try {
    const file = path.join(folder, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const script =
      `import { Validator } from ${JSON.stringify(pathToFileURL(validatorModule).href)};` +
      'const validator = new Validator();' +
      'const result = await validator.validate(process.argv[1]);' +
      'process.stdout.write(JSON.stringify({ ...result, version: validator.version }));';
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '--eval', script, file]);
    return JSON.parse(stdout) as ValidationResult;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

interface Ajv {
  addSchema(schema: object, key: string): void;
  compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown };
}
type AjvConstructor = new (options: object) => Ajv;

/** The validator package's own ajv (draft 2020-12, the dialect of OpenAPI 3.1), as it resolves it. */
const Ajv2020 = (createRequire(validatorModule)('ajv/dist/2020') as { default: AjvConstructor }).default;

const pointerPart = (part: string): string => part.replace(/~/g, '~0').replace(/\//g, '~1');

/** Validates values against the schemas of a document, `$ref`s and all, as a client reading it would. */
export function documentSchemas(document: ApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(document, 'openapi.json');
  return {
    /** The schema of an answer of an operation: its status, its media type. */
    response(operation: DocumentedOperation, status: number, mediaType: string) {
      const pointer = ['paths', operation.path, operation.method, 'responses', String(status), 'content', mediaType, 'schema'];
      return ajv.compile({ $ref: `openapi.json#/${pointer.map(pointerPart).join('/')}` });
    },
    /** The schema of an operation's request body in a media type. */
    request(operation: DocumentedOperation, mediaType: string) {
      const pointer = ['paths', operation.path, operation.method, 'requestBody', 'content', mediaType, 'schema'];
      return ajv.compile({ $ref: `openapi.json#/${pointer.map(pointerPart).join('/')}` });
    },
    /** A schema of the document's own, such as a header's. */
    of(schema: object) {
      return ajv.compile(schema);
    },
  };
}

/** A `$ref` of the document resolved to what it points at. */
export function resolved(document: ApiDocument, value: unknown): unknown {
  const ref = (value as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string') return value;
  const target = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  return resolved(document, target);
}

export interface LiveAnswer {
  readonly status: number;
  /** The Content-Type without its parameters. */
  readonly mediaType: string | undefined;
  readonly headers: Headers;
  readonly text: string;
}

export interface Credentials {
  readonly login: string;
  readonly password: string;
}

function encodedBody(mediaType: string, value: unknown): string {
  if (mediaType === 'application/json') return JSON.stringify(value);
  if (mediaType === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams();
    for (const [name, field] of Object.entries(value as Record<string, string | string[]>)) {
      for (const item of Array.isArray(field) ? field : [field]) form.append(name, item);
    }
    return form.toString();
  }
  return value as string;
}

/**
 * Sends an exchange's request as a client following the document would: its path values in the
 * operation's path, Accept for the answer's media type, its body in its media type, and the credentials
 * of the operation's security scheme (unless the exchange goes without).
 */
export async function send(baseUrl: string, document: ApiDocument, exchange: ExampleExchange, credentials?: Credentials): Promise<LiveAnswer> {
  const { path: template, method, operation } = operationById(document, exchange.operationId);
  const url = template.replace(/\{(\w+)\}/g, (whole, name: string) => encodeURIComponent(exchange.params?.[name] ?? whole));
  const headers: Record<string, string> = { Accept: exchange.response.mediaType ?? '*/*', ...exchange.headers };
  const scheme = Object.keys((operation.security as Json[] | undefined)?.[0] ?? {})[0];
  if (exchange.withoutCredentials !== true && scheme === 'basicAuth') {
    if (credentials === undefined) throw new Error(`${exchange.operationId} (${exchange.name}) needs the credentials of POST /api/auth`);
    headers.Authorization = basic(credentials.login, credentials.password);
  }
  if (exchange.withoutCredentials !== true && scheme === 'bearerAuth') headers.Authorization = `Bearer ${ADMIN_TOKEN}`;
  if (exchange.body !== undefined) headers['Content-Type'] = exchange.body.mediaType;
  const body = exchange.body === undefined ? undefined : encodedBody(exchange.body.mediaType, exchange.body.value);
  // supertest rather than fetch, which would add Cache-Control: no-cache to a request with If-None-Match.
  const response = await request(baseUrl)[method as 'get'](url).set(headers).send(body);
  const answered = new Headers(response.headers);
  return { status: response.status, mediaType: answered.get('content-type')?.split(';')[0]?.trim(), headers: answered, text: response.text };
}

/** The answer's body as an exchange writes it: parsed JSON, the text, or undefined for none. */
export function bodyOf(answer: LiveAnswer): unknown {
  if (answer.text === '') return undefined;
  return answer.mediaType === 'application/json' ? JSON.parse(answer.text) : answer.text;
}

export interface ReplayedExchange {
  readonly exchange: ExampleExchange;
  readonly answer: LiveAnswer;
}

/** The exchanges sent in order, each Basic request with the pair the last successful POST /api/auth returned. */
export async function replay(baseUrl: string, document: ApiDocument, exchanges: readonly ExampleExchange[]): Promise<ReplayedExchange[]> {
  const replayed: ReplayedExchange[] = [];
  let credentials: Credentials | undefined;
  for (const exchange of exchanges) {
    const answer = await send(baseUrl, document, exchange, credentials);
    if (exchange.operationId === 'authenticate' && answer.status === 200) credentials = JSON.parse(answer.text) as Credentials;
    replayed.push({ exchange, answer });
  }
  return replayed;
}
