import fc from 'fast-check';
import request from 'supertest';
import type { ApiDocument } from '../../src/openapi/document';
import type { RunningServer } from '../../src/listen';
import { documentedOperations, documentSchemas, operationById, resolved, type DocumentedOperation } from '../support/openapi';
import { authenticate, type Credentials } from '../support/reporting';
import { basic, serve } from '../support/http';
import { addAccount, buildTestApp, LIMITS_OUT_OF_REACH } from '../support/test-app';
import { invalidValue, validValue, type JsonSchema } from './schema-arbitraries';

/*
 * The OpenAPI document says exactly what the server takes: requests generated from each operation's
 * schemas are never refused as malformed (positive cases), and requests that break one constraint of
 * them are refused with 400 (negative cases). A few rules span several values, which a schema cannot
 * state; the document says each in words beside its 400, and `RULES_BEYOND_THE_SCHEMA` below follows
 * those words when it completes a positive case. `npm test` runs CONFORMANCE_RUNS cases of each kind and
 * operation from a fixed seed; `npm run fuzz` runs more from a new seed (FUZZ_SEED=random), shown in the
 * test's name; FUZZ_SEED=<that number> replays it.
 */
const RUNS = Number(process.env.CONFORMANCE_RUNS ?? (process.env.FUZZ_RUNS === undefined ? 30 : Math.ceil(Number(process.env.FUZZ_RUNS) / 20)));
const SEED = process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20_261_125);
const PER_CASE_BUDGET_MS = 400;

const ADMIN_TOKEN = 'conformance-admin-token-0123456789';
const PHONES = ['15550001', '18005550100'];
const MAX_RANGE_DAYS = 400;
/** Small bounds, so that requests just past them stay small. */
const SURVEY_MAX_ITEMS = 4;
const SURVEY_MAX_TEXT_LENGTH = 40;
const KNOWN_TIME_ZONES = ['UTC', 'America/New_York', 'Europe/Paris', 'Asia/Kolkata', 'Australia/Lord_Howe'];
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const MULTIPART = 'multipart/form-data';

/** What operations take, as the tests build it: values by where they go. */
interface GeneratedRequest {
  readonly path: Record<string, string>;
  readonly query: Record<string, string>;
  readonly body?: { readonly mediaType: string; readonly value: unknown };
}

interface NegativeCase {
  readonly request: GeneratedRequest;
  /** The constraint it breaks, as the schema states it: `path start: pattern`, `body login: maxLength`. */
  readonly breaks: string;
  /** The catalogue code of its refusal, where a case drawn for one rule knows it. */
  readonly code?: string;
}

let running: RunningServer;
let credentials: Credentials;
let document: ApiDocument;

beforeAll(async () => {
  const { app, store } = buildTestApp({
    ADMIN_TOKEN,
    ...LIMITS_OUT_OF_REACH,
    // A scenario would force the answers of the other operations: a valid one is told that they are off.
    SANDBOX_SCENARIOS: 'false',
    MAX_RANGE_DAYS: String(MAX_RANGE_DAYS),
    SURVEY_MAX_ITEMS: String(SURVEY_MAX_ITEMS),
    SURVEY_MAX_TEXT_LENGTH: String(SURVEY_MAX_TEXT_LENGTH),
  });
  running = await serve(app);
  await addAccount(store, { phones: PHONES, timeZone: 'America/New_York' });
  credentials = await authenticate(running.url);
  document = (await (await fetch(`${running.url}/openapi.json`)).json()) as ApiDocument;
});

afterAll(() => running.close());

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

const parametersOf = (operation: DocumentedOperation, location: 'path' | 'query'): Parameter[] =>
  ((operation.operation.parameters ?? []) as Parameter[]).filter((parameter) => parameter.in === location);

function bodySchema(operation: DocumentedOperation, mediaType: string): JsonSchema {
  const content = (operation.operation.requestBody as { content: Record<string, { schema: JsonSchema }> }).content;
  return resolved(document, content[mediaType]?.schema) as JsonSchema;
}

/**
 * A value that a path segment, a query string or a form can carry as the client sent it: text without
 * lone surrogates (UTF-8 has no form for them), and in a path never empty (an empty segment is another
 * path, not an empty value).
 */
const LONE_SURROGATE = /\p{Cs}/u;

function transportable(value: unknown, where: 'path' | 'query' | 'form' | 'json'): boolean {
  if (where === 'json') return true;
  if (Array.isArray(value)) return value.every((item) => transportable(item, where));
  if (typeof value === 'object' && value !== null) return Object.values(value).every((item) => transportable(item, where));
  if (typeof value !== 'string') return false;
  return !LONE_SURROGATE.test(value) && !(where === 'path' && (value === '' || value === '.' || value === '..'));
}

const record = (entries: readonly (readonly [string, fc.Arbitrary<unknown>])[]) =>
  fc.record(Object.fromEntries(entries)) as fc.Arbitrary<Record<string, string>>;

function validPath(operation: DocumentedOperation): fc.Arbitrary<Record<string, string>> {
  return record(parametersOf(operation, 'path').map(({ name, schema }) => [name, validValue(document, schema).filter((value) => transportable(value, 'path'))]));
}

function validQuery(operation: DocumentedOperation): fc.Arbitrary<Record<string, string>> {
  return fc
    .tuple(...parametersOf(operation, 'query').map(({ name, schema }) => fc.option(validValue(document, schema).map((value) => [name, value] as const), { nil: undefined })))
    .map((entries) => Object.fromEntries(entries.filter((entry) => entry !== undefined)) as Record<string, string>)
    .filter((query) => transportable(query, 'query'));
}

function validBody(operation: DocumentedOperation, mediaType: string): fc.Arbitrary<GeneratedRequest['body']> {
  const where = mediaType === JSON_TYPE ? 'json' : 'form';
  return validValue(document, bodySchema(operation, mediaType))
    .filter((value) => transportable(value, where))
    .map((value) => ({ mediaType, value }));
}

/** Every negative case of one part of an operation, the other parts as `valid` draws them. */
function negativeCases(operation: DocumentedOperation, valid: fc.Arbitrary<GeneratedRequest>, mediaTypes: readonly string[]): fc.Arbitrary<NegativeCase> {
  const cases: fc.Arbitrary<NegativeCase>[] = [];
  for (const location of ['path', 'query'] as const) {
    for (const { name, schema } of parametersOf(operation, location)) {
      const broken = invalidValue(document, schema);
      if (broken === undefined) continue;
      cases.push(
        fc
          .tuple(valid, broken.filter(({ value }) => transportable(value, location)))
          .map(([base, { value, breaks }]) => ({
            request: { ...base, [location]: { ...base[location], [name]: value as string } },
            breaks: `${location} ${name}: ${breaks}`,
          })),
      );
    }
  }
  for (const mediaType of mediaTypes) {
    const where = mediaType === JSON_TYPE ? 'json' : 'form';
    const broken = invalidValue(document, bodySchema(operation, mediaType), { allowTypeViolations: where === 'json' });
    if (broken === undefined) continue;
    cases.push(
      fc
        .tuple(valid, broken.filter(({ value }) => transportable(value, where)))
        .map(([base, { value, breaks }]) => ({ request: { ...base, body: { mediaType, value } }, breaks: `body (${mediaType}) ${breaks}` })),
    );
  }
  return fc.oneof(...cases);
}

function formBody(value: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [name, field] of Object.entries(value)) {
    for (const item of Array.isArray(field) ? field : [field]) form.append(name, String(item));
  }
  return form.toString();
}

/** Sends a generated request as a client following the document would, with the credentials its security scheme names. */
async function send(operation: DocumentedOperation, generated: GeneratedRequest): Promise<request.Response> {
  const path = operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) => encodeURIComponent(generated.path[name] as string));
  const query = new URLSearchParams(generated.query).toString();
  const url = query === '' ? path : `${path}?${query}`;
  const pending = request(running.url)[operation.method as 'get'](url);
  const scheme = Object.keys((operation.operation.security as Record<string, unknown>[] | undefined)?.[0] ?? {})[0];
  if (scheme === 'basicAuth') pending.set('Authorization', basic(credentials.login, credentials.password));
  if (scheme === 'bearerAuth') pending.set('Authorization', `Bearer ${ADMIN_TOKEN}`);
  const { body } = generated;
  if (body === undefined) return pending;
  if (body.mediaType === JSON_TYPE) return pending.set('Content-Type', JSON_TYPE).send(JSON.stringify(body.value));
  if (body.mediaType === FORM) return pending.set('Content-Type', FORM).send(formBody(body.value as Record<string, unknown>));
  for (const [name, field] of Object.entries(body.value as Record<string, unknown>)) {
    for (const item of Array.isArray(field) ? field : [field]) {
      if (name === 'recording') pending.attach(name, Buffer.from(String(item)), { filename: 'recording.wav', contentType: 'audio/wav' });
      else pending.field(name, String(item));
    }
  }
  return pending;
}

const DAY_MS = 86_400_000;
const compactDate = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
const dateMs = (text: string) => Date.UTC(Number(text.slice(0, 4)), Number(text.slice(4, 6)) - 1, Number(text.slice(6, 8)));

/**
 * The first day whose week starts at or after 1970-01-01T00:00:00Z in the account's zone (New York, weeks from
 * Monday): the week of 1970-01-01 began on 1969-12-29. Its days and months start after the epoch from 19700101.
 */
const FIRST_KEYED_WEEK_DAY = '19700105';

/**
 * The range rules of the raw-data resources: end not before start, at most MAX_RANGE_DAYS days, a first period
 * that starts at or after the Unix epoch; a number of the account.
 */
function withinTheRangeRules(path: Record<string, string>, phone: string): Record<string, string> {
  const sorted = [dateMs(path.start as string), dateMs(path.end as string)].sort((a, b) => a - b) as [number, number];
  const first = path.period === 'week' ? Math.max(sorted[0], dateMs(FIRST_KEYED_WEEK_DAY)) : sorted[0];
  const end = Math.min(Math.max(sorted[1], first), first + (MAX_RANGE_DAYS - 1) * DAY_MS);
  return { ...path, start: compactDate(first), end: compactDate(end), phone };
}

/**
 * How each operation with input is exercised: its valid requests (schema values completed by the rules
 * the document states in words), the statuses a valid request may get, and the media types of its body.
 */
interface Exercise {
  readonly valid: (operation: DocumentedOperation) => fc.Arbitrary<GeneratedRequest>;
  readonly accepted: readonly number[];
  readonly mediaTypes: readonly string[];
  /** Whether a negative case was refused; by default, a 400. */
  readonly refused?: (response: request.Response) => boolean;
}

/** A delay distribution with its bounds in order: [min, max] ascending, median at most p99. */
function inOrder(delay: unknown): unknown {
  if (typeof delay !== 'object' || delay === null) return delay;
  if ('uniform' in delay) return { uniform: [...(delay.uniform as number[])].sort((a, b) => a - b) };
  const { median, p99 } = delay as { median: number; p99: number };
  return { median: Math.min(median, p99), p99: Math.max(median, p99) };
}

const RULES_BEYOND_THE_SCHEMA: Record<string, Exercise> = {
  // The document offers the body only; the query string's fields, which the server reads too, are src/reporting/auth/authenticate.test.ts's.
  authenticate: {
    mediaTypes: [FORM, JSON_TYPE],
    accepted: [200, 401],
    valid: (operation) =>
      fc.constantFrom(FORM, JSON_TYPE).chain((mediaType) => validBody(operation, mediaType).map((body) => ({ path: {}, query: {}, body }))),
  },
  ...Object.fromEntries(
    ['getVolume', 'getEvents', 'getPerformance', 'getCallerProfile', 'getGeographic', 'getFlow'].map((operationId) => [
      operationId,
      {
        mediaTypes: [],
        accepted: [200],
        // End not before start, at most MAX_RANGE_DAYS days, and ALL or one of the account's numbers.
        valid: (operation: DocumentedOperation) =>
          fc
            .tuple(validPath(operation), fc.constantFrom('ALL', ...PHONES, ...PHONES.map((phone) => `+${phone}`)))
            .map(([path, phone]) => ({ path: withinTheRangeRules(path, phone), query: {} })),
      } satisfies Exercise,
    ]),
  ),
  getAccount: { mediaTypes: [], accepted: [200, 404], valid: (operation) => validPath(operation).map((path) => ({ path, query: {} })) },
  deleteAccount: { mediaTypes: [], accepted: [204, 404], valid: (operation) => validPath(operation).map((path) => ({ path, query: {} })) },
  // Any session id and any seq: the list, perhaps empty.
  listSurveyCalls: { mediaTypes: [], accepted: [200], valid: (operation) => validQuery(operation).map((query) => ({ path: {}, query })) },
  revokeCredentials: { mediaTypes: [], accepted: [200, 404], valid: (operation) => validPath(operation).map((path) => ({ path, query: {} })) },
  expireCredentials: { mediaTypes: [], accepted: [200, 404], valid: (operation) => validPath(operation).map((path) => ({ path, query: {} })) },
  // This server's clock does not move (no SANDBOX_CLOCK, so that no other answer's time shifts): a valid body is told so.
  advanceClock: {
    mediaTypes: [JSON_TYPE],
    accepted: [409],
    valid: (operation) => validBody(operation, JSON_TYPE).map((body) => ({ path: {}, query: {}, body })),
  },
  // Scenarios are off on this server, so that none forces another operation's answer: a valid body is told so. Valid:
  // a status or a delay; tool and login together, not for the survey; a fault string with a status, for the survey only;
  // an IP address as the client address; a Retry-After for a 429 or 503 only; a delay's min not above its max, its median not above its p99;
  // a seed with a probability only; no status with a connection reset or empty; a rate with a drip, and only then.
  addScenario: {
    mediaTypes: [JSON_TYPE],
    accepted: [409],
    valid: (operation) =>
      validBody(operation, JSON_TYPE).map((body) => {
        const {
          tool,
          login,
          status: given,
          fault_string: faultString,
          client_address: clientAddress,
          retry_after_seconds: retryAfter,
          seed,
          connection,
          bytes_per_second: bytesPerSecond,
          ...rule
        } = body?.value as Record<string, unknown>;
        const survey = rule.target === 'survey';
        const dropped = connection === 'reset' || connection === 'empty';
        const needsStatus = (rule.delay_ms === undefined && connection === undefined) || (survey && faultString !== undefined);
        const status = dropped ? undefined : (given ?? (needsStatus ? 500 : undefined));
        const value = {
          ...rule,
          ...(connection === undefined ? {} : { connection }),
          ...(connection === 'drip' ? { bytes_per_second: bytesPerSecond ?? 1000 } : {}),
          ...(rule.delay_ms === undefined ? {} : { delay_ms: inOrder(rule.delay_ms) }),
          ...(status === undefined ? {} : { status: survey && status === 401 ? 500 : status }),
          ...(!survey && tool !== undefined && login !== undefined ? { tool, login } : {}),
          ...(survey && faultString !== undefined && status !== undefined ? { fault_string: faultString } : {}),
          ...(retryAfter !== undefined && (status === 429 || status === 503) ? { retry_after_seconds: retryAfter } : {}),
          ...(seed !== undefined && rule.probability !== undefined ? { seed } : {}),
          ...(clientAddress === undefined ? {} : { client_address: JSON.stringify(clientAddress).length % 2 === 0 ? '192.0.2.1' : '2001:db8::1' }),
        };
        return { path: {}, query: {}, body: { mediaType: JSON_TYPE, value } };
      }),
  },
  getScenario: { mediaTypes: [], accepted: [404], valid: (operation) => validPath(operation).map((path) => ({ path, query: {} })) },
  removeScenario: { mediaTypes: [], accepted: [404], valid: (operation) => validPath(operation).map((path) => ({ path, query: {} })) },
  assignPhone: { mediaTypes: [], accepted: [200, 201, 404, 409], valid: (operation) => validPath(operation).map((path) => ({ path, query: {} })) },
  releasePhone: { mediaTypes: [], accepted: [200, 404], valid: (operation) => validPath(operation).map((path) => ({ path, query: {} })) },
  // A time zone the server knows; a password to create an account (the generated logins name new ones).
  putAccount: {
    mediaTypes: [JSON_TYPE],
    accepted: [200, 201],
    valid: (operation) =>
      fc
        .tuple(validPath(operation), validBody(operation, JSON_TYPE), fc.constantFrom(...KNOWN_TIME_ZONES), fc.string({ minLength: 1, maxLength: 20 }))
        .filter(([path]) => path.login !== 'alice')
        .map(([path, body, timezone, password]) => {
          const changes = body?.value as Record<string, unknown>;
          return {
            path,
            query: {},
            body: { mediaType: JSON_TYPE, value: { password, ...changes, ...(changes.timezone === undefined ? {} : { timezone }) } },
          };
        }),
  },
  // Records for the account's numbers (a number on no account is rejected), each stored or a duplicate.
  importCalls: {
    mediaTypes: [JSON_TYPE],
    accepted: [200],
    valid: (operation) =>
      fc.tuple(validBody(operation, JSON_TYPE), fc.constantFrom(...PHONES)).map(([body, phone]) => ({
        path: {},
        query: {},
        body: { mediaType: JSON_TYPE, value: (body?.value as Record<string, unknown>[]).map((call) => ({ ...call, phone })) },
      })),
    // A record the schema refuses is rejected alone, in an answer that lists it; a body that is no array is a 400.
    refused: (response) => response.status === 400 || (response.status === 200 && (response.body as { rejected: unknown[] }).rejected.length > 0),
  },
  // As many answers as question texts.
  svcEvalRest: {
    mediaTypes: [FORM, MULTIPART],
    accepted: [200],
    valid: (operation) =>
      fc.constantFrom(FORM, MULTIPART).chain((mediaType) =>
        validBody(operation, mediaType).map((body) => {
          const form = body?.value as Record<string, unknown>;
          const questions = (form.question_texts ?? []) as string[];
          const answers = ((form.answers ?? []) as string[]).slice(0, questions.length);
          while (answers.length < questions.length) answers.push('yes');
          return { path: {}, query: {}, body: { mediaType, value: { ...form, answers } } };
        }),
      ),
  },
};

const SERIES_OPERATIONS = ['getVolume', 'getEvents', 'getPerformance', 'getCallerProfile'];
const LOGIN_OPERATIONS = ['getAccount', 'deleteAccount', 'putAccount', 'revokeCredentials', 'expireCredentials', 'assignPhone', 'releasePhone'];
const SCENARIO_ID_OPERATIONS = ['getScenario', 'removeScenario'];
/** DEL and every C1 control: what a generator that reads the login's pattern loosely sends. */
const DEL_AND_C1 = Array.from({ length: 0x21 }, (_, index) => String.fromCharCode(0x7f + index));

/**
 * Negative cases drawn for one rule each, beside those the schemas' generators draw: rules a schema states
 * only in words (the epoch), and values a generic near miss seldom reaches (a control in the middle of a
 * login, a UUID in capitals, an empty client_address). Each is refused with its code.
 */
function targetedCases(operationId: string, valid: fc.Arbitrary<GeneratedRequest>): fc.Arbitrary<NegativeCase> | undefined {
  if (SERIES_OPERATIONS.includes(operationId)) {
    // 1970-01-01 to 01-04 are in the week of 1969-12-29, which began before the epoch in New York.
    return fc.tuple(valid, fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 60 })).map(([base, first, days]) => ({
      request: { ...base, path: { ...base.path, start: compactDate(first * DAY_MS), end: compactDate((first + days) * DAY_MS), period: 'week' } },
      breaks: 'a first week that starts before 1970-01-01T00:00:00Z (the words of the 400)',
      code: 'IVR_PERIOD_BEFORE_EPOCH',
    }));
  }
  if (LOGIN_OPERATIONS.includes(operationId)) {
    return fc.tuple(valid, fc.constantFrom(...DEL_AND_C1), fc.nat()).map(([base, control, at]) => {
      const login = [...(base.path.login as string)].slice(0, 199);
      login.splice(at % (login.length + 1), 0, control);
      return {
        request: { ...base, path: { ...base.path, login: login.join('') } },
        breaks: `path login: pattern (U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`,
        code: 'IVR_INVALID_PARAMETER',
      };
    });
  }
  if (SCENARIO_ID_OPERATIONS.includes(operationId)) {
    const notAnId = fc.oneof(
      fc.uuid().map((id) => id.toUpperCase()),
      fc.uuid().map((id) => id.replaceAll('-', '')),
      fc.uuid().map((id) => `{${id}}`),
      fc.string({ minLength: 1, maxLength: 40 }),
    ).filter((id) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id) && transportable(id, 'path'));
    return fc.tuple(valid, notAnId).map(([base, id]) => ({ request: { ...base, path: { id } }, breaks: 'path id: pattern', code: 'IVR_INVALID_PARAMETER' }));
  }
  if (operationId === 'addScenario') {
    return valid.map((base) => ({
      request: { ...base, body: { mediaType: JSON_TYPE, value: { ...(base.body?.value as object), client_address: '' } } },
      breaks: 'body (application/json) client_address: minLength',
      code: 'IVR_INVALID_PARAMETER',
    }));
  }
  return undefined;
}

/** Whether the operation documents an answer of this status, and, for an error, the code it sent. */
function documentedAnswer(operation: DocumentedOperation, response: request.Response): string {
  const documented = Object.keys(operation.operation.responses as object);
  const code = response.headers['x-error-code'];
  if (!documented.includes(String(response.status))) return `${response.status} not documented (${documented.join(', ')})`;
  if (response.status >= 400 && code === undefined) return `${response.status} without X-Error-Code`;
  return 'documented';
}

/** Operations whose input no JSON Schema describes: the SOAP envelopes (the WSDL is their contract, tested by the SOAP clients' suites). */
const WITHOUT_SCHEMA_INPUT = new Set(['svcEval', 'plumEval']);

describe('the OpenAPI document against the server', () => {
  test('describes the input of every operation that takes any, and the tests exercise each', () => {
    const withInput = documentedOperations(document)
      .filter(({ operation }) => ((operation.parameters ?? []) as Parameter[]).some((parameter) => parameter.in === 'path' || parameter.in === 'query') || operation.requestBody !== undefined)
      .map(({ operation }) => operation.operationId as string)
      .filter((operationId) => !WITHOUT_SCHEMA_INPUT.has(operationId) && !['getWsdl', 'getPlumEvalWsdl'].includes(operationId));
    expect(withInput.sort()).toEqual(Object.keys(RULES_BEYOND_THE_SCHEMA).sort());
  });

  test('shows as request examples only requests that its schemas allow', () => {
    const schemas = documentSchemas(document);
    const invalid: string[] = [];
    for (const operation of documentedOperations(document)) {
      for (const parameter of (operation.operation.parameters ?? []) as (Parameter & { examples?: Record<string, { value: unknown }> })[]) {
        const check = schemas.of(parameter.schema);
        for (const [name, { value }] of Object.entries(parameter.examples ?? {})) {
          if (!check(value)) invalid.push(`${String(operation.operation.operationId)} ${parameter.name} example ${name}`);
        }
      }
      const content = (operation.operation.requestBody as { content?: Record<string, { examples?: Record<string, { value: unknown }> }> } | undefined)?.content ?? {};
      for (const [mediaType, media] of Object.entries(content)) {
        if (mediaType === 'text/xml' || mediaType === 'application/x-ndjson') continue;
        const check = schemas.request(operation, mediaType);
        for (const [name, { value }] of Object.entries(media.examples ?? {})) {
          if (!check(value)) invalid.push(`${String(operation.operation.operationId)} body ${mediaType} example ${name}`);
        }
      }
    }
    expect(invalid).toEqual([]);
  });

  test('refuses in its schemas the values the server refuses: a login with DEL or a C1 control, an id that is no UUID, an empty client_address', () => {
    const schemas = documentSchemas(document);
    const pathSchema = (operationId: string, name: string) =>
      schemas.of(((operationById(document, operationId).operation.parameters ?? []) as Parameter[]).find((parameter) => parameter.name === name)?.schema as object);
    const login = pathSchema('getAccount', 'login');
    const id = pathSchema('getScenario', 'id');
    const rule = schemas.request(operationById(document, 'addScenario'), JSON_TYPE);
    expect({
      logins: DEL_AND_C1.map((control) => login(`a${control}b`)),
      ids: ['3F2504E0-4F89-41D3-9A0C-0305E82C3301', '3f2504e04f8941d39a0c0305e82c3301', 'scenario'].map((value) => id(value)),
      clientAddresses: ['', '192.0.2.1'].map((address) => rule({ target: 'data', status: 500, client_address: address })),
    }).toEqual({ logins: DEL_AND_C1.map(() => false), ids: [false, false, false], clientAddresses: [false, true] });
  });

  test('states path patterns in characters a path can carry: percent-encoded UTF-8 has no unpaired surrogate', () => {
    const naming = documentedOperations(document).flatMap(({ operation }) =>
      ((operation.parameters ?? []) as Parameter[])
        .filter((parameter) => parameter.in === 'path' && /\\uD[89A-F]/i.test((parameter.schema.pattern as string | undefined) ?? ''))
        .map(({ name }) => `${String(operation.operationId)} ${name}`),
    );
    expect(naming).toEqual([]);
  });

  describe.each(Object.keys(RULES_BEYOND_THE_SCHEMA))('%s', (operationId) => {
    test(
      `a request its schemas allow is never refused as malformed (${RUNS} cases, seed ${SEED})`,
      async () => {
        const exercise = RULES_BEYOND_THE_SCHEMA[operationId] as Exercise;
        const operation = operationById(document, operationId);
        await fc.assert(
          fc.asyncProperty(exercise.valid(operation), async (generated) => {
            const response = await send(operation, generated);
            const accepted = exercise.accepted.includes(response.status) && exercise.refused?.(response) !== true;
            expect({ request: generated, status: response.status, body: response.body as unknown, accepted, answer: documentedAnswer(operation, response) }).toEqual({
              request: generated,
              status: response.status,
              body: response.body as unknown,
              accepted: true,
              answer: 'documented',
            });
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      },
      30_000 + RUNS * PER_CASE_BUDGET_MS,
    );

    test(
      `a request that breaks one constraint of its schemas is refused (${RUNS} cases, seed ${SEED})`,
      async () => {
        const exercise = RULES_BEYOND_THE_SCHEMA[operationId] as Exercise;
        const operation = operationById(document, operationId);
        const refused = exercise.refused ?? ((response: request.Response) => response.status === 400);
        const generic = negativeCases(operation, exercise.valid(operation), exercise.mediaTypes);
        const targeted = targetedCases(operationId, exercise.valid(operation));
        const cases = targeted === undefined ? generic : fc.oneof(generic, targeted);
        await fc.assert(
          fc.asyncProperty(cases, async ({ request: generated, breaks, code }) => {
            const response = await send(operation, generated);
            const answered = response.headers['x-error-code'];
            expect({ breaks, request: generated, status: response.status, refused: refused(response), answer: documentedAnswer(operation, response), code: answered }).toEqual({
              breaks,
              request: generated,
              status: response.status,
              refused: true,
              answer: 'documented',
              code: code ?? answered,
            });
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      },
      30_000 + RUNS * PER_CASE_BUDGET_MS,
    );
  });
});
