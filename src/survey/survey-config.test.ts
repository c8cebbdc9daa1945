import { loadConfig } from '../configuration';
import { ConfigError } from '../config/config-error';

describe('the survey web service configuration', () => {
  test('defaults: /survey, 10 MiB bodies, the sample handler, sessions idle for an hour, handlers given 10 s', () => {
    expect(loadConfig({}).survey).toMatchObject({
      services: [
        {
          name: 'survey',
          soapPath: '/survey',
          plumPath: '/survey/plum',
          restPath: '/survey/rest',
          flavours: ['svcEval', 'plumEval', 'rest'],
          handler: undefined,
          sessionCookie: 'survey_session',
          sessionScope: '',
        },
      ],
      servicesFile: undefined,
      maxBytes: 10_485_760,
      maxBytesHeld: 67_108_864,
      sessionTtlSeconds: 3600,
      evaluation: { timeoutSeconds: 10, maxResponseBytes: 10_485_760, maxStateBytes: 16_384 },
    });
  });

  test('takes every variable, dropping a trailing slash from SOAP_PATH', () => {
    expect(
      loadConfig({
        SOAP_PATH: '/ivr/svc-eval/',
        SOAP_MAX_BYTES: '2048',
        SURVEY_HANDLER: ' handlers/score.js ',
        SURVEY_SESSION_TTL_SECONDS: '60',
        SURVEY_HANDLER_TIMEOUT_SECONDS: '3',
        SURVEY_REST_PATH: '/forms/svc-eval/',
        SURVEY_PLUM_PATH: '/ivr/plum-eval/',
        SURVEY_MAX_SESSIONS: '500',
        SURVEY_RATE_LIMIT: '60',
        SURVEY_MAX_DEPTH: '8',
        SURVEY_MAX_ELEMENTS: '100',
        SURVEY_MAX_ITEMS: '10',
        SURVEY_MAX_ATTRIBUTES: '7',
        SURVEY_MAX_TEXT_LENGTH: '1000',
        SURVEY_MAX_STATE_BYTES: '4096',
        SURVEY_MAX_BYTES_HELD: '8192',
      }),
    ).toMatchObject({
      survey: {
        services: [
          {
            soapPath: '/ivr/svc-eval',
            restPath: '/forms/svc-eval',
            plumPath: '/ivr/plum-eval',
            handler: { file: 'handlers/score.js', setting: 'SURVEY_HANDLER="handlers/score.js"' },
          },
        ],
        maxBytes: 2048,
        maxBytesHeld: 8192,
        sessionTtlSeconds: 60,
        evaluation: { timeoutSeconds: 3, maxResponseBytes: 2048, maxStateBytes: 4096 },
        maxSessions: 500,
        messageLimits: { maxDepth: 8, maxElements: 100, maxItems: 10, maxAttributes: 7, maxTextLength: 1000 },
      },
      rateLimits: { survey: 60 },
    });
  });

  test('serves the REST twin under SOAP_PATH unless SURVEY_REST_PATH says otherwise', () => {
    expect(loadConfig({ SOAP_PATH: '/ivr' }).survey.services[0]?.restPath).toBe('/ivr/rest');
  });

  test('serves plumEval under SOAP_PATH unless SURVEY_PLUM_PATH says otherwise', () => {
    expect(loadConfig({ SOAP_PATH: '/ivr' }).survey.services[0]?.plumPath).toBe('/ivr/plum');
  });

  test.each([
    ['SOAP_PATH', 'survey', 'must be a path such as /survey'],
    ['SOAP_PATH', '/survey/:id', 'must be a path such as /survey'],
    ['SOAP_PATH', '/', 'must be a path such as /survey'],
    ['SOAP_PATH', '/api/survey', "is under the server's own /api (the reporting API)"],
    ['SOAP_PATH', '/admin', "is the server's own /admin (the admin API)"],
    ['SOAP_PATH', '/ADMIN', "is the server's own /admin (the admin API) in another letter case, which Express routes alike"],
    ['SOAP_PATH', '/Admin/survey', "is under the server's own /admin (the admin API) in another letter case, which Express routes alike"],
    ['SOAP_PATH', '/docs', "is the server's own /docs (the API reference)"],
    ['SOAP_PATH', '/DOCS', "is the server's own /docs (the API reference) in another letter case, which Express routes alike"],
    ['SOAP_PATH', '/docs/survey', "is under the server's own /docs (the API reference)"],
    ['SOAP_PATH', '/openapi.json', "is the server's own /openapi.json (the OpenAPI document)"],
    ['SOAP_PATH', '/dashboard/survey', "is under the server's own /dashboard (the dashboard's files)"],
    ['SOAP_PATH', '/Inspector', "is the server's own /inspector (the call inspector's page) in another letter case, which Express routes alike"],
    ['SOAP_PATH', '/healthz', "is the server's own /healthz (the liveness probe)"],
    ['SOAP_PATH', '/Healthz', "is the server's own /healthz (the liveness probe) in another letter case, which Express routes alike"],
    ['SOAP_PATH', '/readyz', "is the server's own /readyz (the readiness probe)"],
    ['SOAP_PATH', '/metrics/', "is the server's own /metrics (the metrics)"],
    ['SOAP_PATH', '/survey/../api', 'must not have a . or .. segment: clients resolve it before they send, so /survey/../api is called as /api'],
    ['SOAP_PATH', '/..', 'must not have a . or .. segment: clients resolve it before they send, so /.. is called as /'],
    ['SOAP_PATH', '/x/.', 'must not have a . or .. segment: clients resolve it before they send, so /x/. is called as /x/'],
    ['SOAP_PATH', '//x', 'must not have an empty segment (//): proxies merge the slashes, and the calls would not reach it'],
    ['SOAP_PATH', '/x//y', 'must not have an empty segment (//): proxies merge the slashes, and the calls would not reach it'],
    ['SOAP_PATH', '/x//', 'must not have an empty segment (//): proxies merge the slashes, and the calls would not reach it'],
    ['SOAP_MAX_BYTES', '0', 'must be a whole number of at least 1'],
    ['SOAP_MAX_BYTES', '10MB', 'must be a whole number of at least 1'],
    ['SURVEY_SESSION_TTL_SECONDS', '-5', 'must be a whole number of at least 1'],
    ['SURVEY_HANDLER_TIMEOUT_SECONDS', '0', 'must be a whole number from 1 to 3600'],
    ['SURVEY_REST_PATH', '/survey', 'must differ from SOAP_PATH, in any letter case'],
    ['SURVEY_REST_PATH', '/Survey/', 'must differ from SOAP_PATH, in any letter case'],
    ['SURVEY_REST_PATH', '/api/rest', "is under the server's own /api (the reporting API)"],
    ['SURVEY_REST_PATH', '/Healthz', "is the server's own /healthz (the liveness probe) in another letter case, which Express routes alike"],
    ['SURVEY_REST_PATH', '/forms/./rest', 'must not have a . or .. segment: clients resolve it before they send, so /forms/./rest is called as /forms/rest'],
    ['SURVEY_REST_PATH', '/forms//rest', 'must not have an empty segment (//): proxies merge the slashes, and the calls would not reach it'],
    ['SURVEY_PLUM_PATH', '/survey', 'must differ from SOAP_PATH and SURVEY_REST_PATH, in any letter case'],
    ['SURVEY_PLUM_PATH', '/survey/rest', 'must differ from SOAP_PATH and SURVEY_REST_PATH, in any letter case'],
    ['SURVEY_PLUM_PATH', '/SURVEY/REST', 'must differ from SOAP_PATH and SURVEY_REST_PATH, in any letter case'],
    ['SURVEY_PLUM_PATH', '/metrics/plum', "is under the server's own /metrics (the metrics)"],
    ['SURVEY_PLUM_PATH', '/DOCS', "is the server's own /docs (the API reference) in another letter case, which Express routes alike"],
    ['SURVEY_PLUM_PATH', '/..', 'must not have a . or .. segment: clients resolve it before they send, so /.. is called as /'],
    ['SURVEY_PLUM_PATH', '//x', 'must not have an empty segment (//): proxies merge the slashes, and the calls would not reach it'],
    ['SURVEY_MAX_SESSIONS', '0', 'must be a whole number of at least 1'],
    ['SURVEY_RATE_LIMIT', 'lots', 'must be a whole number of at least 1'],
    ['SURVEY_MAX_DEPTH', '4', 'must be a whole number from 5 to 1000'],
    ['SURVEY_MAX_ITEMS', '0', 'must be a whole number of at least 1'],
    ['SURVEY_MAX_ATTRIBUTES', '5', 'must be a whole number of at least 6'],
    ['SURVEY_MAX_TEXT_LENGTH', '0', 'must be a whole number of at least 1'],
    ['SURVEY_MAX_STATE_BYTES', '63', 'must be a whole number of at least 64'],
    ['SURVEY_MAX_BYTES_HELD', '10485759', 'must be at least SOAP_MAX_BYTES: a call of the largest size must fit'],
  ])('stops with a message naming %s when it is %s', (name, value, problem) => {
    const loading = () => loadConfig({ [name]: value });
    expect(loading).toThrow(new ConfigError(`invalid configuration: ${name}=${JSON.stringify(value)}: ${problem}`));
  });

  test('takes paths that only begin like the server\'s own, or hold dots inside a segment', () => {
    const service = loadConfig({ SOAP_PATH: '/apis', SURVEY_REST_PATH: '/docsx/rest', SURVEY_PLUM_PATH: '/survey/admin/.../v1.2' }).survey.services[0];
    expect(service).toMatchObject({ soapPath: '/apis', restPath: '/docsx/rest', plumPath: '/survey/admin/.../v1.2' });
  });
});
