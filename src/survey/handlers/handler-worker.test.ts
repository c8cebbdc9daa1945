import { existsSync, mkdtempSync, rmSync, utimesSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { composeApp } from '../../composition-root';
import { loadConfig } from '../../configuration';
import { ConfigError } from '../../config/config-error';
import { createLogger } from '../../logger';
import { createMemoryStore } from '../../storage/memory/memory-store';
import { FakeClock } from '../../../test/support/fake-clock';
import { serve } from '../../../test/support/http';
import type { RunningServer } from '../../listen';
import { LogLines } from '../../../test/support/log-lines';

/*
 * SURVEY_HANDLER_ISOLATION=worker: the module runs on a worker thread, which Node's own require loads (jest's
 * does not reach into it), so these tests run the app in this process.
 */

const FIXTURES = path.join(__dirname, 'fixtures');
const LOOPING = path.join(FIXTURES, 'looping-handler.mjs');
/*
 * The handler timeout bounds a worker's loading as well as a call. A test whose subject is not the timeout
 * gives a minute, which no loaded machine's start of a worker reaches; the looping handler's test gives
 * 10 s, which its call waits out in full, and which the worker started after it must load within.
 */
const ISOLATED = { SURVEY_HANDLER_ISOLATION: 'worker', SURVEY_HANDLER_TIMEOUT_SECONDS: '60' };
const LOOP_TIMEOUT = { SURVEY_HANDLER_ISOLATION: 'worker', SURVEY_HANDLER_TIMEOUT_SECONDS: '10' };
const NEVER_LOADED = { SURVEY_HANDLER_ISOLATION: 'worker', SURVEY_HANDLER_TIMEOUT_SECONDS: '1' };

let directory: string;
let logs: LogLines;
let running: RunningServer | undefined;

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'survey-worker-'));
  logs = new LogLines();
});

afterEach(async () => {
  running?.server.closeAllConnections();
  await running?.close();
  running = undefined;
  rmSync(directory, { recursive: true, force: true });
});

async function start(env: NodeJS.ProcessEnv): Promise<string> {
  const app = composeApp(loadConfig(env), { store: createMemoryStore(), clock: new FakeClock(), logger: createLogger('info', logs) });
  running = await serve(app);
  return running.url;
}

/** The REST twin's answer to a call of these answers, and of these recordings. */
async function answer(url: string, answers: readonly string[], files: Readonly<Record<string, string>> = {}): Promise<string> {
  const body = new FormData();
  for (const item of answers) {
    body.append('question_texts[]', 'Q');
    body.append('answers[]', item);
  }
  for (const [name, text] of Object.entries(files)) body.append(name, new Blob([text], { type: 'audio/wav' }), name);
  const reply = await fetch(`${url}/survey/rest`, { method: 'POST', body });
  return `${reply.status} ${await reply.text()}`;
}

/** Resolves once the file exists: written by the handler as its call starts running. */
function created(file: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(path.dirname(file), () => {
      if (!existsSync(file)) return;
      watcher.close();
      resolve();
    });
    if (existsSync(file)) {
      watcher.close();
      resolve();
    }
  });
}

describe('SURVEY_HANDLER_ISOLATION=worker', () => {
  test('a handler that never yields holds its worker, not the event loop: /healthz answers while it runs, the call gets the timeout fault, the next call is served', async () => {
    const url = await start({ SURVEY_HANDLER: LOOPING, ...LOOP_TIMEOUT });
    expect(await answer(url, ['first'])).toBe('200 answered first');

    const marker = path.join(directory, 'running');
    const events: string[] = [];
    const looping = answer(url, ['loop', marker]).then((reply) => {
      events.push('looping call answered');
      return reply;
    });
    await created(marker);
    const probe = await fetch(`${url}/healthz`);
    events.push(`healthz ${probe.status}`);
    expect(await looping).toBe('500 {"error":"the survey handler failed; the server log has the cause"}');
    expect(events).toEqual(['healthz 200', 'looping call answered']);

    expect(await answer(url, ['next'])).toBe('200 answered next');
    const reason = 'the survey handler took longer than 10 s; its worker was stopped';
    expect(logs.lines.filter(({ msg }) => msg === 'survey handler worker stopped; the next call starts another')).toEqual([
      expect.objectContaining({ level: 40, file: LOOPING, reason }),
    ]);
    expect(logs.lines.filter(({ msg }) => msg === 'the survey handler failed')).toEqual([
      expect.objectContaining({ level: 50, err: expect.objectContaining({ type: 'HandlerTimeout', message: reason }) }),
    ]);
  });

  test("a call's recordings reach the handler as Buffers", async () => {
    const url = await start({ SURVEY_HANDLER: LOOPING, ...ISOLATED });
    expect(await answer(url, ['file-1.wav'], { 'file-1.wav': 'RIFF' })).toBe('200 answered file-1.wav, file-1.wav: RIFF');
  });

  test('a module whose loading never ends stops the start once the handler timeout has passed, naming the setting', () => {
    const file = path.join(FIXTURES, 'looping-on-load.js');
    const starting = () => composeApp(loadConfig({ SURVEY_HANDLER: file, ...NEVER_LOADED }), { store: createMemoryStore(), clock: new FakeClock(), logger: createLogger('silent') });
    expect(starting).toThrow(
      new ConfigError(`SURVEY_HANDLER=${JSON.stringify(file)}: cannot load ${file}: not loaded within SURVEY_HANDLER_TIMEOUT_SECONDS (1 s)`),
    );
  });

  test('with SURVEY_RELOAD, a changed module is loaded on a worker of its own and answers the next call', async () => {
    const file = path.join(directory, 'handler.js');
    const write = (response: string, seconds: number) => {
      writeFileSync(file, `module.exports = () => ({ response: '${response}', state: null });\n`);
      utimesSync(file, seconds, seconds);
    };
    write('one', 1_500_000_000);
    const url = await start({ SURVEY_HANDLER: file, SURVEY_RELOAD: 'true', ...ISOLATED });
    expect(await answer(url, ['x'])).toBe('200 one');
    write('two', 1_500_000_060);
    expect(await answer(url, ['x'])).toBe('200 two');
    await logs.waitFor('survey handler reloaded');
  });

  test('a module that exports no function is refused at start, as on the event loop', () => {
    const file = path.join(FIXTURES, 'no-function.js');
    expect(() => composeApp(loadConfig({ SURVEY_HANDLER: file, ...ISOLATED }), { store: createMemoryStore(), clock: new FakeClock() })).toThrow(
      `SURVEY_HANDLER=${JSON.stringify(file)}: ${file} exports no function; use module.exports = fn, a default export, or an export named evaluate`,
    );
  });
});
