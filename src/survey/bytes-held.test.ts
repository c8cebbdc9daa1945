import { composeApp } from '../composition-root';
import { loadConfig } from '../configuration';
import { createLogger } from '../logger';
import { createMemoryStore } from '../storage/memory/memory-store';
import { FakeClock } from '../../test/support/fake-clock';
import { serve } from '../../test/support/http';
import { faultBody, post, svcEval } from '../../test/survey-clients/support';
import type { RunningServer } from '../listen';
import type { SurveyEvaluation } from '../domain/survey-handler';

/*
 * SURVEY_MAX_BYTES_HELD: the bodies of the survey calls under way, from their first byte read until they
 * are answered, are bounded together; a call whose body would pass the bound is answered at once.
 */

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A server whose handler holds each call until the test lets it go, and says when it has one. */
async function start(env: NodeJS.ProcessEnv) {
  const held: Array<() => void> = [];
  let arrived: () => void = () => {};
  const surveyHandler = (): Promise<SurveyEvaluation> =>
    new Promise((resolve) => {
      held.push(() => resolve({ response: 'let go', state: null }));
      arrived();
    });
  running = await serve(composeApp(loadConfig(env), { store: createMemoryStore(), clock: new FakeClock(), logger: createLogger('silent'), surveyHandler }));
  const nextArrival = () => new Promise<void>((resolve) => (arrived = resolve));
  return { url: running.url, held, nextArrival };
}

const restCall = (url: string, answer: string) =>
  fetch(`${url}/survey/rest`, { method: 'POST', body: new URLSearchParams({ 'question_texts[]': 'Q', 'answers[]': answer }) });

const BUSY = 'the survey calls under way hold 4096 bytes already (SURVEY_MAX_BYTES_HELD); retry after Retry-After';

test('a call whose body would take the calls under way past SURVEY_MAX_BYTES_HELD is answered 503 IVR_SURVEY_CALLS_BUSY; their bytes count until they are answered', async () => {
  const { url, held, nextArrival } = await start({ SOAP_MAX_BYTES: '4096', SURVEY_MAX_BYTES_HELD: '4096' });
  const arrival = nextArrival();
  const first = restCall(url, 'a'.repeat(3000));
  await arrival;

  const refused = await restCall(url, 'b'.repeat(2000));
  expect([refused.status, refused.headers.get('x-error-code'), refused.headers.get('retry-after'), await refused.text()]).toEqual([
    503,
    'IVR_SURVEY_CALLS_BUSY',
    '1',
    JSON.stringify({ error: BUSY }),
  ]);
  // What is left of the bound still takes a smaller call.
  const small = nextArrival();
  const fits = restCall(url, 'c'.repeat(500));
  await small;

  for (const letGo of held) letGo();
  const answers = await Promise.all([first, fits]);
  expect(answers.map(({ status }) => status)).toEqual([200, 200]);
  // Both answered, their bytes are given back: a call as large as the bound is taken again.
  const again = nextArrival();
  const large = restCall(url, 'd'.repeat(3900));
  await again;
  held.at(-1)?.();
  expect((await large).status).toBe(200);
});

test('a body of no declared length (chunked) is counted as it arrives, and refused once it would pass the bound', async () => {
  const { url, held, nextArrival } = await start({ SOAP_MAX_BYTES: '4096', SURVEY_MAX_BYTES_HELD: '4096' });
  const arrival = nextArrival();
  const first = restCall(url, 'a'.repeat(3000));
  await arrival;
  const body = new URLSearchParams({ 'question_texts[]': 'Q', 'answers[]': 'b'.repeat(2000) }).toString();
  const chunked = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(body));
      controller.close();
    },
  });
  const refused = await fetch(`${url}/survey/rest`, {
    method: 'POST',
    body: chunked,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    duplex: 'half',
  });
  expect([refused.status, refused.headers.get('x-error-code'), await refused.text()]).toEqual([503, 'IVR_SURVEY_CALLS_BUSY', JSON.stringify({ error: BUSY })]);
  held[0]?.();
  expect((await first).status).toBe(200);
});

test('a SOAP call past the bound gets a soap:Server fault carrying the code', async () => {
  const { url, held, nextArrival } = await start({ SOAP_MAX_BYTES: '4096', SURVEY_MAX_BYTES_HELD: '4096' });
  const arrival = nextArrival();
  const first = post(url, svcEval(['Q'], ['a'.repeat(3000)])).then((reply) => reply);
  await arrival;
  const refused = await post(url, svcEval(['Q'], ['b'.repeat(2000)]));
  expect([refused.status, refused.get('X-Error-Code'), refused.get('Retry-After'), refused.text]).toEqual([500, 'IVR_SURVEY_CALLS_BUSY', '1', faultBody('soap:Server', BUSY)]);
  held[0]?.();
  expect((await first).status).toBe(200);
});
