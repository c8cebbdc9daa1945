import request from 'supertest';
import { parseStringPromise } from 'xml2js';
import type { ApiDocument } from './document';
import type { ExampleExchange } from '../http/openapi/examples';
import { exampleExchanges } from './examples';

/** The operations of the single service of SOAP_PATH, which the examples go on without a services file. */
const SINGLE_SERVICE_OPERATIONS = { svcEval: 'svcEval', rest: 'svcEvalRest' } as const;
import type { RunningServer } from '../listen';
import { DEMO_ACCOUNT, loadDemoData } from '../startup-data/demo/demo-account';
import { FakeClock } from '../../test/support/fake-clock';
import { basic, serve } from '../../test/support/http';
import { addAccount, buildTestApp, type TestApp } from '../../test/support/test-app';
import { authenticate } from '../../test/support/reporting';
import { ADMIN_TOKEN, bodyOf, documentedOperations, documentSchemas, operationById, replay, resolved, type DocumentedOperation } from '../../test/support/openapi';

let testApp: TestApp;
let server: RunningServer;

/** A fresh app, listening, and the document it serves. */
async function start(env: NodeJS.ProcessEnv, clock = new FakeClock()): Promise<ApiDocument> {
  testApp = buildTestApp(env, clock);
  server = await serve(testApp.app);
  return (await (await fetch(`${server.url}/openapi.json`)).json()) as ApiDocument;
}

afterEach(() => server.close());

type Examples = Record<string, { value: unknown }>;
type Content = Record<string, { examples?: Examples }>;

interface ShownExample {
  readonly operationId: string;
  readonly name: string;
  /** `parameter phone`, `request body` or `response 200`. */
  readonly part: string;
  readonly value: unknown;
}

/** Every place of an operation that may hold examples: its parameters and the media types of its body and answers. */
function examplePlaces({ operation }: DocumentedOperation): { part: string; examples: Examples | undefined }[] {
  const parameters = (operation.parameters ?? []) as { name: string; examples?: Examples }[];
  const media = (owner: unknown, part: string) =>
    Object.values((owner as { content?: Content } | undefined)?.content ?? {}).map(({ examples }) => ({ part, examples }));
  return [
    ...parameters.map(({ name, examples }) => ({ part: `parameter ${name}`, examples })),
    ...media(operation.requestBody, 'request body'),
    ...Object.entries(operation.responses as Record<string, unknown>).flatMap(([status, response]) => media(response, `response ${status}`)),
  ];
}

function shownExamples(document: ApiDocument): ShownExample[] {
  return documentedOperations(document).flatMap((operation) =>
    examplePlaces(operation).flatMap(({ part, examples }) =>
      Object.entries(examples ?? {}).map(([name, { value }]) => ({ operationId: operation.operation.operationId as string, name, part, value })),
    ),
  );
}

/** What an exchange says of the part an example illustrates. */
function exchangeValue(exchange: ExampleExchange | undefined, part: string): unknown {
  if (exchange === undefined) return undefined;
  if (part.startsWith('parameter ')) {
    const name = part.slice('parameter '.length);
    return exchange.params?.[name] ?? exchange.headers?.[name];
  }
  return part === 'request body' ? exchange.body?.value : exchange.response.body;
}

/** How many times `key` names a member anywhere in `value`. */
function countKeys(value: unknown, key: string): number {
  if (typeof value !== 'object' || value === null) return 0;
  return Object.entries(value).reduce((total, [name, child]) => total + (name === key ? 1 : 0) + countKeys(child, key), 0);
}

describe('the examples of the document', () => {
  // The second day: the two days of the examples are those before the 9 March 2026 in New York, the
  // 8th being the day daylight saving time began there (23 hours long).
  test.each([
    ['7 February 2018', '2018-02-07T15:00:00Z'],
    ['9 March 2026', '2026-03-09T15:00:00Z'],
  ])('are each the answer the server gives, the whole session replayed in order on an empty server on %s', async (_day, instant) => {
    const document = await start({ ADMIN_TOKEN }, new FakeClock(Date.parse(instant)));
    const schemas = documentSchemas(document);
    for (const { exchange, answer } of await replay(server.url, document, exampleExchanges(true, testApp.clock.now(), SINGLE_SERVICE_OPERATIONS))) {
      const { status, mediaType, body, headers = {}, drawnAtRandom } = exchange.response;
      const example = `${exchange.operationId}: ${exchange.name}`;
      const live = bodyOf(answer);
      const liveHeaders = Object.fromEntries(Object.keys(headers).map((name) => [name, answer.headers.get(name)]));
      expect({ example, status: answer.status, mediaType: answer.mediaType, headers: liveHeaders }).toEqual({ example, status, mediaType, headers });
      if (drawnAtRandom === true) {
        // Drawn at random: the example and the answer must be of one form, the one the document gives.
        const schema = schemas.response(operationById(document, exchange.operationId), status, mediaType as string);
        expect({ example, shown: schema(body), answered: schema(live), keys: Object.keys(live as object) }).toEqual({
          example,
          shown: true,
          answered: true,
          keys: Object.keys(body as object),
        });
      } else {
        expect({ example, body: live }).toEqual({ example, body });
      }
    }
  });

  test('are those of the session and no others, each where its exchange puts it, every exchange shown somewhere', async () => {
    const document = await start({ ADMIN_TOKEN });
    const exchanges = exampleExchanges(true, testApp.clock.now(), SINGLE_SERVICE_OPERATIONS);
    const shown = shownExamples(document);
    for (const { operationId, name, part, value } of shown) {
      const exchange = exchanges.find((candidate) => candidate.operationId === operationId && candidate.name === name);
      expect({ operationId, name, part, value }).toEqual({ operationId, name, part, value: exchangeValue(exchange, part) });
    }
    const placesWithExamples = documentedOperations(document)
      .flatMap(examplePlaces)
      .filter(({ examples }) => examples !== undefined);
    expect(countKeys(document, 'examples')).toBe(placesWithExamples.length);
    expect(countKeys(document, 'example')).toBe(0);
    const shownNames = new Set(shown.map(({ operationId, name }) => `${operationId}: ${name}`));
    expect(exchanges.map(({ operationId, name }) => `${operationId}: ${name}`).filter((example) => !shownNames.has(example))).toEqual([]);
  });

  test('leave out the admin API when it is off, and keep the others', async () => {
    const document = await start({});
    const shown = new Set(shownExamples(document).map(({ operationId, name }) => `${operationId}: ${name}`));
    expect([...shown].filter((example) => /^(putAccount|assignPhone|importCalls|getAccount|listAccounts|revokeCredentials|expireCredentials|releasePhone|deleteAccount):/.test(example))).toEqual([]);
    expect(shown).toEqual(new Set(exampleExchanges(false, testApp.clock.now(), SINGLE_SERVICE_OPERATIONS).map(({ operationId, name }) => `${operationId}: ${name}`)));
  });
});

/** Whether any number anywhere in `value` is above zero. */
function countsSomething(value: unknown): boolean {
  if (typeof value === 'number') return value > 0;
  return typeof value === 'object' && value !== null && Object.values(value).some(countsSomething);
}

describe('the values "Try it out" offers', () => {
  test('ask every raw-data resource, on a server started with the demo data, for days that have calls', async () => {
    // 02:00 in New York: the server's day in UTC is already the one after the account's.
    const document = await start({}, new FakeClock(Date.parse('2026-11-25T07:00:00Z')));
    const demo = await loadDemoData(testApp.store, testApp.clock);
    const credentials = await authenticate(server.url, { tool: demo.tool, login: demo.login, password: demo.password });
    const resources = documentedOperations(document).filter(({ path }) => path.startsWith('/api/') && path !== '/api/auth');
    const offered = resources.map(({ path, operation }) => {
      const parameters = operation.parameters as { name: string; in: string; examples: Record<string, { value: string }> }[];
      const first = (name: string) => Object.values(parameters.find((parameter) => parameter.name === name && parameter.in === 'path')?.examples ?? {})[0]?.value;
      return path.replace(/\{(\w+)\}/g, (_whole, name: string) => first(name) ?? `{${name}}`);
    });
    expect(offered).toEqual([
      '/api/volume/20261123/20261124/day/ALL',
      '/api/events/20261123/20261124/day/ALL',
      '/api/performance/20261123/20261124/day/ALL',
      '/api/profile/20261123/20261124/day/ALL',
      '/api/profile/20261123/20261124/ALL',
      '/api/path/20261123/20261124/ALL',
    ]);
    for (const url of offered) {
      const response = await fetch(`${server.url}${url}`, { headers: { Authorization: basic(credentials.login, credentials.password) } });
      expect({ url, status: response.status, countsCalls: countsSomething(await response.json()) }).toEqual({ url, status: 200, countsCalls: true });
    }
  });
});

/** Checks an answer against what the document says of its status: its media type's schema, and the headers it carries. */
function conformance(document: ApiDocument, schemas: ReturnType<typeof documentSchemas>, operation: DocumentedOperation, answer: { status: number; mediaType?: string; headers: Headers; text: string }) {
  type Response = { headers?: Record<string, unknown>; content?: Record<string, unknown> };
  const response = (operation.operation.responses as Record<string, Response>)[String(answer.status)];
  const problems: string[] = [];
  if (response === undefined) return [`status ${answer.status} is not documented`];
  if (answer.mediaType !== undefined && answer.text !== '' && response.content?.[answer.mediaType] === undefined) {
    problems.push(`${answer.mediaType} is not documented for ${answer.status}`);
  }
  if (answer.mediaType === 'application/json') {
    const schema = schemas.response(operation, answer.status, answer.mediaType);
    if (!schema(JSON.parse(answer.text))) problems.push(`the body breaks its schema: ${JSON.stringify(schema.errors)}`);
  }
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const { required, schema } = resolved(document, header) as { required?: boolean; schema: { type: string } };
    const value = answer.headers.get(name);
    if (value === null) {
      if (required === true) problems.push(`no ${name} header`);
      continue;
    }
    const typed = schema.type === 'integer' && /^\d+$/.test(value) ? Number(value) : value;
    if (!schemas.of(schema)(typed)) problems.push(`${name}: ${value} breaks its schema`);
  }
  return problems;
}

describe('the live answers', () => {
  test('of the session each conform to what the document says of their status: media type, schema, headers', async () => {
    const document = await start({ ADMIN_TOKEN });
    const schemas = documentSchemas(document);
    for (const { exchange, answer } of await replay(server.url, document, exampleExchanges(true, testApp.clock.now(), SINGLE_SERVICE_OPERATIONS))) {
      const operation = operationById(document, exchange.operationId);
      if (exchange.body !== undefined && answer.status < 300) {
        // The request too: what a successful example sends is what the document asks for.
        const schema = schemas.request(operation, exchange.body.mediaType);
        expect({ example: exchange.name, request: schema(exchange.body.value), errors: schema.errors }).toEqual({
          example: exchange.name,
          request: true,
          errors: null,
        });
      }
      expect({ example: `${exchange.operationId}: ${exchange.name}`, problems: conformance(document, schemas, operation, answer) }).toEqual({
        example: `${exchange.operationId}: ${exchange.name}`,
        problems: [],
      });
    }
  });

  test('of a report asked for again with its ETag is the 304 the document describes, with its headers', async () => {
    const document = await start({});
    const { tool, login, password, timeZone, phones } = DEMO_ACCOUNT;
    await addAccount(testApp.store, { tool, login, password, timeZone, phones });
    const credentials = await authenticate(server.url, { tool, login, password });
    const events = operationById(document, 'getEvents');
    const path = '/api/events/20180206/20180207/day/ALL';
    const first = await request(server.url).get(path).auth(credentials.login, credentials.password);
    const again = await request(server.url).get(path).auth(credentials.login, credentials.password).set('If-None-Match', first.headers.etag as string);
    const answer = { status: again.status, headers: new Headers(again.headers), text: again.text };
    expect({ status: answer.status, problems: conformance(document, documentSchemas(document), events, answer) }).toEqual({ status: 304, problems: [] });
  });

  test.each([
    ['open', {}, 200],
    ['behind METRICS_TOKEN, without it', { METRICS_TOKEN: 'test-metrics-token-0123456789' }, 401],
  ])('of /metrics, %s, are what the document says of them, in both formats', async (_name, env, status) => {
    const document = await start(env);
    const metrics = operationById(document, 'getMetrics');
    for (const accept of ['text/plain', 'application/openmetrics-text']) {
      const scrape = await request(server.url).get('/metrics').set('Accept', accept);
      const mediaType = (scrape.headers['content-type'] as string).split(';')[0];
      const answer = { status: scrape.status, mediaType, headers: new Headers(scrape.headers), text: scrape.text };
      const problems = conformance(document, documentSchemas(document), metrics, answer);
      expect({ accept, status: answer.status, problems }).toEqual({ accept, status, problems: [] });
    }
  });

  test("on the demo data each conform to their resource's schema, by day, week and month, for every number and for one", async () => {
    const document = await start({});
    const demo = await loadDemoData(testApp.store, testApp.clock);
    const credentials = await authenticate(server.url, { tool: demo.tool, login: demo.login, password: demo.password });
    const schemas = documentSchemas(document);
    const resources = documentedOperations(document).filter(({ path }) => path.startsWith('/api/') && path !== '/api/auth');
    expect(resources).toHaveLength(6);
    for (const operation of resources) {
      for (const [period, phone, mediaType] of [
        ['day', 'ALL', 'application/json'],
        ['week', demo.phones[0], 'application/json'],
        ['month', 'ALL', 'application/json'],
        ['day', 'ALL', 'application/xml'],
      ] as const) {
        const values: Record<string, string> = { start: demo.lastWeek.start, end: demo.lastWeek.end, period, phone: phone ?? 'ALL' };
        const url = operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) => values[name] as string);
        const response = await fetch(`${server.url}${url}`, {
          headers: { Accept: mediaType, Authorization: basic(credentials.login, credentials.password) },
        });
        const answer = { status: response.status, mediaType: response.headers.get('content-type')?.split(';')[0], headers: response.headers, text: await response.text() };
        expect({ url, mediaType, status: answer.status, problems: conformance(document, schemas, operation, answer) }).toEqual({ url, mediaType, status: 200, problems: [] });
        if (mediaType === 'application/xml') expect(Object.keys(await parseStringPromise(answer.text))).toEqual(['result']);
      }
    }
  });
});
