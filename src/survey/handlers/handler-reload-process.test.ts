import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NO_DEMO_DATA, startServerProcess, stopIfRunning, type ServerProcess } from '../../../test/support/server-process';

/*
 * SURVEY_RELOAD with handler modules, in the server process: Node's own require and import, which jest
 * replaces with its own, load CommonJS and ES modules as in production.
 */

let directory: string;
let server: ServerProcess | undefined;
let version: number;

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'survey-reload-'));
  version = 0;
});

afterEach(async () => {
  await stopIfRunning(server);
  server = undefined;
  rmSync(directory, { recursive: true, force: true });
});

/** Writes a version of the module, with a modification time of its own, so that no change depends on the clock's granularity. */
function write(file: string, source: string): void {
  writeFileSync(file, source);
  version += 1;
  const seconds = 1_500_000_000 + version * 60;
  utimesSync(file, seconds, seconds);
}

async function start(file: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  server = startServerProcess({ ...NO_DEMO_DATA, SURVEY_HANDLER: file, SURVEY_RELOAD: 'true', LOG_LEVEL: 'info', ...env });
  return server.listening();
}

/** The REST twin's answer to one call. */
async function answer(url: string): Promise<string> {
  const body = new FormData();
  body.append('question_texts[]', 'Agree?');
  body.append('answers[]', 'yes');
  const reply = await fetch(`${url}/survey/rest`, { method: 'POST', body });
  return `${reply.status} ${await reply.text()}`;
}

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly file?: string;
  readonly reason?: string;
}

/** The server's log lines about its survey handler, once there are `count` of them. */
async function handlerLines(count: number): Promise<LogLine[]> {
  if (server === undefined) throw new Error('no server');
  const text = await server.logs.waitFor(new RegExp(`(?:"msg":"survey handler[\\s\\S]*?){${count}}`));
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogLine)
    .filter(({ msg }) => msg.startsWith('survey handler'));
}

const COMMON_JS = {
  format: 'CommonJS',
  name: 'handler.js',
  answering: (response: string) => `module.exports = () => ({ response: '${response}', state: null });\n`,
  exportingNoFunction: 'module.exports = { answer: 1 };\n',
  // V8 names the line of a syntax error in the stack of a CommonJS module only.
  syntaxErrorLine: ', line 1',
};

const ES_MODULE = {
  format: 'an ES module',
  name: 'handler.mjs',
  answering: (response: string) => `export default () => ({ response: '${response}', state: null });\n`,
  exportingNoFunction: 'export const answer = 1;\n',
  syntaxErrorLine: '',
};

describe.each([COMMON_JS, ES_MODULE])('SURVEY_RELOAD=true with a handler module, $format', ({ name, answering, exportingNoFunction, syntaxErrorLine }) => {
  test('a changed module answers on the next call, every call arriving together with the new version, loaded once', async () => {
    const file = path.join(directory, name);
    write(file, answering('one'));
    const url = await start(file);
    expect(await answer(url)).toBe('200 one');
    write(file, answering('two'));
    const answers = await Promise.all(Array.from({ length: 10 }, () => answer(url)));
    expect(answers).toEqual(Array.from({ length: 10 }, () => '200 two'));
    write(file, answering('three'));
    expect(await answer(url)).toBe('200 three');
    const reloads = { level: 30, file, msg: 'survey handler reloaded' };
    expect(await handlerLines(2)).toEqual([expect.objectContaining(reloads), expect.objectContaining(reloads)]);
  });

  test('a version that throws on load, has a syntax error or exports no function is refused in one error line; the last good one answers until it is fixed', async () => {
    const file = path.join(directory, name);
    write(file, answering('good'));
    const url = await start(file);
    const broken = [`${answering('thrown')}throw new Error('broken on purpose');\n`, answering('syntax').replace('})', '}'), exportingNoFunction];
    for (const source of broken) {
      write(file, source);
      expect(await answer(url)).toBe('200 good');
      expect(await answer(url)).toBe('200 good');
    }
    write(file, answering('fixed'));
    expect(await answer(url)).toBe('200 fixed');

    const lines = await handlerLines(4);
    expect(lines.map(({ level }) => level)).toEqual([50, 50, 50, 30]);
    const [thrown, syntax, noFunction] = lines.map(({ file: named, reason }) => ({ named, reason }));
    expect(thrown).toEqual({ named: file, reason: `cannot load ${file}, line 2: broken on purpose` });
    expect(syntax?.named).toBe(file);
    expect(syntax?.reason?.startsWith(`cannot load ${file}${syntaxErrorLine}: `)).toBe(true);
    expect(noFunction).toEqual({
      named: file,
      reason: `${file} exports no function; use module.exports = fn, a default export, or an export named evaluate`,
    });
    const setting = `SURVEY_HANDLER=${JSON.stringify(file)}`;
    for (const { reason, msg } of lines.slice(0, 3)) {
      expect(msg).toBe(`survey handler not reloaded: ${setting}: ${reason}; the last good one keeps answering`);
    }
  });
});

test('a CommonJS module turned into an ES module that throws on load, then fixed, is loaded: the failure Node keeps is not answered again', async () => {
  const file = path.join(directory, 'handler.js');
  write(file, COMMON_JS.answering('commonjs'));
  const url = await start(file);
  write(file, `${ES_MODULE.answering('thrown')}throw new Error('broken on purpose');\n`);
  expect(await answer(url)).toBe('200 commonjs');
  write(file, ES_MODULE.answering('es module'));
  expect(await answer(url)).toBe('200 es module');
  write(file, COMMON_JS.answering('commonjs again'));
  expect(await answer(url)).toBe('200 commonjs again');
  expect((await handlerLines(3)).map(({ level }) => level)).toEqual([50, 30, 30]);
});

test('an ES module whose top-level await never settles counts as a version that does not load: the last good one answers, the next change is read', async () => {
  const file = path.join(directory, 'handler.mjs');
  write(file, ES_MODULE.answering('good'));
  const url = await start(file, { SURVEY_HANDLER_TIMEOUT_SECONDS: '6' });
  expect(await answer(url)).toBe('200 good');
  write(file, `await new Promise(() => {});\n${ES_MODULE.answering('never')}`);
  // Those that arrive while it loads wait for it, then are answered within their own timeout.
  expect(await Promise.all(Array.from({ length: 5 }, () => answer(url)))).toEqual(Array.from({ length: 5 }, () => '200 good'));
  expect(await answer(url)).toBe('200 good');
  write(file, ES_MODULE.answering('fixed'));
  expect(await answer(url)).toBe('200 fixed');

  const reason = `cannot load ${file}: not loaded within 3 s, half of SURVEY_HANDLER_TIMEOUT_SECONDS; a top-level await that never settles?`;
  expect(await handlerLines(2)).toEqual([
    expect.objectContaining({
      level: 50,
      file,
      reason,
      msg: `survey handler not reloaded: SURVEY_HANDLER=${JSON.stringify(file)}: ${reason}; the last good one keeps answering`,
    }),
    expect.objectContaining({ level: 30, file, msg: 'survey handler reloaded' }),
  ]);
});
