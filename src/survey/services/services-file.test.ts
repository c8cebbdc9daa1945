import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../configuration';
import { ConfigError } from '../../config/config-error';

let folder: string;

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'survey-services-'));
});

afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** Writes a services file into the test's folder and returns its path. */
function servicesFile(text: string, name = 'services.yaml'): string {
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
}

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was taken');
}

describe('SURVEY_SERVICES, a file of survey services', () => {
  test('lists each service: its path /survey/{name} unless given, all three flavours unless given, its handler from the file\'s folder, its own cookie and sessions', () => {
    const file = servicesFile(
      [
        'services:',
        '  - name: sample',
        '    path: /survey/',
        '  - name: consent',
        '    flavours: [rest, svcEval]',
        '    handler: rules/consent.yaml',
      ].join('\n'),
    );
    const { survey } = loadConfig({ SURVEY_SERVICES: file });
    expect(survey.servicesFile).toBe(file);
    expect(survey.services).toEqual([
      {
        name: 'sample',
        soapPath: '/survey',
        plumPath: '/survey/plum',
        restPath: '/survey/rest',
        flavours: ['svcEval', 'plumEval', 'rest'],
        handler: undefined,
        sessionCookie: 'survey_session_sample',
        sessionScope: 'sample:',
      },
      {
        name: 'consent',
        soapPath: '/survey/consent',
        plumPath: '/survey/consent/plum',
        restPath: '/survey/consent/rest',
        flavours: ['rest', 'svcEval'],
        handler: { file: path.join(folder, 'rules', 'consent.yaml'), setting: `SURVEY_SERVICES=${JSON.stringify(file)} services[1].handler (consent)` },
        sessionCookie: 'survey_session_consent',
        sessionScope: 'consent:',
      },
    ]);
  });

  test('reads JSON as well', () => {
    const file = servicesFile('{"services": [{"name": "one", "path": "/ivr/one"}]}', 'services.json');
    expect(loadConfig({ SURVEY_SERVICES: file }).survey.services.map(({ name, soapPath }) => [name, soapPath])).toEqual([['one', '/ivr/one']]);
  });

  test('the example file, the sample beside a rules file, is taken', () => {
    const file = path.join(__dirname, '..', '..', '..', 'examples', 'survey-services', 'services.yaml');
    expect(loadConfig({ SURVEY_SERVICES: file }).survey.services.map(({ name, soapPath, handler }) => [name, soapPath, handler?.file])).toEqual([
      ['sample', '/survey', undefined],
      ['consent', '/survey/consent', path.join(path.dirname(file), 'consent.yaml')],
    ]);
  });

  test.each([
    ['a name that is not one', 'services:\n  - name: Consent Form\n', 'line 2, column 11: services[0].name: must be 1 to 40 lowercase letters, digits or -, such as consent'],
    ['a name twice', 'services:\n  - name: one\n  - name: one\n', 'line 3, column 11: services[1].name: is the name of services[0] too'],
    [
      'a path that is another service\'s REST path',
      'services:\n  - name: one\n    path: /ivr\n  - name: two\n    path: /IVR/rest\n',
      'line 5, column 11: services[1].path: makes /IVR/rest a path of two services (one answers there)',
    ],
    ['a path of the server\'s own', 'services:\n  - name: one\n    path: /api/one\n', "line 3, column 11: services[0].path: is under the server's own /api (the reporting API)"],
    [
      'a flavour it does not know',
      'services:\n  - name: one\n    flavours: [svcEval, soap]\n',
      'line 3, column 25: services[0].flavours[1]: must be one of svcEval, plumEval, rest',
    ],
    ['no flavour', 'services:\n  - name: one\n    flavours: []\n', 'line 3, column 15: services[0].flavours: must list at least one of svcEval, plumEval, rest'],
    ['a key it does not know', 'services:\n  - name: one\n    handlers: x.js\n', 'line 3, column 5: services[0]: unknown key "handlers"; use name, path, flavours or handler'],
    ['no service', 'services: []\n', 'line 1, column 11: services: must list at least one service'],
    ['YAML that is not: a [ left open, named where it opens', 'services:\n  - name: [one\n', 'line 2, column 11: not valid YAML: this [ is never closed with a ]'],
  ])('stops the start naming the line and the mistake: %s', (_case, text, mistake) => {
    const file = servicesFile(text);
    expect(refusal({ SURVEY_SERVICES: file })).toContain(`invalid configuration: SURVEY_SERVICES=${JSON.stringify(file)}: ${mistake}`);
  });

  const OTHER_CASE = 'in another letter case, which Express routes alike';
  const EMPTY_SEGMENT = 'must not have an empty segment (//): proxies merge the slashes, and the calls would not reach it';
  const dotSegment = (path: string, called: string) => `must not have a . or .. segment: clients resolve it before they send, so ${path} is called as ${called}`;

  describe.each([
    ['/Inspector', `is the server's own /inspector (the call inspector's page) ${OTHER_CASE}`],
    ['/DOCS', `is the server's own /docs (the API reference) ${OTHER_CASE}`],
    ['/ADMIN', `is the server's own /admin (the admin API) ${OTHER_CASE}`],
    ['/Healthz', `is the server's own /healthz (the liveness probe) ${OTHER_CASE}`],
    ['/docs/survey', "is under the server's own /docs (the API reference)"],
    ['/Admin/survey/', `is under the server's own /admin (the admin API) ${OTHER_CASE}`],
    ['/survey/../api', dotSegment('/survey/../api', '/api')],
    ['/..', dotSegment('/..', '/')],
    ['/x/.', dotSegment('/x/.', '/x/')],
    ['//x', EMPTY_SEGMENT],
    ['/x//y', EMPTY_SEGMENT],
  ])('a path %s', (servicePath, mistake) => {
    test('in YAML stops the start at its line and column', () => {
      const file = servicesFile(`services:\n  - name: one\n  - name: two\n    path: ${servicePath}\n`);
      expect(refusal({ SURVEY_SERVICES: file })).toBe(`invalid configuration: SURVEY_SERVICES=${JSON.stringify(file)}: line 4, column 11: services[1].path: ${mistake}`);
    });

    test('in JSON stops the start at its line and column', () => {
      const file = servicesFile(`{\n  "services": [\n    {"name": "one"},\n    {"name": "two", "path": ${JSON.stringify(servicePath)}}\n  ]\n}\n`, 'services.json');
      expect(refusal({ SURVEY_SERVICES: file })).toBe(`invalid configuration: SURVEY_SERVICES=${JSON.stringify(file)}: line 4, column 29: services[1].path: ${mistake}`);
    });
  });

  test('paths beside the server\'s own, in any letter case, and dots inside a segment are taken', () => {
    const file = servicesFile('services:\n  - name: one\n    path: /Surveys/API\n  - name: two\n    path: /apis/v1.2/\n  - name: three\n    path: /x/.../docs\n');
    expect(loadConfig({ SURVEY_SERVICES: file }).survey.services.map(({ soapPath }) => soapPath)).toEqual(['/Surveys/API', '/apis/v1.2', '/x/.../docs']);
  });

  test('a file that cannot be read stops the start naming it', () => {
    const file = path.join(folder, 'missing.yaml');
    expect(refusal({ SURVEY_SERVICES: file })).toMatch(
      new RegExp(`^invalid configuration: SURVEY_SERVICES=${JSON.stringify(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ENOENT`),
    );
  });

  test.each(['SOAP_PATH', 'SURVEY_REST_PATH', 'SURVEY_PLUM_PATH', 'SURVEY_HANDLER'])('%s beside it stops the start: the file says where each service is', (name) => {
    const file = servicesFile('services:\n  - name: one\n');
    expect(refusal({ SURVEY_SERVICES: file, [name]: name === 'SURVEY_HANDLER' ? 'handler.js' : '/elsewhere' })).toContain(
      `: is the single service's: with SURVEY_SERVICES, each service's path and handler are in the services file`,
    );
  });
});
