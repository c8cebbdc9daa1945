import path from 'node:path';
import { codeBlocks, docSection, fencedBlocks, sectionRun } from '../../../test/support/doc-section';
import { PHP_SOAP, requireForFile } from '../../../test/support/real-programs';

/*
 * docs/survey-web-service.md's "Developing a survey service", the done-when of several services: a rules file written
 * without code, served beside the sample as a second service, called with PHP's SoapClient and the REST
 * form, its calls seen in the call inspector; every command run verbatim.
 */

const SECTION = docSection('docs/survey-web-service.md', 'Developing a survey service');
const DOCUMENTED_BASE = 'http://127.0.0.1:3000';
const DOCUMENTED_FOLDER = '/tmp/my-surveys';

const section = sectionRun('survey-services-doc-');
/** Runs a block with the server's address and the test's own folder in place of the documented ones. */
const bash = (script: string, base: string) =>
  section.bash(script, { [DOCUMENTED_BASE]: base, [DOCUMENTED_FOLDER]: path.join(section.workDir(), 'my-surveys') });

requireForFile(PHP_SOAP);

interface InspectedCall {
  service: string;
  path: string;
  flavour: string;
  parts: { answers: unknown[] };
  outcome: unknown;
}

test('the files written as the section says, served as it starts them, answer the PHP and curl calls as it says, and the inspector shows them', async () => {
  const shBlocks = codeBlocks(SECTION, 'sh');
  expect(shBlocks).toHaveLength(5);
  expect(fencedBlocks(SECTION)).toHaveLength(5);
  const [writeFiles = '', start = '', php = '', rest = '', inspect = ''] = shBlocks;
  await bash(writeFiles, DOCUMENTED_BASE);

  const command = /^SURVEY_SERVICES=(\S+) ADMIN_TOKEN=(\S+) SURVEY_RELOAD=(true) npm start\n$/.exec(start);
  expect(command).not.toBeNull();
  expect(command?.[1]).toBe(`${DOCUMENTED_FOLDER}/services.yaml`);
  const server = section.start({ SURVEY_SERVICES: path.join(section.workDir(), 'my-surveys', 'services.yaml'), ADMIN_TOKEN: command?.[2], SURVEY_RELOAD: command?.[3] });
  const base = await server.listening();

  expect(await bash(php, base)).toBe('accepted\naccepted again\nrecording saved\nrejected\n');
  expect(await bash(rest, base)).toBe('accepted\naccepted\n');

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
