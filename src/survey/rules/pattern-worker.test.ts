import { composeApp } from '../../composition-root';
import { loadConfig } from '../../configuration';
import { AppError, errors } from '../../errors/catalogue';
import { createLogger } from '../../logger';
import { createMemoryStore } from '../../storage/memory/memory-store';
import { FakeClock } from '../../../test/support/fake-clock';
import { serve } from '../../../test/support/http';
import { faultBody, post, responseBody, svcEval } from '../../../test/survey-clients/support';
import type { RunningServer } from '../../listen';
import { INLINE_MATCH_CHARACTERS, PatternWorker } from './pattern-worker';
import { readRules } from './rules-file';
import { rulesHandler } from './rules-handler';

/*
 * The pattern worker takes one text at a time (with the patterns to match it against); the texts waiting behind it are bounded in count and in
 * characters, and each has its call's deadline. Deadlines are given in the worker's own time (`now`), which
 * these tests set; a match under way is stopped by a timer at its deadline.
 */

// Within what a timer takes (2^31 - 1 ms): a deadline that never comes in these tests.
const FAR_OFF = 1e9;
let now = 0;
beforeEach(() => {
  now = 0;
});

const busy = (maxWaiting: number, maxWaitingCharacters: number) =>
  new AppError(
    'IVR_SURVEY_PATTERNS_BUSY',
    503,
    `too many long answers wait to be matched against the rules' patterns (at most ${maxWaiting} texts, ${maxWaitingCharacters} characters); retry after Retry-After`,
  );

test('a match beyond the waiting matches the queue holds is refused at once with IVR_SURVEY_PATTERNS_BUSY; the running one does not count', async () => {
  const worker = new PatternWorker({ maxWaiting: 1, maxWaitingCharacters: 1000 }, () => now);
  const running = worker.test(['b'], ['abc'], FAR_OFF);
  const waiting = worker.test(['b'], ['xyz'], FAR_OFF);
  const refused = worker.test(['b'], ['abc'], FAR_OFF);
  await expect(refused).rejects.toEqual(busy(1, 1000));
  await expect(refused).rejects.toMatchObject({ headers: { 'Retry-After': '1' } });
  expect(await Promise.all([running, waiting])).toEqual([[true], [false]]);
});

test('a match whose text would take the waiting matches past their characters is refused at once', async () => {
  const worker = new PatternWorker({ maxWaiting: 10, maxWaitingCharacters: 10 }, () => now);
  const running = worker.test(['b'], ['a'.repeat(100)], FAR_OFF);
  const waiting = worker.test(['b'], ['abcdefghij'], FAR_OFF);
  await expect(worker.test(['b'], ['b'], FAR_OFF)).rejects.toEqual(busy(10, 10));
  expect(await Promise.all([running, waiting])).toEqual([[false], [true]]);
  // Their characters were given back as they ran.
  expect(await worker.test(['b'], ['abcdefghij'], FAR_OFF)).toEqual([true]);
});

test('a waiting match whose deadline has passed is dropped unmatched, and its characters given back', async () => {
  const worker = new PatternWorker({ maxWaiting: 10, maxWaitingCharacters: 6 }, () => now);
  const running = worker.test(['b'], ['abc'], FAR_OFF);
  const late = worker.test(['b'], ['abc'], 5);
  now = 10;
  const after = worker.test(['c'], ['abcdef'], FAR_OFF);
  await expect(late).rejects.toThrow("the call's time was up before its match began");
  expect(await Promise.all([running, after])).toEqual([[true], [true]]);
});

test('a match still under way at its deadline stops the worker; the matches behind it are answered by another', async () => {
  const worker = new PatternWorker({ maxWaiting: 10, maxWaitingCharacters: 64 * 1024 * 1024 }, () => now);
  // A worker just started and 10 Mi characters to copy to it: the match cannot be done when the timer of a deadline now fires.
  const stopped = worker.test(['b'], ['a'.repeat(10 * 1024 * 1024)], 0.001);
  const next = worker.test(['b'], ['abc'], FAR_OFF);
  await expect(stopped).rejects.toThrow("the call's time was up during its match; the pattern worker was stopped");
  expect(await next).toEqual([true]);
});

/** A pattern worker whose queue is always full, as the one above is behind a match that takes long. */
class FullPatternWorker extends PatternWorker {
  override test(): Promise<readonly boolean[]> {
    return Promise.reject(errors.surveyPatternsBusy(0, 0));
  }
}

test('a text copied to the worker in pieces is matched whole: what spans a seam between pieces is found, a character of two code units too', async () => {
  const worker = new PatternWorker(undefined, () => now);
  const seam = 1024 * 1024;
  const text = `${'a'.repeat(seam - 1)}😀${'a'.repeat(seam)}xy`;
  expect(await worker.test(['a😀a', '^a+😀a+xy$', 'yx'], [text], FAR_OFF)).toEqual([true, true, false]);
});

test('a text that came in pieces is matched whole: small pieces, one longer than a turn sends, a pair of code units split between two', async () => {
  const worker = new PatternWorker(undefined, () => now);
  const pieces = ['xxxxx', 'a'.repeat(2 * 1024 * 1024 + 7), '\uD83D', '\uDE00', 'tail'];
  expect(await worker.test(['😀tail', '^x{5}a+😀tail$', 'xxa', 'ax'], pieces, FAR_OFF)).toEqual([true, true, true, false]);
});

describe('a rules file on a server whose pattern worker is full', () => {
  let running: RunningServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function start(): Promise<string> {
    const reading = readRules('rules:\n  - when: { any_answer: { matches: "^b" } }\n    answer: hit\notherwise: miss\n', 'yaml');
    if (!reading.ok) throw new Error(JSON.stringify(reading.mistakes));
    const surveyHandler = rulesHandler(reading.rules, 10, new FullPatternWorker());
    running = await serve(composeApp(loadConfig({}), { store: createMemoryStore(), clock: new FakeClock(), logger: createLogger('silent'), surveyHandler }));
    return running.url;
  }

  const long = 'a'.repeat(INLINE_MATCH_CHARACTERS + 1);

  test('the REST twin answers a long answer 503 IVR_SURVEY_PATTERNS_BUSY with Retry-After; a short one is matched on the event loop', async () => {
    const url = await start();
    const call = (answer: string) => fetch(`${url}/survey/rest`, { method: 'POST', body: new URLSearchParams({ 'question_texts[]': 'Q', 'answers[]': answer }) });
    const refused = await call(long);
    expect([refused.status, refused.headers.get('retry-after'), refused.headers.get('x-error-code'), await refused.text()]).toEqual([
      503,
      '1',
      'IVR_SURVEY_PATTERNS_BUSY',
      JSON.stringify({ error: busy(0, 0).message }),
    ]);
    const answered = await call('bee');
    expect([answered.status, await answered.text()]).toEqual([200, 'hit']);
  });

  test('the SOAP service answers it with a soap:Server fault carrying the code', async () => {
    const url = await start();
    const reply = await post(url, svcEval(['Q'], [long]));
    expect([reply.status, reply.get('X-Error-Code'), reply.get('Retry-After'), reply.text]).toEqual([
      500,
      'IVR_SURVEY_PATTERNS_BUSY',
      '1',
      faultBody('soap:Server', busy(0, 0).message),
    ]);
  });
});

describe('a long answer reaches the pattern worker in the pieces it came in, never laid out whole on the event loop', () => {
  /** Notes the pieces each text came in, then matches it as the real worker does. */
  class PieceCountingWorker extends PatternWorker {
    readonly texts: Array<{ pieces: number; length: number; longestPiece: number }> = [];
    override test(sources: readonly string[], pieces: readonly string[], deadline: number): Promise<readonly boolean[]> {
      const lengths = pieces.map((piece) => piece.length);
      this.texts.push({ pieces: pieces.length, length: lengths.reduce((sum, length) => sum + length, 0), longestPiece: Math.max(...lengths) });
      return super.test(sources, pieces, deadline);
    }
  }

  let running: RunningServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function start(worker: PatternWorker): Promise<string> {
    const reading = readRules('rules:\n  - when: { any_answer: { matches: "b$" } }\n    answer: hit\notherwise: miss\n', 'yaml');
    if (!reading.ok) throw new Error(JSON.stringify(reading.mistakes));
    const surveyHandler = rulesHandler(reading.rules, 60, worker);
    running = await serve(composeApp(loadConfig({}), { store: createMemoryStore(), clock: new FakeClock(), logger: createLogger('silent'), surveyHandler }));
    return running.url;
  }

  const long = `${'a'.repeat(4 * 1024 * 1024)}b`;

  test('from the REST twin\'s urlencoded form: the body\'s chunks, each far shorter than the text', async () => {
    const worker = new PieceCountingWorker();
    const url = await start(worker);
    const reply = await fetch(`${url}/survey/rest`, { method: 'POST', body: new URLSearchParams({ 'question_texts[]': 'Q', 'answers[]': long }) });
    expect([reply.status, await reply.text()]).toEqual([200, 'hit']);
    expect(worker.texts).toHaveLength(1);
    expect(worker.texts[0]?.length).toBe(long.length);
    expect(worker.texts[0]?.pieces).toBeGreaterThan(1);
    expect(worker.texts[0]?.longestPiece).toBeLessThanOrEqual(64 * 1024);
  });

  test('from a SOAP envelope: the pieces the XML parser reported', async () => {
    const worker = new PieceCountingWorker();
    const url = await start(worker);
    const reply = await post(url, svcEval(['Q'], [long]));
    expect([reply.status, reply.text]).toEqual([200, responseBody('hit')]);
    expect(worker.texts).toHaveLength(1);
    expect(worker.texts[0]?.length).toBe(long.length);
    expect(worker.texts[0]?.pieces).toBeGreaterThan(1);
    expect(worker.texts[0]?.longestPiece).toBeLessThanOrEqual(128 * 1024);
  });
});
