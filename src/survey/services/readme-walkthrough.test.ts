import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServerProcess, type ServerProcess } from '../../../test/support/server-process';
import { requirePhpSoap } from '../../../test/survey-clients/support';

/*
 * The README's "Developing a survey service", the done-when of several services: a rules file written
 * without code, served beside the sample as a second service, called with PHP's SoapClient and the REST
 * form, its calls seen in the call inspector; every command run verbatim.
 */

const run = promisify(execFile);
const README = readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
const SECTION_START = README.indexOf('## Developing a survey service\n');
const SECTION = README.slice(SECTION_START, README.indexOf('\n## ', SECTION_START + 3));
const DOCUMENTED_BASE = 'http://127.0.0.1:3000';
const DOCUMENTED_FOLDER = '/tmp/my-surveys';

const shBlocks = [...SECTION.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');

let server: ServerProcess | undefined;
let workDir: string;

beforeAll(requirePhpSoap);

beforeEach(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'survey-services-readme-'));
});

afterEach(async () => {
  rmSync(workDir, { recursive: true, force: true });
  if (server !== undefined && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited();
  }
  server = undefined;
});

/** Runs a block with the server's address and the test's own folder in place of the documented ones. */
async function bash(script: string, base: string): Promise<string> {
  const own = script.replaceAll(DOCUMENTED_BASE, base).replaceAll(DOCUMENTED_FOLDER, path.join(workDir, 'my-surveys'));
  return (await run('bash', ['-c', own], { cwd: workDir })).stdout;
}

interface InspectedCall {
  service: string;
  path: string;
  flavour: string;
  parts: { answers: unknown[] };
  outcome: unknown;
}

test('the files written as the section says, served as it starts them, answer the PHP and curl calls as it says, and the inspector shows them', async () => {
  expect(SECTION_START).toBeGreaterThan(0);
  const [writeFiles = '', start = '', php = '', rest = '', inspect = ''] = shBlocks;
  expect(shBlocks).toHaveLength(5);
  await bash(writeFiles, DOCUMENTED_BASE);

  const command = /^SURVEY_SERVICES=(\S+) ADMIN_TOKEN=(\S+) SURVEY_RELOAD=(true) npm start\n$/.exec(start);
  expect(command).not.toBeNull();
  expect(command?.[1]).toBe(`${DOCUMENTED_FOLDER}/services.yaml`);
  server = startServerProcess({ SURVEY_SERVICES: path.join(workDir, 'my-surveys', 'services.yaml'), ADMIN_TOKEN: command?.[2], SURVEY_RELOAD: command?.[3] });
  const base = await server.listening();

  expect(await bash(php, base)).toBe('accepted\naccepted again\nrecording saved\nrejected\n');
  expect(await bash(rest, base)).toBe('accepted');

  const shown = JSON.parse(await bash(inspect, base)) as { capacity: number; calls: InspectedCall[] };
  expect(shown.capacity).toBe(200);
  expect(shown.calls.map(({ service, path: callPath, flavour, outcome }) => [service, callPath, flavour, outcome])).toEqual([
    ['consent', '/survey/consent/rest', 'rest', { answer: 'accepted' }],
    ['consent', '/survey/consent', 'svcEval', { answer: 'recording saved' }],
    ['consent', '/survey/consent', 'svcEval', { answer: 'accepted again' }],
    ['consent', '/survey/consent', 'svcEval', { answer: 'accepted' }],
  ]);
  expect(shown.calls[1]?.parts.answers).toEqual([{ recording: { size: 1044, type: 'audio/wav', first_bytes: '524946460c04000057415645666d7420' } }]);
});
