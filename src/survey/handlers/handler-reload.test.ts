import fsPromises from 'node:fs/promises';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import request from 'supertest';
import { composeApp } from '../../composition-root';
import { loadConfig } from '../../configuration';
import { createLogger } from '../../logger';
import { createMemoryStore } from '../../storage/memory/memory-store';
import { answerCall } from '../sessions/answer-call';
import { loadSurveyHandler } from './handler-module';
import { fileStampSync, reloadingHandler } from './handler-reload';
import type { SurveyHandler } from '../../domain/survey-handler';
import { FakeClock } from '../../../test/support/fake-clock';
import { LogLines } from '../../../test/support/log-lines';
import { DEFAULT_EVALUATION_BOUNDS } from '../../../test/support/survey-handler';

/*
 * SURVEY_RELOAD with rules files, in this process. Modules are reloaded by Node's require and import,
 * which jest replaces: handler-reload-process.test.ts reloads them in the server process.
 */

const answersOnly = (answer: string) => `rules: []\notherwise: ${answer}\n`;
const CALL = { questionTexts: ['Agree?'], answers: ['yes'], state: undefined };

let directory: string;
let file: string;
let logs: LogLines;
/** A distinct modification time for each version written, so that no change depends on the clock's granularity. */
let version: number;

/** Writes a version of the rules file, with a modification time of its own. */
function write(text: string): void {
  writeFileSync(file, text);
  version += 1;
  const seconds = 1_500_000_000 + version * 60;
  utimesSync(file, seconds, seconds);
}

function load(reload: boolean): SurveyHandler {
  return loadSurveyHandler('rules.yaml', directory, { reload: reload && { loadTimeoutSeconds: 10 }, bounds: DEFAULT_EVALUATION_BOUNDS, logger: createLogger('info', logs) });
}

async function answerOf(handler: SurveyHandler): Promise<string> {
  return (await handler(CALL)).response;
}

const reloadLines = () => logs.lines.filter(({ msg }) => typeof msg === 'string' && msg.startsWith('survey handler'));

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'survey-reload-'));
  file = path.join(directory, 'rules.yaml');
  logs = new LogLines();
  version = 0;
  write(answersOnly('one'));
});

afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe('SURVEY_RELOAD=true with a rules file', () => {
  test('a changed file answers with its new rules on the next call, and the reload is logged at info', async () => {
    const handler = load(true);
    expect(await answerOf(handler)).toBe('one');
    write(answersOnly('two'));
    expect(await answerOf(handler)).toBe('two');
    expect(reloadLines()).toEqual([expect.objectContaining({ level: 30, file, msg: 'survey handler reloaded' })]);
  });

  test('an unchanged file is not read again', async () => {
    const handler = load(true);
    await answerOf(handler);
    await answerOf(handler);
    expect(reloadLines()).toEqual([]);
  });

  test('a version with mistakes is refused in one error line naming the file, each line and column; the last good rules answer until it is fixed', async () => {
    const handler = load(true);
    write('rules:\n  - when:\n      any_answer: { equal: "yes" }\n    answer: a\notherwise: 5\n');
    expect(await answerOf(handler)).toBe('one');
    expect(await answerOf(handler)).toBe('one');
    const mistakes = [
      'line 3, column 21: rules[0].when.any_answer: unknown test "equal"; use equals, one_of, matches, greater_than, less_than, at_least, at_most, empty or recording',
      'line 5, column 12: otherwise: must be a text, not the number 5',
    ];
    expect(reloadLines()).toEqual([
      expect.objectContaining({
        level: 50,
        file,
        mistakes,
        msg: `survey handler not reloaded: SURVEY_HANDLER="rules.yaml": ${file}, ${mistakes.join('; ')}; the last good one keeps answering`,
      }),
    ]);

    write(answersOnly('fixed'));
    expect(await answerOf(handler)).toBe('fixed');
    expect(reloadLines().map(({ level }) => level)).toEqual([50, 30]);
  });

  test('a file that is gone is said once, under the setting given; written again, it is read', async () => {
    const handler = loadSurveyHandler(file, '/', { reload: { loadTimeoutSeconds: 10 }, bounds: DEFAULT_EVALUATION_BOUNDS, logger: createLogger('info', logs), setting: 'SURVEY_SERVICES services[1].handler' });
    rmSync(file);
    expect(await answerOf(handler)).toBe('one');
    expect(await answerOf(handler)).toBe('one');
    const reason = `cannot read ${file}: ENOENT: no such file or directory, open '${file}'`;
    expect(reloadLines()).toEqual([
      expect.objectContaining({
        level: 50,
        file,
        reason,
        msg: `survey handler not reloaded: SURVEY_SERVICES services[1].handler: ${reason}; the last good one keeps answering`,
      }),
    ]);

    write(answersOnly('back'));
    expect(await answerOf(handler)).toBe('back');
  });

  test('calls that arrive together while the file changed are all answered by the new version, read once', async () => {
    const handler = load(true);
    await answerOf(handler);
    write(answersOnly('two'));
    const answers = await Promise.all(Array.from({ length: 20 }, () => answerOf(handler)));
    expect(answers).toEqual(Array.from({ length: 20 }, () => 'two'));
    expect(reloadLines()).toEqual([expect.objectContaining({ msg: 'survey handler reloaded' })]);
  });
});

// A full collection on demand, without starting jest with --expose-gc: a new context picks up the flag.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const heapUsed = (): number => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

describe('a version still loading after the handler timeout', () => {
  const MB = 1_000_000;
  const CALLS = 100;
  // A flat string of its own, as a parsed body is: 'x'.repeat makes a few shared pieces, not a megabyte.
  const oneMegabyte = (i: number): string => Buffer.alloc(MB, `${i}x`).toString('latin1');

  test('counts as one that does not load: the calls waiting for it are answered by the last good version, and none keeps its body', async () => {
    const logger = createLogger('info', logs);
    // What Node's loader gives for an ES module whose top-level await never settles: a promise that never does.
    const handler = reloadingHandler({
      file,
      setting: 'SURVEY_HANDLER="rules.yaml"',
      logger,
      first: { handler: () => ({ response: 'good', state: null }), stamp: fileStampSync(file) },
      readAgain: () => new Promise(() => {}),
      loadTimeoutSeconds: 1,
    });
    const deps = { store: createMemoryStore(), clock: new FakeClock(), handler, sessionScope: '', sessionTtlSeconds: 3600, maxSessions: CALLS, evaluation: { ...DEFAULT_EVALUATION_BOUNDS, timeoutSeconds: 60 } };
    write(answersOnly('never loaded'));

    const before = heapUsed();
    const answers = await Promise.all(
      Array.from({ length: CALLS }, (_unused, i) =>
        answerCall(deps, { questionTexts: ['Agree?'], answers: [oneMegabyte(i)] }, undefined, () => logger).then(
          ({ response }) => response,
          (error: Error) => error.message,
        ),
      ),
    );
    expect(answers).toEqual(Array.from({ length: CALLS }, () => 'good'));
    // Kept by calls that never finish waiting, the bodies would be 100 MB.
    expect((heapUsed() - before) / MB).toBeLessThan(20);

    const reason = `cannot load ${file}: not loaded within 1 s, half of SURVEY_HANDLER_TIMEOUT_SECONDS; a top-level await that never settles?`;
    expect(reloadLines()).toEqual([
      expect.objectContaining({
        level: 50,
        file,
        reason,
        msg: `survey handler not reloaded: SURVEY_HANDLER="rules.yaml": ${reason}; the last good one keeps answering`,
      }),
    ]);
  });
});

describe('without SURVEY_RELOAD', () => {
  afterEach(() => jest.restoreAllMocks());

  test('a change is not seen, and a call does not look at the file', async () => {
    const stat = jest.spyOn(fsPromises, 'stat');
    const handler = load(false);
    write(answersOnly('two'));
    expect(await answerOf(handler)).toBe('one');
    expect(stat).not.toHaveBeenCalled();
    expect(reloadLines()).toEqual([]);
  });
});

describe('through the HTTP app', () => {
  test('a REST call answers with the rules file as it is after a change', async () => {
    const config = loadConfig({ SURVEY_HANDLER: file, SURVEY_RELOAD: 'true' });
    const app = composeApp(config, { store: createMemoryStore(), clock: new FakeClock(), logger: createLogger('info', logs) });
    const call = () => request(app).post('/survey/rest').type('form').send({ 'question_texts[]': 'Agree?', 'answers[]': 'yes' });
    const before = await call();
    expect([before.status, before.text]).toEqual([200, 'one']);
    write(answersOnly('two'));
    const after = await call();
    expect([after.status, after.text]).toEqual([200, 'two']);
    await logs.waitFor('survey handler reloaded');
  });
});
