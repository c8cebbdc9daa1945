import request from 'supertest';
import type { ApiDocument } from './document';
import { FakeClock } from '../../test/support/fake-clock';
import { serve } from '../../test/support/http';
import { buildTestApp } from '../../test/support/test-app';
import { ADMIN_TOKEN, documentOf, documentedOperations, servedRoutes, validateOpenApi } from '../../test/support/openapi';

const CONFIGURATIONS: Readonly<Record<string, NodeJS.ProcessEnv>> = {
  'the defaults': {},
  'the admin API on': { ADMIN_TOKEN },
  'PUBLIC_URL, METRICS_TOKEN and other paths': {
    ADMIN_TOKEN,
    METRICS_TOKEN: 'test-metrics-token-0123456789',
    PUBLIC_URL: 'https://reports.example.com/ivr/',
    SOAP_PATH: '/soap',
    SURVEY_REST_PATH: '/survey-form',
  },
};

/** The pages for people and their assets (the dashboard at / and /inspector, the API reference at /docs): no operations of the API. */
const isPage = (route: string): boolean => route === 'GET /' || / \/(dashboard|docs|inspector)(\/|$)/.test(route);

describe('the OpenAPI document', () => {
  test.each(Object.entries(CONFIGURATIONS))('is valid OpenAPI 3.1 by @seriousme/openapi-schema-validator, with %s', async (_name, env) => {
    expect(await validateOpenApi(documentOf(buildTestApp(env)))).toEqual({ valid: true, version: '3.1' });
  });

  test('is refused by the same validator when it breaks the specification, so the test above can fail', async () => {
    const document = documentOf(buildTestApp({}));
    const broken = { ...document, paths: { ...document.paths, '/api/auth': { post: { responses: { 200: { content: 'none' } } } } } };
    expect(await validateOpenApi(broken)).toMatchObject({ valid: false });
  });

  test.each(Object.entries(CONFIGURATIONS))('has an operation for every route the app serves, and a route for every operation, with %s', (_name, env) => {
    const testApp = buildTestApp(env);
    const operations = documentedOperations(documentOf(testApp)).map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    expect(operations.sort()).toEqual(servedRoutes(testApp.app).filter((route) => !isPage(route)));
  });

  test('is built once per configuration it describes, frozen, and anew when a described setting differs', () => {
    const document = documentOf(buildTestApp({}));
    expect(documentOf(buildTestApp({ LOG_LEVEL: 'silent' }))).toBe(document);
    expect(Object.isFrozen(document.paths)).toBe(true);
    const withAdmin = documentOf(buildTestApp({ ADMIN_TOKEN }));
    expect(withAdmin).not.toBe(document);
    expect(Object.keys(withAdmin.paths ?? {}).some((route) => route.startsWith('/admin'))).toBe(true);
    expect(documentOf(buildTestApp({ ADMIN_TOKEN: `${ADMIN_TOKEN}-another` }))).toBe(withAdmin);
  });

  test("is built anew on another day of the demo account's time zone, its examples on the two days before that day", () => {
    const documentAt = (instant: string) => documentOf(buildTestApp({}, new FakeClock(Date.parse(instant))));
    const eventsRange = (document: ApiDocument) =>
      (document.paths?.['/api/events/{start}/{end}/{period}/{phone}']?.get?.parameters as { name: string; examples: Record<string, { value: string }> }[])
        .filter(({ name }) => name === 'start' || name === 'end')
        .map(({ name, examples }) => `${name} ${Object.values(examples)[0]?.value}`);
    const morning = documentAt('2026-11-25T15:00:00Z');
    expect(eventsRange(morning)).toEqual(['start 20261123', 'end 20261124']);
    // 23:59 in New York: still the 25th there, so the same document.
    expect(documentAt('2026-11-26T04:59:00Z')).toBe(morning);
    const nextDay = documentAt('2026-11-26T05:00:00Z');
    expect(nextDay).not.toBe(morning);
    expect(eventsRange(nextDay)).toEqual(['start 20261124', 'end 20261125']);
  });

  test('sends "Try it out" to the server that serves it: "/" by default', () => {
    const document = documentOf(buildTestApp({}));
    expect(document.servers).toEqual([{ url: '/', description: 'This server' }]);
    expect(document.tags?.find(({ name }) => name === 'Survey web service')?.externalDocs).toEqual({
      url: '/survey?wsdl',
      description: 'The WSDL of svcEval: the contract of the SOAP service',
    });
  });

  test('sends "Try it out" to PUBLIC_URL when it is set, and links the WSDL there', () => {
    const document = documentOf(buildTestApp(CONFIGURATIONS['PUBLIC_URL, METRICS_TOKEN and other paths']));
    expect(document.servers).toEqual([{ url: 'https://reports.example.com/ivr', description: 'PUBLIC_URL' }]);
    const wsdl = { url: 'https://reports.example.com/ivr/soap?wsdl', description: 'The WSDL of svcEval: the contract of the SOAP service' };
    expect(document.paths?.['/soap']?.post?.externalDocs).toEqual(wsdl);
    expect(document.paths?.['/soap']?.get?.externalDocs).toEqual(wsdl);
    const plumEvalWsdl = { url: 'https://reports.example.com/ivr/soap/plum?wsdl', description: 'The WSDL of plumEval: the contract of the SOAP service' };
    expect(document.paths?.['/soap/plum']?.post?.externalDocs).toEqual(plumEvalWsdl);
    expect(document.paths?.['/soap/plum']?.get?.externalDocs).toEqual(plumEvalWsdl);
  });

  test('secures the raw-data resources with Basic and the admin API with Bearer, and leaves the rest open', () => {
    const document = documentOf(buildTestApp({ ADMIN_TOKEN }));
    expect(document.components?.securitySchemes).toEqual({
      basicAuth: expect.objectContaining({ type: 'http', scheme: 'basic' }),
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    const security = documentedOperations(document).map(({ path, method, operation }) => [`${method.toUpperCase()} ${path}`, operation.security]);
    const expected = (route: string) => {
      if (route.startsWith('GET /api/') ) return [{ basicAuth: [] }];
      return route.includes(' /admin/') ? [{ bearerAuth: [] }] : [];
    };
    expect(security).toEqual(security.map(([route]) => [route, expected(route as string)]));
  });

  test('describes no admin API, and no Bearer scheme, when the admin API is off', () => {
    const document = documentOf(buildTestApp({}));
    expect(Object.keys(document.paths ?? {}).filter((path) => path.startsWith('/admin'))).toEqual([]);
    expect(Object.keys(document.components?.securitySchemes ?? {})).toEqual(['basicAuth']);
  });

  test('documents a 401 with its WWW-Authenticate challenge, the rate-limit headers, and every refusal\'s X-Error-Code, where the server sends them', () => {
    const document = documentOf(buildTestApp({ ADMIN_TOKEN }));
    const events = document.paths?.['/api/events/{start}/{end}/{period}/{phone}']?.get?.responses;
    expect(Object.keys(events ?? {})).toEqual(['200', '304', '400', '401', '429', '500']);
    expect(Object.keys(events?.['401']?.headers ?? {})).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'WWW-Authenticate', 'X-Error-Code']);
    expect(Object.keys(events?.['200']?.headers ?? {})).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'ETag']);
    expect(Object.keys(events?.['429']?.headers ?? {})).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Error-Code']);
    expect(Object.keys(events?.['400']?.content ?? {})).toEqual(['application/json', 'application/xml']);
    const accounts = document.paths?.['/admin/accounts']?.get?.responses;
    expect(Object.keys(accounts?.['401']?.headers ?? {})).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'WWW-Authenticate', 'X-Error-Code']);
    expect(accounts?.['401']?.headers?.['WWW-Authenticate']).toEqual({ $ref: '#/components/headers/WWW-Authenticate-Bearer' });
    expect(Object.keys(accounts?.['401']?.content ?? {})).toEqual(['application/json']);
  });
});

describe('GET /openapi.json', () => {
  test('serves the document the server built, as JSON revalidated on every use, counted by no limit group', async () => {
    const testApp = buildTestApp({ ADMIN_TOKEN, AUTH_RATE_LIMIT: '1', DATA_RATE_LIMIT: '1', ADMIN_RATE_LIMIT: '1' });
    const server = await serve(testApp.app);
    try {
      for (const attempt of [1, 2, 3]) {
        const response = await request(server.url).get('/openapi.json');
        expect({ attempt, status: response.status }).toEqual({ attempt, status: 200 });
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(response.headers['cache-control']).toBe('no-cache');
        expect(response.headers['x-ratelimit-limit']).toBeUndefined();
        expect(response.body).toEqual(JSON.parse(JSON.stringify(documentOf(testApp))));
      }
    } finally {
      await server.close();
    }
  });

  test('answers another method with 405 and Allow', async () => {
    const server = await serve(buildTestApp({}).app);
    try {
      const response = await request(server.url).post('/openapi.json');
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD');
      expect(response.body).toEqual({ error: 'method POST is not allowed here; use GET or HEAD' });
    } finally {
      await server.close();
    }
  });
});
