import request from 'supertest';
import { apiDocument } from '../../src/openapi/document';
import { serve } from '../support/http';
import { buildTestApp } from '../support/test-app';
import { ADMIN_TOKEN, documentedOperations, servedRoutes, validateOpenApi } from './support';

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

/** The pages for people and their assets (the dashboard at /, the API reference at /docs): no operations of the API. */
const isPage = (route: string): boolean => route === 'GET /' || / \/(dashboard|docs)(\/|$)/.test(route);

describe('the OpenAPI document', () => {
  test.each(Object.entries(CONFIGURATIONS))('is valid OpenAPI 3.1 by @seriousme/openapi-schema-validator, with %s', async (_name, env) => {
    const { config } = buildTestApp(env);
    expect(await validateOpenApi(apiDocument(config))).toEqual({ valid: true, version: '3.1' });
  });

  test('is refused by the same validator when it breaks the specification, so the test above can fail', async () => {
    const document = apiDocument(buildTestApp({}).config);
    const broken = { ...document, paths: { ...document.paths, '/api/auth': { post: { responses: { 200: { content: 'none' } } } } } };
    expect(await validateOpenApi(broken)).toMatchObject({ valid: false });
  });

  test.each(Object.entries(CONFIGURATIONS))('has an operation for every route the app serves, and a route for every operation, with %s', (_name, env) => {
    const { app, config } = buildTestApp(env);
    const operations = documentedOperations(apiDocument(config)).map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    expect(operations.sort()).toEqual(servedRoutes(app).filter((route) => !isPage(route)));
  });

  test('is built once per configuration it describes, frozen, and anew when a described setting differs', () => {
    const document = apiDocument(buildTestApp({}).config);
    expect(apiDocument(buildTestApp({ LOG_LEVEL: 'silent' }).config)).toBe(document);
    expect(Object.isFrozen(document.paths)).toBe(true);
    const withAdmin = apiDocument(buildTestApp({ ADMIN_TOKEN }).config);
    expect(withAdmin).not.toBe(document);
    expect(Object.keys(withAdmin.paths ?? {}).some((route) => route.startsWith('/admin'))).toBe(true);
    expect(apiDocument(buildTestApp({ ADMIN_TOKEN: `${ADMIN_TOKEN}-another` }).config)).toBe(withAdmin);
  });

  test('sends "Try it out" to the server that serves it: "/" by default', () => {
    const document = apiDocument(buildTestApp({}).config);
    expect(document.servers).toEqual([{ url: '/', description: 'This server' }]);
    expect(document.tags?.find(({ name }) => name === 'Survey web service')?.externalDocs).toEqual({
      url: '/survey?wsdl',
      description: 'The WSDL of svcEval: the contract of the SOAP service',
    });
  });

  test('sends "Try it out" to PUBLIC_URL when it is set, and links the WSDL there', () => {
    const document = apiDocument(buildTestApp(CONFIGURATIONS['PUBLIC_URL, METRICS_TOKEN and other paths']).config);
    expect(document.servers).toEqual([{ url: 'https://reports.example.com/ivr', description: 'PUBLIC_URL' }]);
    const wsdl = { url: 'https://reports.example.com/ivr/soap?wsdl', description: 'The WSDL of svcEval: the contract of the SOAP service' };
    expect(document.paths?.['/soap']?.post?.externalDocs).toEqual(wsdl);
    expect(document.paths?.['/soap']?.get?.externalDocs).toEqual(wsdl);
    const plumEvalWsdl = { url: 'https://reports.example.com/ivr/soap/plum?wsdl', description: 'The WSDL of plumEval: the contract of the SOAP service' };
    expect(document.paths?.['/soap/plum']?.post?.externalDocs).toEqual(plumEvalWsdl);
    expect(document.paths?.['/soap/plum']?.get?.externalDocs).toEqual(plumEvalWsdl);
  });

  test('secures the raw-data resources with Basic and the admin API with Bearer, and leaves the rest open', () => {
    const document = apiDocument(buildTestApp({ ADMIN_TOKEN }).config);
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
    const document = apiDocument(buildTestApp({}).config);
    expect(Object.keys(document.paths ?? {}).filter((path) => path.startsWith('/admin'))).toEqual([]);
    expect(Object.keys(document.components?.securitySchemes ?? {})).toEqual(['basicAuth']);
  });

  test('documents a 401 with its WWW-Authenticate challenge, and the rate-limit headers, where the server sends them', () => {
    const document = apiDocument(buildTestApp({ ADMIN_TOKEN }).config);
    const events = document.paths?.['/api/events/{start}/{end}/{period}/{phone}']?.get?.responses;
    expect(Object.keys(events ?? {})).toEqual(['200', '304', '400', '401', '429', '500']);
    expect(Object.keys(events?.['401']?.headers ?? {})).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'WWW-Authenticate']);
    expect(Object.keys(events?.['200']?.headers ?? {})).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'ETag']);
    expect(Object.keys(events?.['429']?.headers ?? {})).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']);
    expect(Object.keys(events?.['400']?.content ?? {})).toEqual(['application/json', 'application/xml']);
    const accounts = document.paths?.['/admin/accounts']?.get?.responses;
    expect(Object.keys(accounts?.['401']?.headers ?? {})).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'WWW-Authenticate']);
    expect(accounts?.['401']?.headers?.['WWW-Authenticate']).toEqual({ $ref: '#/components/headers/WWW-Authenticate-Bearer' });
    expect(Object.keys(accounts?.['401']?.content ?? {})).toEqual(['application/json']);
  });
});

describe('GET /openapi.json', () => {
  test('serves the document the server built, as JSON revalidated on every use, counted by no limit group', async () => {
    const { app, config } = buildTestApp({ ADMIN_TOKEN, AUTH_RATE_LIMIT: '1', DATA_RATE_LIMIT: '1', ADMIN_RATE_LIMIT: '1' });
    const server = await serve(app);
    try {
      for (const attempt of [1, 2, 3]) {
        const response = await request(server.url).get('/openapi.json');
        expect({ attempt, status: response.status }).toEqual({ attempt, status: 200 });
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(response.headers['cache-control']).toBe('no-cache');
        expect(response.headers['x-ratelimit-limit']).toBeUndefined();
        expect(response.body).toEqual(JSON.parse(JSON.stringify(apiDocument(config))));
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
