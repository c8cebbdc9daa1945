import { readRules } from './rules-file';
import { INLINE_MATCH_CHARACTERS, PatternWorker } from './pattern-worker';
import { isRecording, rulesHandler } from './rules-handler';
import { compilePattern, PatternEngine } from './rules-pattern';
import type { SurveyCall, SurveyHandler } from '../../domain/survey-handler';
import { DEFAULT_EVALUATION_BOUNDS } from '../../../test/support/survey-handler';

/** The handler of a rules file written in YAML; the file must be valid. */
function handlerOf(yaml: string, worker?: PatternWorker): SurveyHandler {
  const reading = readRules(yaml, 'yaml');
  if (!reading.ok) throw new Error(JSON.stringify(reading.mistakes));
  return rulesHandler(reading.rules, DEFAULT_EVALUATION_BOUNDS.timeoutSeconds, worker);
}

/** The answer of a one-rule file whose rule has `when` (YAML flow text): 'hit' when it holds, 'miss' when not. */
async function answerWhen(when: string, call: Partial<SurveyCall>): Promise<string> {
  const handler = handlerOf(`rules:\n  - when: ${when}\n    answer: hit\notherwise: miss\n`);
  const evaluation = await handler({ questionTexts: [], answers: [], state: undefined, ...call });
  return evaluation.response;
}

const page = (...answers: string[]): Partial<SurveyCall> => ({ questionTexts: answers.map((_, index) => `Q${index + 1}`), answers });

describe('conditions on any answer of the page', () => {
  test.each([
    ['{ any_answer: { equals: "yes" } }', ['no', 'yes'], 'hit'],
    ['{ any_answer: { equals: "yes" } }', ['YES', ' yes', 'yes '], 'miss'],
    ['{ any_answer: { equals: "" } }', ['a', ''], 'hit'],
    ['{ any_answer: { one_of: ["1", "2"] } }', ['3', '2'], 'hit'],
    ['{ any_answer: { one_of: ["1", "2"] } }', ['3', '12'], 'miss'],
    ['{ any_answer: { matches: "^[Yy]es$" } }', ['Yes'], 'hit'],
    ['{ any_answer: { matches: "^[Yy]es$" } }', ['Yes!'], 'miss'],
    ['{ any_answer: { matches: "agree" } }', ['I agree, mostly'], 'hit'],
    ['{ any_answer: { matches: "^\\\\p{Lu}" } }', ['Élan'], 'hit'],
    ['{ any_answer: { greater_than: 3 } }', ['3', '4'], 'hit'],
    ['{ any_answer: { greater_than: 3 } }', ['3', 'four'], 'miss'],
    ['{ any_answer: { less_than: 3 } }', [' 2.5 '], 'hit'],
    ['{ any_answer: { less_than: 3 } }', ['3'], 'miss'],
    ['{ any_answer: { at_least: 3 } }', ['3'], 'hit'],
    ['{ any_answer: { at_least: -1 } }', ['-1.0'], 'hit'],
    ['{ any_answer: { at_most: 3 } }', ['3.01'], 'miss'],
    ['{ any_answer: { at_most: 3 } }', [''], 'miss'],
    ['{ any_answer: { at_most: 3 } }', ['0x1'], 'miss'],
    ['{ any_answer: { at_most: 3 } }', ['1e0'], 'miss'],
    ['{ any_answer: { at_least: 1, at_most: 5 } }', ['0', '6', '5'], 'hit'],
    ['{ any_answer: { at_least: 1, at_most: 5 } }', ['0', '6'], 'miss'],
    ['{ any_answer: { empty: true } }', ['a', ' '], 'hit'],
    ['{ any_answer: { empty: true } }', ['a'], 'miss'],
    ['{ any_answer: { empty: true } }', [], 'miss'],
    ['{ any_answer: { empty: false } }', ['', 'a'], 'hit'],
    ['{ any_answer: { empty: false } }', ['', '\t'], 'miss'],
    ['{ any_answer: [{ equals: "a" }, { equals: "b" }] }', ['b', 'a'], 'hit'],
    ['{ any_answer: [{ equals: "a" }, { equals: "b" }] }', ['a'], 'miss'],
  ])('%s with answers %j: %s', async (when, answers, expected) => {
    expect(await answerWhen(when, page(...answers))).toBe(expected);
  });
});

describe('conditions on the answer to one question', () => {
  const call = { questionTexts: ['Your age?', 'Agree?'], answers: ['42', 'yes'] };

  test.each([
    ['{ answer: { question: 1, equals: "yes" } }', 'hit'],
    ['{ answer: { question: 0, equals: "yes" } }', 'miss'],
    ['{ answer: { question: "Agree?", equals: "yes" } }', 'hit'],
    ['{ answer: { question: "Your age?", at_least: 18 } }', 'hit'],
    ['{ answer: { question: "agree?", equals: "yes" } }', 'miss'],
    ['{ answer: { question: 2, empty: true } }', 'miss'],
    ['{ answer: [{ question: 0, at_least: 18 }, { question: 1, equals: "yes" }] }', 'hit'],
    ['{ answer: [{ question: 0, at_least: 50 }, { question: 1, equals: "yes" }] }', 'miss'],
  ])('%s: %s', async (when, expected) => {
    expect(await answerWhen(when, call)).toBe(expected);
  });
});

describe('conditions on the question texts, ani_ip and dnis', () => {
  test.each<[string, Partial<SurveyCall>, string]>([
    ['{ question_text: { matches: "recommend" } }', { questionTexts: ['Name?', 'Would you recommend us?'], answers: ['', ''] }, 'hit'],
    ['{ question_text: { equals: "Name" } }', { questionTexts: ['Name?'], answers: [''] }, 'miss'],
    ['{ ani_ip: { matches: "^\\\\+1617" } }', { aniIp: '+16175550123' }, 'hit'],
    ['{ ani_ip: { matches: "^\\\\+1617" } }', { aniIp: '192.0.2.7' }, 'miss'],
    ['{ ani_ip: { empty: true } }', {}, 'hit'],
    ['{ dnis: { equals: "18005550100" } }', { dnis: '18005550100' }, 'hit'],
    ['{ dnis: { empty: true } }', {}, 'hit'],
    ['{ dnis: { empty: true } }', { dnis: '18005550100' }, 'miss'],
    ['{ dnis: { one_of: ["1", "2"] } }', {}, 'miss'],
  ])('%s with %j: %s', async (when, call, expected) => {
    expect(await answerWhen(when, call)).toBe(expected);
  });
});

describe('recordings', () => {
  const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(32)]);
  const file = { name: 'file-1.wav', contentType: 'audio/wav', data: wav };

  test.each<[string, string, boolean]>([
    ['names a file part of the call', 'file-1.wav', true],
    ['is Base64 of a WAV file', wav.toString('base64'), true],
    ['is Base64 of a WAV file, wrapped in lines', wav.toString('base64').replace(/(.{16})/g, '$1\r\n'), true],
    ['is Base64 of an MP3 with an ID3 tag', Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000text').toString('base64'), true],
    ['is Base64 of an Ogg file', Buffer.from('OggS\u0000\u0002\u0000\u0000\u0000\u0000\u0000\u0000').toString('base64'), true],
    ['is Base64 of a text', Buffer.from('just some words here').toString('base64'), false],
    ['is a word that is also Base64', 'yes1', false],
    ['names no file part', 'file-2.wav', false],
    ['is empty', '', false],
  ])('an answer that %s', (_case, answer, expected) => {
    expect(isRecording(answer, [file])).toBe(expected);
  });

  test('recording: true and false as conditions', async () => {
    const call = { ...page('file-1.wav', 'yes'), files: [file] };
    expect(await answerWhen('{ answer: { question: 0, recording: true } }', call)).toBe('hit');
    expect(await answerWhen('{ answer: { question: 1, recording: true } }', call)).toBe('miss');
    expect(await answerWhen('{ answer: { question: 1, recording: false } }', call)).toBe('hit');
    expect(await answerWhen('{ any_answer: { recording: true } }', page('file-1.wav'))).toBe('miss');
  });
});

describe('flags and actions', () => {
  const handler = handlerOf(`
rules:
  - when: { any_answer: { equals: "start" } }
    set: [started, counted]
    answer: started
  - when: { any_answer: { equals: "stop" }, flag: { set: started } }
    clear: started
    answer: stopped
  - when: { any_answer: { equals: "swap" } }
    clear: [counted, started]
    set: started
    answer: swapped
  - when: { flag: [{ set: [started, counted] }, { not_set: done }] }
    answer: both
  - when: { flag: { set: started, not_set: counted } }
    answer: started only
otherwise: none
`);

  async function run(answers: string[], state: unknown = undefined): Promise<{ responses: string[]; state: unknown }> {
    const responses: string[] = [];
    for (const answer of answers) {
      const evaluation = await handler({ questionTexts: ['Q'], answers: [answer], state });
      responses.push(evaluation.response);
      state = JSON.parse(JSON.stringify(evaluation.state));
    }
    return { responses, state };
  }

  test('a survey starts without flags; set, clear and flag conditions follow them from call to call', async () => {
    expect(await run(['x', 'stop', 'start', 'x', 'stop', 'x', 'swap', 'x'])).toEqual({
      responses: ['none', 'none', 'started', 'both', 'stopped', 'none', 'swapped', 'started only'],
      state: { flags: ['started'] },
    });
  });

  test('otherwise keeps the flags; a set flag stays set once', async () => {
    expect(await run(['start', 'start', 'x'])).toEqual({ responses: ['started', 'started', 'both'], state: { flags: ['started', 'counted'] } });
  });

  test('a state that is not the rules\' own (null, another handler\'s) is a survey without flags', async () => {
    expect((await run(['x'], null)).responses).toEqual(['none']);
    expect((await run(['x'], { acceptedBefore: true })).responses).toEqual(['none']);
    expect((await run(['x'], { flags: ['started', 7, null] })).responses).toEqual(['started only']);
  });

  test('a rule without when always holds, and the first rule that holds answers', async () => {
    const always = handlerOf('rules:\n  - answer: first\n  - answer: second\notherwise: never\n');
    expect(await always({ questionTexts: [], answers: [], state: undefined })).toEqual({ response: 'first', state: { flags: [] } });
  });
});

describe('matches runs on RE2: linear in the length of the answer, whatever the pattern, so no answer holds the event loop', () => {
  test('a pattern is compiled by RE2JS, not as a JavaScript RegExp', () => {
    expect(compilePattern('^(a+)+$')).toBeInstanceOf(PatternEngine);
  });

  // On a backtracking RegExp, thirty `a` and a `!` took 15 s of one synchronous call, and every other
  // request waited; the evaluation below completes (jest's timeout is the safety net, no timing is asserted).
  test.each([
    ['thirty a and a !', `${'a'.repeat(30)}!`, 'miss'],
    ['100,000 a and a !', `${'a'.repeat(100_000)}!`, 'miss'],
    ['100,000 a', 'a'.repeat(100_000), 'hit'],
  ])('the reported ^(a+)+$ against %s: %s', async (_name, answer, expected) => {
    expect(await answerWhen('{ any_answer: { matches: "^(a+)+$" } }', page(answer))).toBe(expected);
  });

  test.each([
    ['{ any_answer: { matches: "(?i)^yes$" } }', ['YES'], 'hit'],
    ['{ any_answer: { matches: "^\\\\d{3}-\\\\d{4}$" } }', ['555-0123'], 'hit'],
    ['{ any_answer: { matches: "^.$" } }', ['😀'], 'hit'],
    ['{ any_answer: { matches: "a$" } }', ['a\n'], 'miss'],
    ['{ any_answer: { matches: "(?P<word>\\\\w+)" } }', ['-'], 'miss'],
  ])('%s with answers %j: %s', async (when, answers, expected) => {
    expect(await answerWhen(when, page(...answers))).toBe(expected);
  });
});

describe("a call's matches past 128 Ki characters run on the pattern worker, off the event loop", () => {
  /** A pattern worker that notes the length of each text sent to it, then matches it as the real one does. */
  class NotingWorker extends PatternWorker {
    readonly lengths: number[] = [];
    readonly sources: (readonly string[])[] = [];
    override test(sources: readonly string[], pieces: readonly string[], deadline: number): Promise<readonly boolean[]> {
      this.lengths.push(pieces.join('').length);
      this.sources.push(sources);
      return super.test(sources, pieces, deadline);
    }
  }

  const reported = 'rules:\n  - when: { any_answer: { matches: "^(a+)+$" } }\n    answer: hit\notherwise: miss\n';

  test.each([
    ['10 Mi a and a !', `${'a'.repeat(10 * 1024 * 1024)}!`, 'miss'],
    ['10 Mi a', 'a'.repeat(10 * 1024 * 1024), 'hit'],
  ])('the reported ^(a+)+$ against %s answers %s from the worker', async (_name, answer, expected) => {
    const worker = new NotingWorker();
    const evaluation = await handlerOf(reported, worker)({ questionTexts: ['Q1'], answers: [answer], state: undefined });
    expect(evaluation).toEqual({ response: expected, state: { flags: [] } });
    expect(worker.lengths).toEqual([answer.length]);
  });

  test('the event loop turns while a 10 Mi-character answer is matched', async () => {
    const turns: string[] = [];
    const evaluation = handlerOf(reported)({ questionTexts: ['Q1'], answers: [`${'a'.repeat(10 * 1024 * 1024)}!`], state: undefined });
    // A match on the event loop would finish before any callback; on the worker, the loop runs them meanwhile.
    setImmediate(() => turns.push('the loop turned'));
    void Promise.resolve(evaluation).then(() => turns.push('the call was answered'));
    await evaluation;
    await new Promise((resolve) => setImmediate(resolve));
    expect(turns).toEqual(['the loop turned', 'the call was answered']);
  });

  test('texts within the budget are matched on the event loop; once a call has matched the budget, the rest go to the worker', async () => {
    const worker = new NotingWorker();
    const handler = handlerOf('rules:\n  - when: { any_answer: { matches: "^b+$" } }\n    answer: hit\notherwise: miss\n', worker);
    const half = 'a'.repeat(INLINE_MATCH_CHARACTERS / 2);
    expect((await handler({ questionTexts: ['Q1', 'Q2'], answers: [half, half], state: undefined })).response).toBe('miss');
    expect(worker.lengths).toEqual([]);
    expect((await handler({ questionTexts: ['Q1', 'Q2', 'Q3'], answers: [half, half, 'bbb'], state: undefined })).response).toBe('hit');
    expect(worker.lengths).toEqual([3]);
  });

  test('a long text goes to the worker once per call, with every pattern of the file, whichever rules ask about it', async () => {
    const worker = new NotingWorker();
    const rules = ['x0', 'x1', 'x2', 'x3'].map((pattern) => `  - when: { any_answer: { matches: "${pattern}" } }\n    answer: hit ${pattern}\n`).join('');
    const handler = handlerOf(`rules:\n${rules}  - when: { answer: { question: Q1, matches: "x1" } }\n    answer: again\notherwise: miss\n`, worker);
    const long = `${'a'.repeat(INLINE_MATCH_CHARACTERS)}x3`;
    expect((await handler({ questionTexts: ['Q1'], answers: [long], state: undefined })).response).toBe('hit x3');
    expect([worker.lengths, worker.sources]).toEqual([[long.length], [['x0', 'x1', 'x2', 'x3']]]);
    // The next call sends its text again: what a call found is kept for that call only.
    expect((await handler({ questionTexts: ['Q1'], answers: [long], state: undefined })).response).toBe('hit x3');
    expect(worker.lengths).toEqual([long.length, long.length]);
  });
});
