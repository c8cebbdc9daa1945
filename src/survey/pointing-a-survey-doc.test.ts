import request from 'supertest';
import { codeBlocks, docSection, fencedBlocks, sectionRun } from '../../test/support/doc-section';
import { post, svcEval, svcEvalResponseOf } from '../../test/survey-clients/support';
import { PHP_SOAP, requireForFile } from '../../test/support/real-programs';

/* docs/survey-web-service.md's "Pointing a survey at the web service": its commands must work verbatim against a server started as the page starts it. */

const SECTION = docSection('docs/survey-web-service.md', 'Pointing a survey at the web service');
const DOCUMENTED_BASE = 'http://127.0.0.1:3000';
const blocks = (language: string) => codeBlocks(SECTION, language);

const section = sectionRun('survey-doc-');
const bash = (script: string, base: string) => section.bash(script, { [DOCUMENTED_BASE]: base });

requireForFile(PHP_SOAP);

test('the section opens with its title and gives the WSDL addresses the server serves, plumEval first', async () => {
  expect(SECTION.startsWith('## Pointing a survey at the web service\n')).toBe(true);
  // The addresses, then seven commands: each run by a test below.
  expect(fencedBlocks(SECTION).map(({ language }) => language)).toEqual(['', 'sh', 'sh', 'sh', 'sh', 'sh', 'sh', 'sh']);
  const server = section.start({});
  const base = await server.listening();
  const [addresses] = blocks('');
  expect(addresses).toBe(`${DOCUMENTED_BASE}/survey/plum?wsdl\n${DOCUMENTED_BASE}/survey?wsdl\n`);
  const [plumEvalWsdl, svcEvalWsdl] = await Promise.all(
    (addresses ?? '').trim().split('\n').map((address) => request(base).get(address.replace(DOCUMENTED_BASE, ''))),
  );
  expect(plumEvalWsdl?.status).toBe(200);
  expect(plumEvalWsdl?.text).toContain('<operation name="plumEval">');
  expect(plumEvalWsdl?.text).toContain(`<soap:address location="${base}/survey/plum"/>`);
  expect(svcEvalWsdl?.status).toBe(200);
  expect(svcEvalWsdl?.text).toContain('<operation name="svcEval">');
  expect(svcEvalWsdl?.text).toContain(`<soap:address location="${base}/survey"/>`);
});

test('the PHP and curl commands, plumEval, svcEval and REST, print what the section says', async () => {
  const server = section.start({});
  const base = await server.listening();
  const [plumEvalPhp, php, curl, restCurl] = blocks('sh');
  expect(await bash(plumEvalPhp ?? '', base)).toBe('rejected\naccepted\naccepted again\n');
  expect(await bash(php ?? '', base)).toBe('accepted\naccepted again\n');
  expect(svcEvalResponseOf(await bash(curl ?? '', base))).toBe('accepted');
  expect(svcEvalResponseOf(await bash(curl ?? '', base))).toBe('accepted again');
  expect(await bash(restCurl ?? '', base)).toBe('accepted');
});

test('SURVEY_HANDLER as the section sets it runs the example handler, and its two pages print what the section says', async () => {
  const [, , , , startWithHandler, twoPages] = blocks('sh');
  const assignment = /^SURVEY_HANDLER=(\S+) npm start\n$/.exec(startWithHandler ?? '');
  expect(assignment).not.toBeNull();
  const server = section.start({ SURVEY_HANDLER: assignment?.[1] });
  const base = await server.listening();
  const reply = await post(base, svcEval(['Wait time (1-5)?', 'Agent (1-5)?'], ['5', '4']));
  expect(svcEvalResponseOf(reply.text)).toBe('promoter');
  expect(SECTION).toContain('print `promoter` (an average of 5), then `passive` (5 and 3, an average of 4).');
  expect(await bash(twoPages ?? '', base)).toBe('promoter\npassive\n');
});

test('SURVEY_HANDLER as the section sets it to the sample rules file answers as the built-in sample', async () => {
  const [, , , , , , startWithRules] = blocks('sh');
  const assignment = /^SURVEY_HANDLER=(\S+) npm start\n$/.exec(startWithRules ?? '');
  expect(assignment?.[1]).toMatch(/\.yaml$/);
  const server = section.start({ SURVEY_HANDLER: assignment?.[1] });
  const base = await server.listening();
  const first = await post(base, svcEval(['Agree?'], ['yes']));
  expect(svcEvalResponseOf(first.text)).toBe('accepted');
  const cookie = (first.headers['set-cookie'] as unknown as string[])[0]?.split(';')[0] ?? '';
  expect(svcEvalResponseOf((await post(base, svcEval(['Agree?'], ['no']), { Cookie: cookie })).text)).toBe('rejected');
  expect(svcEvalResponseOf((await post(base, svcEval(['Agree?'], ['yes']), { Cookie: cookie })).text)).toBe('accepted again');
});
