import { ConfigError, loadConfig } from '../../src/config/config';

describe('the survey web service configuration', () => {
  test('defaults: /survey, 10 MiB bodies, the sample handler, sessions idle for an hour, handlers given 10 s', () => {
    expect(loadConfig({})).toMatchObject({
      soapPath: '/survey',
      soapMaxBytes: 10_485_760,
      surveyHandler: undefined,
      surveySessionTtlSeconds: 3600,
      surveyHandlerTimeoutSeconds: 10,
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
      }),
    ).toMatchObject({
      soapPath: '/ivr/svc-eval',
      soapMaxBytes: 2048,
      surveyHandler: 'handlers/score.js',
      surveySessionTtlSeconds: 60,
      surveyHandlerTimeoutSeconds: 3,
    });
  });

  test.each([
    ['SOAP_PATH', 'survey', 'must be a path such as /survey'],
    ['SOAP_PATH', '/survey/:id', 'must be a path such as /survey'],
    ['SOAP_PATH', '/api/survey', 'must not be under /api or /admin, the paths of the reporting and admin APIs'],
    ['SOAP_PATH', '/admin', 'must not be under /api or /admin, the paths of the reporting and admin APIs'],
    ['SOAP_MAX_BYTES', '0', 'Too small: expected number to be >=1'],
    ['SOAP_MAX_BYTES', '10MB', 'must be a whole number'],
    ['SURVEY_SESSION_TTL_SECONDS', '-5', 'must be a whole number'],
    ['SURVEY_HANDLER_TIMEOUT_SECONDS', '0', 'Too small: expected number to be >=1'],
  ])('stops with a message naming %s when it is %s', (name, value, problem) => {
    const loading = () => loadConfig({ [name]: value });
    expect(loading).toThrow(ConfigError);
    expect(loading).toThrow(`${name}=${JSON.stringify(value)}: ${problem}`);
  });
});
