// The handler types as a handler author gets them: dist/ (built by jest's global setup) through
// package.json's exports map, from a project of its own that has the package in node_modules.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { NO_DEMO_DATA, startServerProcess, stopIfRunning, type ServerProcess } from '../../../test/support/server-process';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLE = path.join(ROOT, 'examples/survey-handler');

let author: string;
let server: ServerProcess | undefined;

beforeAll(() => {
  author = mkdtempSync(path.join(tmpdir(), 'survey-handler-author-'));
  mkdirSync(path.join(author, 'node_modules/@types'), { recursive: true });
  symlinkSync(ROOT, path.join(author, 'node_modules/ivr-reporting'), 'dir');
  symlinkSync(path.join(ROOT, 'node_modules/@types/node'), path.join(author, 'node_modules/@types/node'), 'dir');
  writeFileSync(path.join(author, 'package.json'), JSON.stringify({ name: 'survey-handler-author', private: true }));
  for (const file of ['satisfaction.ts', 'tsconfig.json']) copyFileSync(path.join(EXAMPLE, file), path.join(author, file));
});

afterAll(() => rmSync(author, { recursive: true, force: true }));

afterEach(async () => {
  await stopIfRunning(server);
  server = undefined;
});

/** The author's project as its tsconfig.json (the example's) makes it, with these files besides. */
function authorProgram(extraFiles: readonly string[] = []): ts.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(author, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (parsed === undefined) throw new Error('no tsconfig.json');
  return ts.createProgram([...parsed.fileNames, ...extraFiles], parsed.options);
}

function problemsOf(program: ts.Program): string[] {
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

test("the declarations of ivr-reporting/survey-handler import nothing: no Express, no pino, nothing of the server's", () => {
  const declarations = readFileSync(path.join(ROOT, 'dist/domain/survey-handler.d.ts'), 'utf8');
  expect(declarations).not.toMatch(/\bimport\b|\brequire\(|\/\/\/ <reference/);
});

// Each line is a claim about the published types: an assignment that must compile, or one marked to fail.
const CLAIMS = `
import type { SurveyCall, SurveyEvaluation, SurveyFile, SurveyHandler } from 'ivr-reporting/survey-handler';

export const asynchronous: SurveyHandler = async ({ files }) => ({ response: String(files?.length ?? 0), state: null });
export const evaluation: SurveyEvaluation = { response: 'accepted', state: { flags: ['accepted'] } };
export const recording = (call: SurveyCall): Buffer | undefined => call.files?.[0]?.data;
export const file: SurveyFile = { name: 'file-1.wav', contentType: 'audio/wav', data: Buffer.alloc(0) };
export const stateIsUnknown = (call: SurveyCall) => {
  // @ts-expect-error: the state is the previous call's, after a JSON round trip: unknown until checked
  const count: number = call.state.count;
  return count;
};
// @ts-expect-error: the response is a string
export const numeric: SurveyHandler = () => ({ response: 5, state: null });
// @ts-expect-error: a bare string is not an evaluation
export const bare: SurveyHandler = () => 'accepted';
// @ts-expect-error: the answers are read-only
export const writing: SurveyHandler = (call) => ((call.answers[0] = ''), { response: '', state: null });
`;

test('examples/survey-handler type-checks against the published declarations, which say what a handler takes and returns', () => {
  const claims = path.join(author, 'claims.ts');
  writeFileSync(claims, CLAIMS);
  expect(problemsOf(authorProgram([claims]))).toEqual([]);
});

test('examples/survey-handler, compiled by its tsconfig.json, answers as SURVEY_HANDLER, and with SURVEY_RELOAD a recompiled version answers the next call', async () => {
  // As the example says to: tsc in a process of its own, while the server answers.
  const compile = () => promisify(execFile)(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', author]);
  await compile();
  const compiled = path.join(author, 'dist/satisfaction.js');
  server = startServerProcess({ ...NO_DEMO_DATA, SURVEY_HANDLER: compiled, SURVEY_RELOAD: 'true' });
  const url = await server.listening();
  const answer = async (answers: readonly string[]) => {
    const body = new FormData();
    for (const text of answers) body.append('question_texts[]', `How satisfied are you? (${text})`);
    for (const text of answers) body.append('answers[]', text);
    const reply = await fetch(`${url}/survey/rest`, { method: 'POST', body });
    return `${reply.status} ${await reply.text()}`;
  };
  expect(await answer(['5', '4'])).toBe('200 promoter');
  expect(await answer(['3', '4'])).toBe('200 passive');
  expect(await answer(['no score'])).toBe('200 unscored');

  const source = path.join(author, 'satisfaction.ts');
  writeFileSync(source, readFileSync(source, 'utf8').replaceAll("'unscored'", "'not scored yet'"));
  await compile();
  // The compiler may write within the same clock tick as before: a time of its own makes the change certain.
  utimesSync(compiled, 1_500_000_000, 1_500_000_000);
  expect(await answer(['no score'])).toBe('200 not scored yet');
});
