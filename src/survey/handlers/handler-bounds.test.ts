import path from 'node:path';
import { composeApp } from '../../composition-root';
import { loadConfig } from '../../configuration';
import { createLogger } from '../../logger';
import { createMemoryStore } from '../../storage/memory/memory-store';
import { FakeClock } from '../../../test/support/fake-clock';
import { serve } from '../../../test/support/http';
import type { RunningServer } from '../../listen';
import { LogLines } from '../../../test/support/log-lines';
import { faultBody, post, svcEval } from '../../../test/survey-clients/support';

/*
 * A handler's response is bounded by SOAP_MAX_BYTES and its state by SURVEY_MAX_STATE_BYTES, on the event
 * loop and on a worker alike; on a worker they are checked before anything is copied to the server's thread.
 * The module runs in this process's app: a worker loads it with Node's own require, which jest does not reach.
 */

const SIZING = path.join(__dirname, 'fixtures', 'sizing-handler.js');
const BOUNDS = { SURVEY_HANDLER: SIZING, SOAP_MAX_BYTES: '4096', SURVEY_MAX_STATE_BYTES: '256' };

let logs: LogLines;
let running: RunningServer | undefined;

beforeEach(() => {
  logs = new LogLines();
});

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(env: NodeJS.ProcessEnv): Promise<string> {
  const app = composeApp(loadConfig(env), { store: createMemoryStore(), clock: new FakeClock(), logger: createLogger('info', logs) });
  running = await serve(app);
  return running.url;
}

interface Reply {
  readonly status: number;
  readonly code: string | null;
  readonly body: string;
  readonly cookie: string | undefined;
}

/** The REST twin's answer to a call of these answers, in the survey that `cookie` continues. */
async function call(url: string, answers: readonly string[], cookie?: string): Promise<Reply> {
  const body = new URLSearchParams();
  for (const item of answers) {
    body.append('question_texts[]', 'Q');
    body.append('answers[]', item);
  }
  const reply = await fetch(`${url}/survey/rest`, { method: 'POST', body, headers: cookie === undefined ? {} : { cookie } });
  return { status: reply.status, code: reply.headers.get('x-error-code'), body: await reply.text(), cookie: reply.headers.get('set-cookie')?.split(';')[0] };
}

describe.each([
  ['on the event loop', { SURVEY_HANDLER_ISOLATION: 'event-loop' }, 'the survey handler returned a response larger than SOAP_MAX_BYTES'],
  // Refused by the worker before it sends anything: the server's thread has only the refusal to log.
  ['on a worker', { SURVEY_HANDLER_ISOLATION: 'worker' }, 'the survey handler failed'],
])('a handler %s', (_where, isolation, refusalLogged) => {
  test('a response of SOAP_MAX_BYTES bytes in UTF-8 is sent; one byte more is refused with IVR_SURVEY_RESPONSE_TOO_LARGE, naming the setting', async () => {
    const url = await start({ ...BOUNDS, ...isolation });
    // 2,048 characters of 2 bytes each: within SOAP_MAX_BYTES by characters, past it by one in bytes.
    const exact = await call(url, ['response', '2048', 'é']);
    expect([exact.status, exact.body.length]).toEqual([200, 2048]);
    expect(await call(url, ['response', '2049', 'é'])).toEqual({
      status: 500,
      code: 'IVR_SURVEY_RESPONSE_TOO_LARGE',
      body: '{"error":"the survey handler returned a response larger than 4096 bytes (SOAP_MAX_BYTES)"}',
      cookie: undefined,
    });
    expect(logs.lines.filter(({ msg }) => String(msg).startsWith('the survey handler'))).toEqual([
      expect.objectContaining({ level: 50, msg: refusalLogged, code: 'IVR_SURVEY_RESPONSE_TOO_LARGE' }),
    ]);
  });

  test('a state over SURVEY_MAX_STATE_BYTES as JSON is refused with IVR_SURVEY_STATE_TOO_LARGE and not kept: the survey goes on with the state before', async () => {
    const url = await start({ ...BOUNDS, ...isolation });
    const first = await call(url, ['state', '3', 'a']);
    expect([first.status, first.body]).toEqual([200, 'stated']);
    // {"kept":"…"} is 11 bytes around the text.
    const refused = await call(url, ['state', '246', 'a'], first.cookie);
    expect(refused).toEqual({
      status: 500,
      code: 'IVR_SURVEY_STATE_TOO_LARGE',
      body: '{"error":"the survey handler returned a state larger than 256 bytes as JSON (SURVEY_MAX_STATE_BYTES)"}',
      cookie: undefined,
    });
    expect((await call(url, ['state-seen'], first.cookie)).body).toBe('state {"kept":"aaa"}');
    const atTheBound = await call(url, ['state', '245', 'a'], first.cookie);
    expect([atTheBound.status, atTheBound.body]).toEqual([200, 'stated']);
  });

  test('a state is bounded as the JSON kept of it: a Map of any size is kept as {}', async () => {
    const url = await start({ ...BOUNDS, ...isolation });
    const mapped = await call(url, ['map', '100000', 'a']);
    expect([mapped.status, mapped.body]).toEqual([200, 'mapped']);
    expect((await call(url, ['state-seen'], mapped.cookie)).body).toBe('state {}');
  });
});

test('a SOAP call whose handler returns a response over SOAP_MAX_BYTES gets a soap:Server fault with the code', async () => {
  const url = await start(BOUNDS);
  const reply = await post(url, svcEval(['Q', 'Q', 'Q'], ['response', '4097', 'x']));
  expect([reply.status, reply.get('X-Error-Code'), reply.text]).toEqual([
    500,
    'IVR_SURVEY_RESPONSE_TOO_LARGE',
    faultBody('soap:Server', 'the survey handler returned a response larger than 4096 bytes (SOAP_MAX_BYTES)'),
  ]);
});
