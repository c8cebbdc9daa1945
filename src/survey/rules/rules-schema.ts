import { z } from 'zod';
import { compilePattern, PatternRefusal } from './rules-pattern';

/*
 * The rules file of a survey (docs/survey-web-service.md, "Logic without code: rules files"): rules in
 * order, each with conditions (`when`, all must hold) and actions (`set`, `clear`, `answer`); the first
 * rule whose conditions hold answers, and `otherwise` answers when none does.
 */

/** The tests a text can be put to; a test object may hold several, which must all hold. */
export const TEST_NAMES = ['equals', 'one_of', 'matches', 'greater_than', 'less_than', 'at_least', 'at_most', 'empty', 'recording'] as const;
export const CONDITION_NAMES = ['answer', 'any_answer', 'question_text', 'ani_ip', 'dnis', 'flag'] as const;
const RULE_KEYS = ['when', 'set', 'clear', 'answer'] as const;

const listOf = (names: readonly string[]) => `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;

/** zod's message for a key an object does not know, in the words of the file's format. */
function unknownKeys(what: string, known: readonly string[]) {
  return (issue: { code?: string; keys?: string[] }) =>
    issue.code === 'unrecognized_keys' ? `unknown ${what} ${JSON.stringify(issue.keys?.[0])}; use ${listOf(known)}` : undefined;
}

/** A message for a value of the wrong type (or a missing one), naming what it should be. */
const wrongType = (expected: string, missing = `missing: ${expected}`) => (issue: { input?: unknown }) =>
  issue.input === undefined ? missing : `must be ${expected}, not ${describe(issue.input)}`;

function describe(value: unknown): string {
  if (value === null) return 'null (nothing)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text ${JSON.stringify(value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  return `the value ${typeof value === 'boolean' ? String(value) : typeof value}`;
}

const text = z.string({ error: wrongType('a text (in quotes if it looks like a number or true/false)') });
const number = z.number({ error: wrongType('a number') });

/** A pattern RE2 takes (rules-pattern.ts): one that needs backtracking is refused here, at its line. */
const pattern = text.superRefine((source, context) => {
  try {
    compilePattern(source);
  } catch (error) {
    if (!(error instanceof PatternRefusal)) throw error;
    context.addIssue({ code: 'custom', message: error.message });
  }
});

const testShape = {
  equals: text.optional(),
  one_of: z.array(text, { error: wrongType('a list of texts') }).min(1, 'must list at least one text').optional(),
  matches: pattern.optional(),
  greater_than: number.optional(),
  less_than: number.optional(),
  at_least: number.optional(),
  at_most: number.optional(),
  empty: z.boolean({ error: wrongType('true or false') }).optional(),
  recording: z.boolean({ error: wrongType('true or false') }).optional(),
};

const needsATest = (test: Record<string, unknown>) => TEST_NAMES.some((name) => test[name] !== undefined);
const NEEDS_A_TEST = `needs a test: ${listOf(TEST_NAMES)}`;

/** `{ equals: "yes" }`, `{ at_least: 1, at_most: 5 }`: tests of one text, all of which must hold. */
export const textTest = z
  .strictObject(testShape, { error: (issue) => unknownKeys('test', TEST_NAMES)(issue) ?? wrongType(`a test such as { equals: "yes" }`)(issue) })
  .refine(needsATest, NEEDS_A_TEST);

/** `{ question: 0, equals: "yes" }` or `{ question: "Do you agree?", ... }`: the answer to one question of the page. */
const ANSWER_KEYS = ['question', ...TEST_NAMES];
export const answerTest = z
  .strictObject(
    { question: z.union([z.number().int().min(0), z.string()], { error: wrongType('the index of a question of the page (0 for the first) or its text', 'missing: the index of a question of the page (0 for the first) or its text') }), ...testShape },
    { error: (issue) => unknownKeys('key', ANSWER_KEYS)(issue) ?? wrongType('a question and a test such as { question: 0, equals: "yes" }')(issue) },
  )
  .refine(needsATest, NEEDS_A_TEST);

const FLAG_NAME = /^[A-Za-z0-9_.-]+$/;
const flagName = text.regex(FLAG_NAME, 'a flag name is letters, digits, _ . and - only');
/** One flag name or a list of them. */
const flagNames = z.preprocess((value: unknown): unknown => (Array.isArray(value) ? value : [value]), z.array(flagName));

export const flagTest = z
  .strictObject(
    { set: flagNames.optional(), not_set: flagNames.optional() },
    { error: (issue) => unknownKeys('flag test', ['set', 'not_set'])(issue) ?? wrongType('a flag test such as { set: accepted }')(issue) },
  )
  .refine((test) => test.set !== undefined || test.not_set !== undefined, 'needs set or not_set: a flag name or a list of them');

/** One condition or a list of them, all of which must hold. */
const oneOrMore = <T extends z.ZodType>(schema: T) => z.preprocess((value: unknown): unknown => (Array.isArray(value) ? value : [value]), z.array(schema)).optional();

export const conditions = z.strictObject(
  {
    answer: oneOrMore(answerTest),
    any_answer: oneOrMore(textTest),
    question_text: oneOrMore(textTest),
    ani_ip: oneOrMore(textTest),
    dnis: oneOrMore(textTest),
    flag: oneOrMore(flagTest),
  },
  { error: (issue) => unknownKeys('condition', CONDITION_NAMES)(issue) ?? wrongType('conditions such as any_answer: { equals: "yes" }')(issue) },
);

/** What the service returns: a text XML can carry (no control characters but tab and line ends). */
const answerText = (missing: string) =>
  z
    .string({ error: wrongType('a text', missing) })
    .regex(/^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u, 'holds a character XML cannot carry');

export const rule = z.strictObject(
  {
    when: conditions.optional(),
    set: flagNames.optional(),
    clear: flagNames.optional(),
    answer: answerText('missing: every rule needs the answer it returns'),
  },
  { error: (issue) => unknownKeys('key', RULE_KEYS)(issue) ?? wrongType('a rule: when, set, clear, answer')(issue) },
);

export const rulesFile = z.strictObject(
  {
    rules: z.array(rule, { error: wrongType('a list of rules') }),
    otherwise: answerText('missing: the answer returned when no rule holds'),
  },
  { error: (issue) => unknownKeys('key', ['rules', 'otherwise'])(issue) ?? wrongType('a mapping of rules and otherwise')(issue) },
);

export type TextTest = z.infer<typeof textTest>;
export type AnswerTest = z.infer<typeof answerTest>;
export type FlagTest = z.infer<typeof flagTest>;
export type Conditions = z.infer<typeof conditions>;
export type Rule = z.infer<typeof rule>;
export type RulesFile = z.infer<typeof rulesFile>;
