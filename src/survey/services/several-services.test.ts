import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { admin, ADMIN_TOKEN } from '../../../test/support/admin';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { faultBody, plumEval, post, responseBody, svcEval } from '../../../test/survey-clients/support';

/*
 * Several survey services on one server (SURVEY_SERVICES): each answers at its own paths with its own
 * logic, WSDL address, cookie and sessions, and only the flavours it lists.
 */

const CONSENT_RULES = path.join(__dirname, '..', '..', '..', 'examples', 'survey-services', 'consent.yaml');

let folder: string;
let server: TestServer;

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'several-services-'));
});

afterEach(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

async function startWith(services: string, env: NodeJS.ProcessEnv = {}): Promise<TestServer> {
  const file = path.join(folder, 'services.yaml');
  writeFileSync(file, services);
  server = await startTestServer({ SURVEY_SERVICES: file, ...env });
  return server;
}

const SAMPLE_AND_CONSENT = ['services:', '  - name: sample', '    path: /survey', '  - name: consent', `    handler: ${JSON.stringify(CONSENT_RULES)}`].join('\n');

function form(questionTexts: readonly string[], answers: readonly string[], fields: Record<string, string> = {}): Record<string, unknown> {
  return { 'question_texts[]': questionTexts, 'answers[]': answers, ...fields };
}

/** The `name=value` of the cookie a response sets, and its attributes. */
function cookieOf(response: request.Response): { pair: string; attributes: string } {
  const [cookie] = response.get('Set-Cookie') ?? [];
  const [pair = '', ...attributes] = (cookie ?? '').split('; ');
  return { pair, attributes: attributes.join('; ') };
}

describe('several survey services', () => {
  test("each WSDL advertises its own service's address", async () => {
    await startWith(SAMPLE_AND_CONSENT);
    for (const wsdlPath of ['/survey', '/survey/plum', '/survey/consent', '/survey/consent/plum']) {
      const response = await request(server.url).get(`${wsdlPath}?wsdl`);
      expect(response.status).toBe(200);
      expect(response.text).toContain(`<soap:address location="${server.url}${wsdlPath}"/>`);
    }
  });

  test('each answers with its own logic over SOAP and the REST form', async () => {
    await startWith(SAMPLE_AND_CONSENT);
    const answers = await Promise.all([
      post(server.url, svcEval(['Agree?'], ['Yes']), {}, '/survey'),
      post(server.url, svcEval(['Agree?'], ['Yes']), {}, '/survey/consent'),
      request(server.url).post('/survey/rest').type('form').send(form(['Agree?'], ['Yes'])),
      request(server.url).post('/survey/consent/rest').type('form').send(form(['Agree?'], ['Yes'])),
    ]);
    expect(answers.map((response) => [response.status, response.text])).toEqual([
      [200, responseBody('rejected')],
      [200, responseBody('accepted')],
      [200, 'rejected'],
      [200, 'accepted'],
    ]);
  });

  test('each keeps its own sessions under its own cookie: a survey continued on one is new on the other', async () => {
    await startWith(SAMPLE_AND_CONSENT);
    const sample = await post(server.url, svcEval(['Agree?'], ['yes']), {}, '/survey');
    const sampleCookie = cookieOf(sample);
    expect(sampleCookie.pair).toMatch(/^survey_session_sample=[0-9a-f]{32}$/);
    expect(sampleCookie.attributes).toBe('Path=/survey; HttpOnly; SameSite=Lax');

    const consent = await post(server.url, svcEval(['Agree?'], ['yes']), {}, '/survey/consent');
    const consentCookie = cookieOf(consent);
    expect(consentCookie.pair).toMatch(/^survey_session_consent=[0-9a-f]{32}$/);
    expect(consentCookie.attributes).toBe('Path=/survey/consent; HttpOnly; SameSite=Lax');

    // A client under both paths sends both cookies; each service reads its own.
    const both = { Cookie: `${consentCookie.pair}; ${sampleCookie.pair}` };
    expect((await post(server.url, svcEval(['Agree?'], ['yes']), both, '/survey')).text).toBe(responseBody('accepted again'));
    expect((await post(server.url, svcEval(['Agree?'], ['yes']), both, '/survey/consent')).text).toBe(responseBody('accepted again'));

    // One service's session id under the other's cookie name is not a survey there: it starts a new one.
    const sampleId = sampleCookie.pair.split('=')[1] ?? '';
    const borrowed = await post(server.url, svcEval(['Agree?'], ['yes']), { Cookie: `survey_session_consent=${sampleId}` }, '/survey/consent');
    expect(borrowed.text).toBe(responseBody('accepted'));
    expect(cookieOf(borrowed).pair).not.toBe(`survey_session_consent=${sampleId}`);
  });

  test("the same session_id part names a different survey on each service", async () => {
    await startWith(SAMPLE_AND_CONSENT);
    const call = (servicePath: string) => post(server.url, plumEval(['Agree?'], ['yes'], { session_id: 'respondent-7' }), {}, servicePath);
    expect((await call('/survey/plum')).text).toBe(responseBody('accepted', 'plumEval'));
    expect((await call('/survey/consent/plum')).text).toBe(responseBody('accepted', 'plumEval'));
    expect((await call('/survey/plum')).text).toBe(responseBody('accepted again', 'plumEval'));
    expect((await call('/survey/consent/plum')).text).toBe(responseBody('accepted again', 'plumEval'));
  });

  test('a service answers only the flavours it lists: the paths of the others are not its, and a SOAP call of another operation is a soap:Client fault', async () => {
    await startWith(['services:', '  - name: forms', '    flavours: [rest]', '  - name: plain', '    flavours: [svcEval]'].join('\n'));
    expect((await request(server.url).post('/survey/forms/rest').type('form').send(form(['Agree?'], ['yes']))).text).toBe('accepted');
    expect((await request(server.url).get('/survey/forms?wsdl')).status).toBe(404);
    expect((await post(server.url, svcEval(['Agree?'], ['yes']), {}, '/survey/forms')).status).toBe(404);
    expect((await request(server.url).get('/survey/plain/plum?wsdl')).status).toBe(404);
    expect((await request(server.url).post('/survey/plain/rest').type('form').send(form(['Agree?'], ['yes']))).status).toBe(404);

    const plum = await post(server.url, plumEval(['Agree?'], ['yes']), {}, '/survey/plain');
    expect(plum.status).toBe(500);
    expect(plum.text).toBe(faultBody('soap:Client', 'unknown operation plumEval; this service answers svcEval'));
    expect((await post(server.url, svcEval(['Agree?'], ['yes']), {}, '/survey/plain')).text).toBe(responseBody('accepted'));
  });

  test("the call inspector names each call's service and path, and shows one service's calls alone", async () => {
    await startWith(SAMPLE_AND_CONSENT, { ADMIN_TOKEN });
    await post(server.url, svcEval(['Agree?'], ['yes']), {}, '/survey');
    await request(server.url).post('/survey/consent/rest').type('form').send(form(['Agree?'], ['no']));
    const all = await admin(server.url).get('/admin/survey/calls');
    expect(all.status).toBe(200);
    expect((all.body as { calls: { service: string; path: string; flavour: string }[] }).calls.map(({ service, path: callPath, flavour }) => [service, callPath, flavour])).toEqual([
      ['consent', '/survey/consent/rest', 'rest'],
      ['sample', '/survey', 'svcEval'],
    ]);
    const consent = await admin(server.url).get('/admin/survey/calls?service=consent');
    expect((consent.body as { calls: { service: string; outcome: unknown }[] }).calls.map(({ service, outcome }) => [service, outcome])).toEqual([
      ['consent', { answer: 'rejected' }],
    ]);
  });

  test("with SURVEY_RELOAD=true a service's changed rules file answers its next call, the other service unchanged", async () => {
    const rules = path.join(folder, 'consent.yaml');
    writeFileSync(rules, 'rules: []\notherwise: first version\n');
    utimesSync(rules, 1_000_000, 1_000_000);
    await startWith(['services:', '  - name: sample', '    path: /survey', '  - name: consent', '    handler: consent.yaml'].join('\n'), { SURVEY_RELOAD: 'true' });
    const consentAnswer = async () => (await request(server.url).post('/survey/consent/rest').type('form').send(form(['Agree?'], ['yes']))).text;
    expect(await consentAnswer()).toBe('first version');
    writeFileSync(rules, 'rules: []\notherwise: second version\n');
    utimesSync(rules, 2_000_000, 2_000_000);
    expect(await consentAnswer()).toBe('second version');
    expect((await request(server.url).post('/survey/rest').type('form').send(form(['Agree?'], ['yes']))).text).toBe('accepted');
  });

  test("the API reference lists each service's operations, named after it", async () => {
    await startWith(['services:', '  - name: sample', '    path: /survey', '  - name: web-consent', '    flavours: [rest, plumEval]'].join('\n'));
    const document = (await request(server.url).get('/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string }>> };
    const surveyOperations = Object.entries(document.paths)
      .filter(([documentedPath]) => documentedPath.startsWith('/survey'))
      .flatMap(([documentedPath, operations]) => Object.entries(operations).map(([method, operation]) => `${method.toUpperCase()} ${documentedPath} ${operation.operationId}`));
    expect(surveyOperations.sort()).toEqual([
      'GET /survey getWsdlSample',
      'GET /survey/plum getPlumEvalWsdlSample',
      'GET /survey/web-consent/plum getPlumEvalWsdlWebConsent',
      'POST /survey svcEvalSample',
      'POST /survey/plum plumEvalSample',
      'POST /survey/rest svcEvalRestSample',
      'POST /survey/web-consent/plum plumEvalWebConsent',
      'POST /survey/web-consent/rest svcEvalRestWebConsent',
    ].sort());
  });
});
