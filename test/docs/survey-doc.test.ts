import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { parse } from 'yaml';
import { docSection, fencedBlocks, ROOT, type FencedBlock } from '../support/doc-section';
import { describeWith, PHP_SOAP } from '../support/real-programs';
import { NO_DEMO_DATA, startServerProcess, stopIfRunning, type ServerProcess } from '../support/server-process';
import { post, svcEval, svcEvalResponseOf } from '../survey-clients/support';

/*
 * docs/survey-web-service.md's blocks from "Setting up a survey's web-service question" on, each run or
 * compared with what a server started for it answers. (Its first two sections are run by
 * src/survey/pointing-a-survey-doc.test.ts and src/survey/services/developing-a-survey-service-doc.test.ts.)
 */

const DOC = 'docs/survey-web-service.md';
/** The address the page's commands call, and the public one its WSDLs and PHP name. */
const DOCUMENTED_BASE = 'http://127.0.0.1:3000';
const PUBLIC_BASE = 'https://surveys.example.com';

const run = promisify(execFile);
let servers: ServerProcess[] = [];
let folder = '';

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'survey-web-service-doc-'));
});

afterEach(async () => {
  await Promise.all(servers.map((server) => stopIfRunning(server)));
  servers = [];
  rmSync(folder, { recursive: true, force: true });
});

/** A server as `npm start` runs it, with this environment, but without the demo data, which no sample reads; resolves with its address. */
function serve(env: NodeJS.ProcessEnv): Promise<string> {
  const server = startServerProcess({ ...NO_DEMO_DATA, ...env });
  servers.push(server);
  return server.listening();
}

/** The section's blocks, after checking their languages: a block added to it fails here until a test runs it. */
function sectionBlocks(title: string, languages: readonly string[]): string[] {
  const blocks: FencedBlock[] = fencedBlocks(docSection(DOC, title));
  expect(blocks.map(({ language }) => language)).toEqual(languages);
  return blocks.map(({ text }) => text);
}

/** The environment of a `VAR=value npm start` line. */
function startEnvironment(command: string | undefined): Record<string, string> {
  const assignment = /^([A-Z_]+)=(\S+) npm start\n$/.exec(command ?? '');
  if (assignment === null) throw new Error(`not a "VAR=value npm start" line: ${command}`);
  return { [assignment[1]!]: assignment[2]! };
}

/**
 * A handler that answers with the parts it was given, as JSON, and appends them to calls.jsonl beside
 * itself: what shows which parts a client's call carried.
 */
function recordingHandler(): string {
  const file = path.join(folder, 'recording-handler.js');
  writeFileSync(
    file,
    `const { appendFileSync } = require('node:fs');
module.exports = ({ questionTexts, answers, aniIp, dnis, sessionId }) => {
  const parts = JSON.stringify({ questionTexts, answers, aniIp, dnis, sessionId });
  appendFileSync(__dirname + '/calls.jsonl', parts + '\\n');
  return { response: parts, state: null };
};
`,
  );
  return file;
}

function recordedCalls(): unknown[] {
  return readFileSync(path.join(folder, 'calls.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
}

async function php(code: string): Promise<string> {
  return (await run('php', ['-r', code])).stdout;
}

/** A REST twin's call of one page; resolves with its status and body. */
async function restCall(url: string, texts: readonly string[], answers: readonly string[], cookie?: string): Promise<string> {
  const form = new FormData();
  texts.forEach((text, index) => {
    form.append('question_texts[]', text);
    form.append('answers[]', answers[index]!);
  });
  const reply = await fetch(url, { method: 'POST', body: form, headers: cookie === undefined ? {} : { Cookie: cookie } });
  return `${reply.status} ${await reply.text()}`;
}

describeWith(PHP_SOAP)("PHP's calls in docs/survey-web-service.md", () => {
  test("Setting up a survey's web-service question: PHP's plumEval call, run as written, sends the five parts and gets the answer", async () => {
    const [call] = sectionBlocks("Setting up a survey's web-service question", ['php']);
    const base = await serve({ SURVEY_HANDLER: recordingHandler() });
    const answer = await php(`${call!.replaceAll(PUBLIC_BASE, base)}echo $answer;`);
    const parts = { questionTexts: ['Would you recommend us?'], answers: ['yes'], aniIp: '+16175550123', dnis: '18005550100', sessionId: 'respondent-42' };
    expect(JSON.parse(answer)).toEqual(parts);
    expect(recordedCalls()).toEqual([parts]);
  });

  test("The WSDLs: PHP without the WSDL, run as written, sends svcEval's optional parts, and the handler gets them", async () => {
    const [, , withoutWsdl] = sectionBlocks('The WSDLs', ['xml', 'xml', 'php']);
    const base = await serve({ SURVEY_HANDLER: recordingHandler() });
    // The block's arrays, which the page leaves to the reader.
    await php(`$texts = ['Would you recommend us?']; $answers = ['yes'];\n${withoutWsdl!.replaceAll(DOCUMENTED_BASE, base)}`);
    expect(recordedCalls()).toEqual([{ questionTexts: ['Would you recommend us?'], answers: ['yes'], aniIp: '192.0.2.7', sessionId: 'respondent-42' }]);
  });

  test("A call and its answer: the request shown is what PHP's SoapClient sends, written on one line", async () => {
    const [request] = sectionBlocks('A call and its answer', ['xml', '', 'xml']);
    const base = await serve({});
    const sent = await php(`$client = new SoapClient('${base}/survey?wsdl', ['trace' => 1]);
$client->svcEval(['Would you recommend us?', 'Your comments'], ['yes', 'Quick & friendly']);
echo $client->__getLastRequest();`);
    // The page's indentation undone: a line that opens a tag follows the one before directly, an attribute's line after a space.
    const [declaration, ...lines] = request!.trimEnd().split('\n');
    const oneLine = lines.map((line, index) => (index > 0 && !line.trimStart().startsWith('<') ? ` ${line.trim()}` : line.trim())).join('');
    expect(sent).toBe(`${declaration}\n${oneLine}\n`);
  });
});

describe("docs/survey-web-service.md's samples, against a server", () => {
  test("The WSDLs: svcEval's is the one the server serves, plumEval's messages are in its own, each at its address", async () => {
    const [svcEvalWsdl, plumEvalMessages] = sectionBlocks('The WSDLs', ['xml', 'xml', 'php']);
    const base = await serve({});
    // Without PUBLIC_URL a WSDL names the address it was fetched at: the page's, with PUBLIC_URL, is this one.
    const wsdl = async (query: string) => (await (await fetch(`${base}${query}`)).text()).replaceAll(base, PUBLIC_BASE);
    expect(await wsdl('/survey?wsdl')).toBe(svcEvalWsdl);
    const plumEval = await wsdl('/survey/plum?wsdl');
    expect(plumEval).toContain(plumEvalMessages);
    expect(plumEval).toContain(`<soap:address location="${PUBLIC_BASE}/survey/plum"/>`);
  });

  test('A call and its answer: the request shown, sent as the page says, gets the answer and the cookie shown', async () => {
    const [request, cookie, answer] = sectionBlocks('A call and its answer', ['xml', '', 'xml']);
    const base = await serve({});
    const reply = await fetch(`${base}/survey`, {
      method: 'POST',
      body: request,
      headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '"urn:SampleWebserviceAction"' },
    });
    expect([reply.status, reply.headers.get('content-type'), await reply.text()]).toEqual([200, 'text/xml; charset=utf-8', answer!.trimEnd()]);
    const shown = /^Set-Cookie: survey_session=([0-9a-f]{32})(; .*)\n$/.exec(cookie!);
    expect(shown).not.toBeNull();
    expect(reply.headers.get('set-cookie')).toMatch(new RegExp(`^survey_session=[0-9a-f]{32}${shown![2]!.replaceAll(';', '\\;')}$`));
  });

  test('Your own evaluation: `SURVEY_HANDLER`: the start line runs the example handler, and the TypeScript import type-checks', async () => {
    const [start, typeImport] = sectionBlocks('Your own evaluation: `SURVEY_HANDLER`', ['sh', 'ts']);
    const base = await serve(startEnvironment(start));
    expect(await restCall(`${base}/survey/rest`, ['Wait time (1-5)?', 'Agent (1-5)?'], ['5', '4'])).toBe('200 promoter');

    // The import as a handler author writes it: a project of its own with the package in node_modules, compiled as the example's tsconfig.json says.
    mkdirSync(path.join(folder, 'node_modules/@types'), { recursive: true });
    symlinkSync(ROOT, path.join(folder, 'node_modules/ivr-reporting'), 'dir');
    symlinkSync(path.join(ROOT, 'node_modules/@types/node'), path.join(folder, 'node_modules/@types/node'), 'dir');
    writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'handler-author', private: true }));
    const handler = path.join(folder, 'handler.ts');
    writeFileSync(handler, `${typeImport}\nexport const evaluate: SurveyHandler = ({ answers }) => ({ response: answers.join(','), state: null });\n`);
    const { options } = ts.parseJsonConfigFileContent(JSON.parse(readFileSync(path.join(ROOT, 'examples/survey-handler/tsconfig.json'), 'utf8')) as unknown, ts.sys, folder);
    const problems = ts.getPreEmitDiagnostics(ts.createProgram([handler], { ...options, noEmit: true }));
    expect(problems.map(({ messageText }) => ts.flattenDiagnosticMessageText(messageText, '\n'))).toEqual([]);
  });

  test('Logic without code: rules files: the rules are the example file, its start line answers as the sample, and the mistakes read as shown', async () => {
    const [rules, start, patternMistake, mistakes] = sectionBlocks('Logic without code: rules files', ['yaml', 'sh', '', '']);
    const environment = startEnvironment(start);
    expect(parse(rules!)).toEqual(parse(readFileSync(path.join(ROOT, environment.SURVEY_HANDLER!), 'utf8')));
    const base = await serve(environment);
    const first = await post(base, svcEval(['Agree?'], ['yes']));
    expect(svcEvalResponseOf(first.text)).toBe('accepted');
    const cookie = first.get('Set-Cookie')?.[0]?.split(';')[0] ?? '';
    expect(svcEvalResponseOf((await post(base, svcEval(['Agree?'], ['no']), { Cookie: cookie })).text)).toBe('rejected');
    expect(svcEvalResponseOf((await post(base, svcEval(['Agree?'], ['yes']), { Cookie: cookie })).text)).toBe('accepted again');

    // Files with the mistakes at the lines and columns shown, started from their folder, which stands for /srv/survey.
    const startWith = (text: string) => {
      writeFileSync(path.join(folder, 'rules.yaml'), text);
      const started = spawnSync(process.execPath, [path.join(ROOT, 'dist/main.js')], {
        cwd: folder,
        env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', SURVEY_HANDLER: 'rules.yaml' },
        encoding: 'utf8',
      });
      return { status: started.status, stderr: started.stderr.replaceAll(folder, '/srv/survey') };
    };
    expect(startWith('rules:\n  - when:\n      any_answer: { matches: "(a)\\\\1" }\n    answer: repeated\notherwise: rejected\n')).toEqual({ status: 1, stderr: patternMistake });
    expect(startWith('rules:\n  - when:\n      any_answer: { equal: "yes" }\n    answer: accepted\notherwise: 5\n')).toEqual({ status: 1, stderr: mistakes });
  });

  test('Several services on one server: `SURVEY_SERVICES`: the file is the example, and a server started with it serves each path its comments name', async () => {
    const [services] = sectionBlocks('Several services on one server: `SURVEY_SERVICES`', ['yaml']);
    const example = 'examples/survey-services/services.yaml';
    expect(parse(services!)).toEqual(parse(readFileSync(path.join(ROOT, example), 'utf8')));
    const base = await serve({ SURVEY_SERVICES: example });
    for (const [wsdl, operation, address] of [
      ['/survey?wsdl', 'svcEval', '/survey'],
      ['/survey/plum?wsdl', 'plumEval', '/survey/plum'],
      ['/survey/consent?wsdl', 'svcEval', '/survey/consent'],
      ['/survey/consent/plum?wsdl', 'plumEval', '/survey/consent/plum'],
    ] as const) {
      const text = await (await fetch(`${base}${wsdl}`)).text();
      expect({ wsdl, operation: text.includes(`<operation name="${operation}">`), address: text.includes(`<soap:address location="${base}${address}"/>`) }).toEqual({
        wsdl,
        operation: true,
        address: true,
      });
    }
    expect(await restCall(`${base}/survey/rest`, ['Agree?'], ['yes'])).toBe('200 accepted');
    expect(await restCall(`${base}/survey/consent/rest`, ['Agree?'], ['y'])).toBe('200 accepted');
  });

  test('Reaching a hosted survey from a laptop: the check, run against the server itself in place of the tunnel (tests have no internet), prints the address PUBLIC_URL names', async () => {
    const [check] = sectionBlocks('Reaching a hosted survey from a laptop', ['sh']);
    const tunnel = 'https://quiet-river-1234.trycloudflare.com';
    const base = await serve({ PUBLIC_URL: tunnel });
    const { stdout } = await run('bash', ['-c', check!.replaceAll(tunnel, base)]);
    expect(stdout.trim()).toBe(`<soap:address location="${tunnel}/survey"/>`);
  });

  test('Faults: the fault shown is what the server sends for arrays of different lengths', async () => {
    const [fault] = sectionBlocks('Faults', ['xml']);
    const base = await serve({});
    const reply = await post(base, svcEval(['Would you recommend us?', 'Your comments'], ['yes']));
    expect([reply.status, reply.get('Content-Type'), reply.text]).toEqual([500, 'text/xml; charset=utf-8', fault!.trimEnd()]);
  });

  test("The REST twin: the example, run as written beside a recording, is answered as the sample answers", async () => {
    const [example] = sectionBlocks('The REST twin', ['sh']);
    // The recording it sends, in the folder it runs in: a WAV header and silence.
    writeFileSync(path.join(folder, 'message.wav'), Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x0c, 4, 0, 0]), Buffer.from('WAVEfmt '), Buffer.alloc(1028)]));
    const base = await serve({});
    expect((await run('bash', ['-c', example!.replaceAll(DOCUMENTED_BASE, base)], { cwd: folder })).stdout).toBe('accepted');
  });
});
