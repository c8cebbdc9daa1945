import { ConfigError, loadConfig } from '../config/config';

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
      sessionTtlSeconds: 3600,
      handlerTimeoutSeconds: 10,
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
        sessionTtlSeconds: 60,
        handlerTimeoutSeconds: 3,
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

  const RESERVED =
    "must not be one of the server's own paths or under them: /api, /admin, /docs, /openapi.json, /dashboard, /inspector, /healthz, /readyz, /metrics";

  test.each([
    ['SOAP_PATH', 'survey', 'must be a path such as /survey'],
    ['SOAP_PATH', '/survey/:id', 'must be a path such as /survey'],
    ['SOAP_PATH', '/api/survey', RESERVED],
    ['SOAP_PATH', '/admin', RESERVED],
    ['SOAP_PATH', '/docs', RESERVED],
    ['SOAP_PATH', '/openapi.json', RESERVED],
    ['SOAP_PATH', '/dashboard/survey', RESERVED],
    ['SOAP_PATH', '/healthz', RESERVED],
    ['SOAP_PATH', '/readyz', RESERVED],
    ['SOAP_PATH', '/metrics/', RESERVED],
    ['SOAP_MAX_BYTES', '0', 'must be a whole number of at least 1'],
    ['SOAP_MAX_BYTES', '10MB', 'must be a whole number'],
    ['SURVEY_SESSION_TTL_SECONDS', '-5', 'must be a whole number'],
    ['SURVEY_HANDLER_TIMEOUT_SECONDS', '0', 'must be a whole number from 1 to 3600'],
    ['SURVEY_REST_PATH', '/survey', 'must differ from SOAP_PATH'],
    ['SURVEY_REST_PATH', '/api/rest', RESERVED],
    ['SURVEY_PLUM_PATH', '/survey', 'must differ from SOAP_PATH and SURVEY_REST_PATH'],
    ['SURVEY_PLUM_PATH', '/survey/rest', 'must differ from SOAP_PATH and SURVEY_REST_PATH'],
    ['SURVEY_PLUM_PATH', '/metrics/plum', RESERVED],
    ['SURVEY_MAX_SESSIONS', '0', 'must be a whole number of at least 1'],
    ['SURVEY_RATE_LIMIT', 'lots', 'must be a whole number'],
    ['SURVEY_MAX_DEPTH', '4', 'must be a whole number from 5 to 1000'],
    ['SURVEY_MAX_ITEMS', '0', 'must be a whole number of at least 1'],
    ['SURVEY_MAX_ATTRIBUTES', '5', 'must be a whole number of at least 6'],
    ['SURVEY_MAX_TEXT_LENGTH', '0', 'must be a whole number of at least 1'],
  ])('stops with a message naming %s when it is %s', (name, value, problem) => {
    const loading = () => loadConfig({ [name]: value });
    expect(loading).toThrow(ConfigError);
    expect(loading).toThrow(`${name}=${JSON.stringify(value)}: ${problem}`);
  });
});
