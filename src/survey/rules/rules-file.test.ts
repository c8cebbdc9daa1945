import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../config/config-error';
import { loadHandlerOnce } from '../../../test/support/survey-handler';
import { mistakeText, readRules } from './rules-file';

/** The mistakes of a rules file, as the lines of the start's message (without the SURVEY_HANDLER prefix). */
function mistakesOf(text: string, format: 'json' | 'yaml' = 'yaml'): string[] {
  const reading = readRules(text, format);
  return reading.ok ? [] : reading.mistakes.map(mistakeText);
}

const TESTS = 'equals, one_of, matches, greater_than, less_than, at_least, at_most, empty or recording';

describe('mistakes in a rules file, each with its line and column', () => {
  test('an unknown test, at the key that names it', () => {
    expect(mistakesOf('rules:\n  - when:\n      any_answer: { equal: "yes" }\n    answer: a\notherwise: r\n')).toEqual([
      `line 3, column 21: rules[0].when.any_answer: unknown test "equal"; use ${TESTS}`,
    ]);
  });

  test('an unknown condition, and a test object without a test', () => {
    expect(mistakesOf('rules:\n  - when: { any_answer: {}, answers: 1 }\n    answer: a\notherwise: r\n')).toEqual([
      `line 2, column 25: rules[0].when.any_answer: needs a test: ${TESTS}`,
      'line 2, column 29: rules[0].when: unknown condition "answers"; use answer, any_answer, question_text, ani_ip, dnis or flag',
    ]);
  });

  test('a pattern that is not a regular expression', () => {
    expect(mistakesOf('rules:\n  - when:\n      any_answer: { matches: "(" }\n    answer: a\notherwise: r\n')).toEqual([
      'line 3, column 30: rules[0].when.any_answer.matches: is not a valid pattern: missing closing ): `(`',
    ]);
  });

  test('a pattern that needs backtracking (a backreference, a lookaround) is refused, at its line', () => {
    const yaml =
      'rules:\n  - when:\n      any_answer: { matches: "(a)\\\\1" }\n    answer: a\n' +
      '  - when:\n      answer: { question: 0, matches: "yes(?=!)" }\n    answer: b\n' +
      '  - when:\n      dnis: { matches: "(?<!1)800" }\n    answer: c\notherwise: r\n';
    const linear = '(backreferences and lookarounds are not supported: matching must take linear time)';
    expect(mistakesOf(yaml)).toEqual([
      `line 3, column 30: rules[0].when.any_answer.matches: not a pattern this server runs: invalid escape sequence: \`\\1\` ${linear}`,
      `line 6, column 39: rules[1].when.answer.matches: not a pattern this server runs: invalid or unsupported Perl syntax: \`(?=\` ${linear}`,
      `line 9, column 24: rules[2].when.dnis.matches: not a pattern this server runs: invalid named capture: \`(?<!1)800\` ${linear}`,
    ]);
  });

  test('the same refusal in a JSON file', () => {
    const json = '{\n  "rules": [\n    { "when": { "any_answer": { "matches": "(\\\\w)\\\\1" } }, "answer": "a" }\n  ],\n  "otherwise": "r"\n}\n';
    expect(mistakesOf(json, 'json')).toEqual([
      'line 3, column 44: rules[0].when.any_answer.matches: not a pattern this server runs: invalid escape sequence: `\\1` (backreferences and lookarounds are not supported: matching must take linear time)',
    ]);
  });

  test('a rule without an answer', () => {
    expect(mistakesOf('rules:\n  - when:\n      any_answer: { equals: yes }\n    set: [x]\notherwise: r\n')).toEqual([
      'line 2, column 5: rules[0].answer: missing: every rule needs the answer it returns',
    ]);
  });

  test('values of the wrong type, a missing otherwise, an unknown flag test: every mistake, in the order of the file', () => {
    const yaml = 'rules:\n  - when:\n      answer: { question: 0, at_least: "3" }\n      flag: [{ set: a }, { nope: b }]\n    answer: 5\n';
    expect(mistakesOf(yaml)).toEqual([
      'line 1, column 1: otherwise: missing: the answer returned when no rule holds',
      'line 3, column 40: rules[0].when.answer.at_least: must be a number, not the text "3"',
      'line 4, column 28: rules[0].when.flag[1]: unknown flag test "nope"; use set or not_set',
      'line 5, column 13: rules[0].answer: must be a text, not the number 5',
    ]);
  });

  test('a question missing, a flag name with a space, an answer XML cannot carry', () => {
    const yaml = 'rules:\n  - when: { answer: { equals: "5" } }\n    set: "has space"\n    answer: a\notherwise: "r\\u0001"\n';
    expect(mistakesOf(yaml)).toEqual([
      'line 2, column 21: rules[0].when.answer.question: missing: the index of a question of the page (0 for the first) or its text',
      'line 3, column 10: rules[0].set: a flag name is letters, digits, _ . and - only',
      'line 5, column 12: otherwise: holds a character XML cannot carry',
    ]);
  });

  test('a key the file does not know, a file that is not a mapping, an empty file', () => {
    expect(mistakesOf('rules: []\notherwise: r\nextra: 1\n')).toEqual(['line 3, column 1: unknown key "extra"; use rules or otherwise']);
    expect(mistakesOf('- a\n')).toEqual(['line 1, column 1: must be a mapping of rules and otherwise, not a list']);
    expect(mistakesOf('')).toEqual(['line 1, column 1: must be a mapping of rules and otherwise, not null (nothing)']);
  });

  test('YAML that does not parse; a key twice', () => {
    expect(mistakesOf('rules: []\notherwise: r\notherwise: s\n')).toEqual(['line 3, column 1: not valid YAML: Map keys must be unique']);
  });

  test('a quote, { or [ left open is placed where it opens, not on the later line where the parser notices it', () => {
    expect(mistakesOf('rules: []\notherwise: "r\n')).toEqual(['line 2, column 12: not valid YAML: this " is never closed with a "']);
    expect(mistakesOf("rules: []\notherwise: 'it''s\n")).toEqual(["line 2, column 12: not valid YAML: this ' is never closed with a '"]);
    expect(mistakesOf('rules:\n  - when: {\n    answer: a\n')).toEqual(['line 2, column 11: not valid YAML: this { is never closed with a }']);
    expect(mistakesOf('rules:\n  - when: { any_answer: { equals: "y}es" } # a { in a comment\n    answer: a\n')).toEqual([
      'line 2, column 11: not valid YAML: this { is never closed with a }',
    ]);
    expect(mistakesOf('rules: [ # a [ in a comment\n  x\n')).toEqual(['line 1, column 8: not valid YAML: this [ is never closed with a ]']);
  });

  test('a .json file must be JSON: a trailing comma, a bare word, YAML\'s own syntax', () => {
    expect(mistakesOf('{\n  "rules": [],\n  "otherwise": "r",\n}\n', 'json')).toEqual([
      'line 4, column 1: not valid JSON: Expected double-quoted property name',
    ]);
    expect(mistakesOf('{\n  "rules": [\n    {"when": {"dnis": {"empty": tru}}, "answer": "a"}\n  ],\n  "otherwise": "r"\n}\n', 'json')).toEqual([
      'line 3, column 36: not valid JSON: Unexpected token \'}\'',
    ]);
    expect(mistakesOf('rules: []\notherwise: r\n', 'json')).toEqual(['line 1, column 1: not valid JSON: Unexpected token \'r\'']);
    expect(mistakesOf('{"rules": [], "otherwise": "r"', 'json')).toEqual(['line 1, column 31: not valid JSON: Expected \',\' or \'}\' after property value']);
  });

  test('a valid JSON file is checked against the same format, with positions', () => {
    expect(mistakesOf('{\n  "rules": [\n    {"when": {"dnis": {"empty": "yes"}}, "answer": "a"}\n  ],\n  "otherwise": "r"\n}\n', 'json')).toEqual([
      'line 3, column 33: rules[0].when.dnis.empty: must be true or false, not the text "yes"',
    ]);
    expect(mistakesOf('{"rules": [{"when": {"any_answer": {"equals": "yes"}}, "answer": "a"}], "otherwise": "r"}', 'json')).toEqual([]);
  });
});

describe('SURVEY_HANDLER naming a rules file', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'survey-rules-'));
  });

  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  test('.json, .yaml and .yml files are read as rules', async () => {
    writeFileSync(path.join(directory, 'rules.json'), '{"rules": [{"when": {"any_answer": {"equals": "yes"}}, "answer": "json"}], "otherwise": "no"}');
    writeFileSync(path.join(directory, 'rules.yaml'), 'rules: [{ answer: yaml }]\notherwise: no\n');
    writeFileSync(path.join(directory, 'rules.YML'), 'rules: []\notherwise: yml\n');
    const call = { questionTexts: ['Q'], answers: ['yes'], state: undefined };
    expect((await loadHandlerOnce('rules.json', directory)(call)).response).toBe('json');
    expect((await loadHandlerOnce('rules.yaml', directory)(call)).response).toBe('yaml');
    expect((await loadHandlerOnce('rules.YML', directory)(call)).response).toBe('yml');
  });

  test('a mistake stops the start with a ConfigError naming the variable, the file, the line and the mistake', () => {
    writeFileSync(path.join(directory, 'rules.yaml'), 'rules:\n  - when:\n      any_answer: { equal: "yes" }\n    answer: a\notherwise: 5\n');
    const file = path.join(directory, 'rules.yaml');
    expect(() => loadHandlerOnce('rules.yaml', directory)).toThrow(
      new ConfigError(
        `SURVEY_HANDLER="rules.yaml": ${file}, line 3, column 21: rules[0].when.any_answer: unknown test "equal"; use ${TESTS}\n` +
          `SURVEY_HANDLER="rules.yaml": ${file}, line 5, column 12: otherwise: must be a text, not the number 5`,
      ),
    );
  });

  test('a file that cannot be read is a ConfigError', () => {
    const file = path.join(directory, 'missing.yml');
    expect(() => loadHandlerOnce('missing.yml', directory)).toThrow(
      new ConfigError(`SURVEY_HANDLER="missing.yml": cannot read ${file}: ENOENT: no such file or directory, open '${file}'`),
    );
  });
});
