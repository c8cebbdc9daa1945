import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { startServerProcess, type ServerProcess } from '../../test/support/server-process';
import { post, svcEval, svcEvalResponseOf, requirePhpSoap } from '../../test/survey-clients/support';

/* The README's "Pointing a survey at the web service": its commands must work verbatim against a server started as the README starts it. */

const run = promisify(execFile);
const README = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
const SECTION_START = README.indexOf('## Pointing a survey at the web service');
const SECTION = README.slice(SECTION_START, README.indexOf('\n## ', SECTION_START + 3));
const DOCUMENTED_BASE = 'http://127.0.0.1:3000';

const blocks = (language: string) =>
  [...SECTION.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1] ?? '');

let server: ServerProcess | undefined;
let workDir: string;

beforeAll(requirePhpSoap);

beforeEach(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'survey-readme-'));
});

afterEach(async () => {
  rmSync(workDir, { recursive: true, force: true });
  if (server !== undefined && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited();
  }
  server = undefined;
});

async function bash(script: string, base: string): Promise<string> {
  return (await run('bash', ['-c', script.replaceAll(DOCUMENTED_BASE, base)], { cwd: workDir })).stdout;
}

test('the section opens with its title and gives the WSDL addresses the server serves, plumEval first', async () => {
  expect(SECTION.startsWith('## Pointing a survey at the web service\n')).toBe(true);
  server = startServerProcess({});
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
  server = startServerProcess({});
  const base = await server.listening();
  const [plumEvalPhp, php, curl, restCurl] = blocks('sh');
  expect(await bash(plumEvalPhp ?? '', base)).toBe('rejected\naccepted\naccepted again\n');
  expect(await bash(php ?? '', base)).toBe('accepted\naccepted again\n');
  expect(svcEvalResponseOf(await bash(curl ?? '', base))).toBe('accepted');
  expect(svcEvalResponseOf(await bash(curl ?? '', base))).toBe('accepted again');
  expect(await bash(restCurl ?? '', base)).toBe('accepted');
});

test('SURVEY_HANDLER as the section sets it runs the example handler', async () => {
  const [, , , , startWithHandler] = blocks('sh');
  const assignment = /^SURVEY_HANDLER=(\S+) npm start\n$/.exec(startWithHandler ?? '');
  expect(assignment).not.toBeNull();
  server = startServerProcess({ SURVEY_HANDLER: assignment?.[1] });
  const reply = await post(await server.listening(), svcEval(['Wait time (1-5)?', 'Agent (1-5)?'], ['5', '4']));
  expect(svcEvalResponseOf(reply.text)).toBe('promoter');
});

test('SURVEY_HANDLER as the section sets it to the sample rules file answers as the built-in sample', async () => {
  const [, , , , , startWithRules] = blocks('sh');
  const assignment = /^SURVEY_HANDLER=(\S+) npm start\n$/.exec(startWithRules ?? '');
  expect(assignment?.[1]).toMatch(/\.yaml$/);
  server = startServerProcess({ SURVEY_HANDLER: assignment?.[1] });
  const base = await server.listening();
  const first = await post(base, svcEval(['Agree?'], ['yes']));
  expect(svcEvalResponseOf(first.text)).toBe('accepted');
  const cookie = (first.headers['set-cookie'] as unknown as string[])[0]?.split(';')[0] ?? '';
  expect(svcEvalResponseOf((await post(base, svcEval(['Agree?'], ['no']), { Cookie: cookie })).text)).toBe('rejected');
  expect(svcEvalResponseOf((await post(base, svcEval(['Agree?'], ['yes']), { Cookie: cookie })).text)).toBe('accepted again');
});
