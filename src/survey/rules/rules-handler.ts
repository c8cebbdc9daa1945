import type { SurveyCall, SurveyEvaluation, SurveyFile, SurveyHandler } from '../../domain/survey-handler';
import { textPiecesOf } from '../text-pieces';
import { INLINE_MATCH_CHARACTERS, patternWorker, type PatternWorker } from './pattern-worker';
import { compilePattern } from './rules-pattern';
import type { AnswerTest, Conditions, FlagTest, Rule, RulesFile, TextTest } from './rules-schema';

/** The state a rules handler keeps for a survey: the flags its rules have set, in the order they were set. */
export interface RulesState {
  readonly flags: string[];
}

function flagsOf(state: unknown): string[] {
  if (typeof state !== 'object' || state === null) return [];
  const flags = (state as Partial<RulesState>).flags;
  return Array.isArray(flags) ? flags.filter((flag): flag is string => typeof flag === 'string') : [];
}

/** A decimal number, as a survey's keypad or text box gives it ('4', '-2.5', ' 10 '); anything else is not one. */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function numberOf(value: string): number | undefined {
  const trimmed = value.trim();
  return DECIMAL.test(trimmed) ? Number(trimmed) : undefined;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** The first 16 Base64 characters of a text (12 bytes, an audio header's), white space allowed between them. */
const BASE64_HEAD = /^(?:\s*[A-Za-z0-9+/]){16}/;
const MATROSKA_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** How audio files begin: WAV, MP3 (with or without an ID3 tag), Ogg, FLAC, AMR, MP4/M4A (`ftyp` at 4), WebM/Matroska. */
function looksLikeAudio(bytes: Buffer): boolean {
  const ascii = (from: number, to: number) => bytes.subarray(from, to).toString('latin1');
  return (
    (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') ||
    ascii(0, 3) === 'ID3' ||
    (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) ||
    ascii(0, 4) === 'OggS' ||
    ascii(0, 4) === 'fLaC' ||
    ascii(0, 5) === '#!AMR' ||
    ascii(4, 8) === 'ftyp' ||
    bytes.subarray(0, 4).equals(MATROSKA_MAGIC)
  );
}

/**
 * An answer is a recording when it names a file part of the call (the REST twin's `file-1.wav`), or when
 * it is Base64 text (white space allowed, as SOAP clients wrap it) whose bytes begin as an audio file does:
 * that is how a SOAP call carries a recording. A short word that happens to be Base64 ('yes', '1234')
 * does not decode to an audio file's header, so it is not a recording.
 */
export function isRecording(answer: string, files: readonly SurveyFile[] | undefined): boolean {
  if (answer !== '' && files?.some((file) => file.name === answer) === true) return true;
  // The header first: an answer of up to SURVEY_MAX_TEXT_LENGTH is scanned whole only when it begins as audio.
  const head = BASE64_HEAD.exec(answer)?.[0].replace(/\s+/g, '');
  if (head === undefined || !looksLikeAudio(Buffer.from(head, 'base64'))) return false;
  const compact = answer.replace(/\s+/g, '');
  return compact.length % 4 === 0 && BASE64.test(compact);
}

/** A text of the call, with the pieces it came in when it is long (text-pieces.ts). */
interface CallText {
  readonly value: string;
  readonly pieces: readonly string[] | undefined;
}

/** The call's texts, each one object for the whole call: what the pattern worker found is kept by it. */
interface CallTexts {
  readonly questionTexts: readonly CallText[];
  readonly answers: readonly CallText[];
  readonly aniIp: CallText;
  readonly dnis: CallText;
}

function callTexts(call: SurveyCall): CallTexts {
  const pieces = textPiecesOf(call);
  const text = (value: string, long: readonly string[] | undefined): CallText => ({ value, pieces: long });
  return {
    questionTexts: call.questionTexts.map((value, index) => text(value, pieces?.questionTexts?.get(index))),
    answers: call.answers.map((value, index) => text(value, pieces?.answers?.get(index))),
    // An absent ani_ip or dnis (a web survey's dnis) is read as '': empty, and equal to nothing else.
    aniIp: text(call.aniIp ?? '', pieces?.aniIp),
    dnis: text(call.dnis ?? '', pieces?.dnis),
  };
}

/** What one call has matched on the event loop so far (the rest goes to the pattern worker), and until when its matches matter. */
interface MatchBudget {
  readonly texts: CallTexts;
  inlineCharacters: number;
  /** The handler timeout's end, in the pattern worker's time: a match not done by then is dropped. */
  readonly deadline: number;
  /** The call's texts sent to the pattern worker, each with what it found of every pattern of the file. */
  readonly sentToWorker: Map<CallText, Promise<readonly boolean[]>>;
}

/** The tests of a rule, made once when the file is loaded (each pattern compiled once). */
type TextPredicate = (text: CallText, call: SurveyCall, budget: MatchBudget) => boolean | Promise<boolean>;

/**
 * The patterns of one rules file. A call's text too long for the event loop is sent to the pattern worker
 * once, with every pattern of the file: copying a long text to a thread costs more than matching it
 * (docs/performance-costs.md, "A long answer on the pattern worker").
 */
class FilePatterns {
  private readonly sources: string[] = [];

  constructor(readonly worker: PatternWorker) {}

  add(source: string): void {
    if (!this.sources.includes(source)) this.sources.push(source);
  }

  foundOnWorker(source: string, text: CallText, budget: MatchBudget): Promise<boolean> {
    let found = budget.sentToWorker.get(text);
    if (found === undefined) {
      found = this.worker.test(this.sources, text.pieces ?? [text.value], budget.deadline);
      budget.sentToWorker.set(text, found);
    }
    const index = this.sources.indexOf(source);
    return found.then((all) => all[index] === true);
  }
}

function patternPredicate(source: string, patterns: FilePatterns): TextPredicate {
  // RE2 (rules-pattern.ts): linear in the length of the answer; past the call's budget, off the event loop.
  const pattern = compilePattern(source);
  patterns.add(source);
  return (text, _call, budget) => {
    if (budget.inlineCharacters + text.value.length > INLINE_MATCH_CHARACTERS) return patterns.foundOnWorker(source, text, budget);
    budget.inlineCharacters += text.value.length;
    return pattern.test(text.value);
  };
}

async function allHold(checks: readonly TextPredicate[], text: CallText, call: SurveyCall, budget: MatchBudget): Promise<boolean> {
  for (const check of checks) if (!(await check(text, call, budget))) return false;
  return true;
}

function textPredicate(test: TextTest, patterns: FilePatterns): TextPredicate {
  const checks: TextPredicate[] = [];
  const { equals, one_of: oneOf, matches, greater_than: above, less_than: below, at_least: atLeast, at_most: atMost, empty, recording } = test;
  if (equals !== undefined) checks.push(({ value }) => value === equals);
  if (oneOf !== undefined) checks.push(({ value }) => oneOf.includes(value));
  if (matches !== undefined) checks.push(patternPredicate(matches, patterns));
  const numeric = (holds: (number: number) => boolean): TextPredicate => ({ value }) => {
    const number = numberOf(value);
    return number !== undefined && holds(number);
  };
  if (above !== undefined) checks.push(numeric((number) => number > above));
  if (below !== undefined) checks.push(numeric((number) => number < below));
  if (atLeast !== undefined) checks.push(numeric((number) => number >= atLeast));
  if (atMost !== undefined) checks.push(numeric((number) => number <= atMost));
  if (empty !== undefined) checks.push(({ value }) => (value.trim() === '') === empty);
  if (recording !== undefined) checks.push(({ value }, call) => isRecording(value, call.files) === recording);
  return (text, call, budget) => allHold(checks, text, call, budget);
}

type CallPredicate = (call: SurveyCall, flags: ReadonlySet<string>, budget: MatchBudget) => boolean | Promise<boolean>;

function answerPredicate(test: AnswerTest, patterns: FilePatterns): CallPredicate {
  const holds = textPredicate(test, patterns);
  const { question } = test;
  return (call, _flags, budget) => {
    const index = typeof question === 'number' ? question : call.questionTexts.indexOf(question);
    const answer = index >= 0 ? budget.texts.answers[index] : undefined;
    return answer !== undefined && holds(answer, call, budget);
  };
}

function flagPredicate({ set = [], not_set: notSet = [] }: FlagTest): CallPredicate {
  return (_call, flags) => set.every((flag) => flags.has(flag)) && notSet.every((flag) => !flags.has(flag));
}

function conditionsPredicate(when: Conditions, patterns: FilePatterns): CallPredicate {
  const some = (values: (texts: CallTexts) => readonly CallText[]) => (test: TextTest): CallPredicate => {
    const holds = textPredicate(test, patterns);
    return async (call, _flags, budget) => {
      for (const text of values(budget.texts)) if (await holds(text, call, budget)) return true;
      return false;
    };
  };
  const predicates: CallPredicate[] = [
    ...(when.answer ?? []).map((test) => answerPredicate(test, patterns)),
    ...(when.any_answer ?? []).map(some((texts) => texts.answers)),
    ...(when.question_text ?? []).map(some((texts) => texts.questionTexts)),
    ...(when.ani_ip ?? []).map(some((texts) => [texts.aniIp])),
    ...(when.dnis ?? []).map(some((texts) => [texts.dnis])),
    ...(when.flag ?? []).map(flagPredicate),
  ];
  return async (call, flags, budget) => {
    for (const holds of predicates) if (!(await holds(call, flags, budget))) return false;
    return true;
  };
}

interface CompiledRule {
  readonly holds: CallPredicate;
  readonly rule: Rule;
}

/**
 * The handler a rules file describes: the first rule whose conditions all hold sets and clears its flags
 * and returns its answer; when none holds, `otherwise` is returned and the flags stay as they were.
 * `timeoutSeconds` is the handler timeout: a call's matches still on the pattern worker after it are dropped.
 */
export function rulesHandler(file: RulesFile, timeoutSeconds: number, worker: PatternWorker = patternWorker): SurveyHandler {
  const patterns = new FilePatterns(worker);
  const compiled: CompiledRule[] = file.rules.map((rule) => ({ rule, holds: conditionsPredicate(rule.when ?? {}, patterns) }));
  return async (call: SurveyCall): Promise<SurveyEvaluation> => {
    const flags = new Set(flagsOf(call.state));
    const budget: MatchBudget = { texts: callTexts(call), inlineCharacters: 0, deadline: worker.now() + timeoutSeconds * 1000, sentToWorker: new Map() };
    let chosen: CompiledRule | undefined;
    for (const rule of compiled) {
      if (await rule.holds(call, flags, budget)) {
        chosen = rule;
        break;
      }
    }
    if (chosen === undefined) return { response: file.otherwise, state: { flags: [...flags] } satisfies RulesState };
    for (const flag of chosen.rule.clear ?? []) flags.delete(flag);
    for (const flag of chosen.rule.set ?? []) flags.add(flag);
    return { response: chosen.rule.answer, state: { flags: [...flags] } satisfies RulesState };
  };
}
