import { RE2JS, RE2JSSyntaxException } from 're2js';

/*
 * The patterns of `matches` (docs/survey-web-service.md, "Logic without code: rules files") run on RE2JS,
 * a JavaScript port of RE2: matching takes time linear in the length of the text, whatever the pattern,
 * so no answer can hold the event loop the way a backtracking JavaScript RegExp can (`^(a+)+$` against
 * thirty `a` and a `!` took 15 s there). RE2's syntax has no backreferences and no lookarounds, which
 * need backtracking; a pattern that uses them, or is not RE2 syntax, is refused when the file is loaded.
 */

/** The engine `matches` runs on, for the tests to check. */
export const PatternEngine = RE2JS;

/** Why a pattern is refused: the words that follow its path in the file's mistake. */
export class PatternRefusal extends Error {}

const LINEAR_TIME = 'backreferences and lookarounds are not supported: matching must take linear time';

/** `\1`…`\9`, `\k<name>`, `(?=`, `(?!`, `(?<=`, `(?<!`: what a backtracking engine needs and RE2 refuses. */
const BACKTRACKING_SYNTAX = /^(?:\\[1-9k]|\(\?(?:=|!|<=|<!))/;

/**
 * The pattern compiled, searched for anywhere in a text as `RegExp.test` does (anchor it with `^`...`$`);
 * a PatternRefusal when RE2 does not take it.
 */
export function compilePattern(source: string): RE2JS {
  try {
    return RE2JS.compile(source);
  } catch (error) {
    if (!(error instanceof RE2JSSyntaxException)) throw new PatternRefusal(`is not a valid pattern: ${(error as Error).message}`);
    const at = error.input === null ? '' : `: \`${error.input}\``;
    if (error.input !== null && BACKTRACKING_SYNTAX.test(error.input)) {
      throw new PatternRefusal(`not a pattern this server runs: ${error.error}${at} (${LINEAR_TIME})`);
    }
    throw new PatternRefusal(`is not a valid pattern: ${error.error}${at}`);
  }
}
