import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderWsdl } from '../../src/survey/soap/wsdl';
import { codeBlocks, markdownSection, sectionRun } from '../support/doc-section';
import { responseBody } from '../survey-clients/support';

const doc = readFileSync(path.join(__dirname, '..', '..', 'docs', 'survey-web-service.md'), 'utf8');

/** The first fenced xml block after a heading. */
function xmlAfter(heading: string): string {
  const section = doc.slice(doc.indexOf(heading));
  const block = /```xml\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error(`no xml block after ${heading}`);
  return block;
}

test('the WSDL in docs/survey-web-service.md is the one the server renders', () => {
  expect(xmlAfter('## The WSDL')).toBe(renderWsdl('https://surveys.example.com/survey', 'svcEval'));
});

test("plumEval's messages in docs/survey-web-service.md are those the server renders, at the address it names", () => {
  const plumEvalWsdl = renderWsdl('https://surveys.example.com/survey/plum', 'plumEval');
  expect(plumEvalWsdl).toContain(xmlAfter("`plumEval`'s (`GET /survey/plum?wsdl`)"));
  expect(plumEvalWsdl).toContain('<soap:address location="https://surveys.example.com/survey/plum"/>');
});

test('the answer in docs/survey-web-service.md is the one the server sends', () => {
  const answers = doc.slice(doc.indexOf('The answer, `200`'));
  expect(xmlAfter('The answer, `200`').trim()).toBe(responseBody('accepted'));
  expect(answers).toContain('Set-Cookie: survey_session=');
});

const rest = sectionRun('survey-rest-doc-');

test("the REST twin's example, run as written beside a recording, is answered as the sample answers", async () => {
  const blocks = codeBlocks(markdownSection(doc, 'The REST twin', 'docs/survey-web-service.md'), 'sh');
  expect(blocks).toHaveLength(1);
  // The recording it sends, in the folder it runs in: a WAV header and silence.
  writeFileSync(path.join(rest.workDir(), 'message.wav'), Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x0c, 4, 0, 0]), Buffer.from('WAVEfmt '), Buffer.alloc(1028)]));
  const base = await rest.start({}).listening();
  expect(await rest.bash(blocks[0]!, { 'http://127.0.0.1:3000': base })).toBe('accepted');
});
