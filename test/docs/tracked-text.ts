import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/** The repository's root: every path below is relative to it, with `/` between its parts. */
export const ROOT = resolve(__dirname, '../..');

/** The files git tracks (the checkout as committed, and what is staged), `/`-separated from the root. */
export function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter(Boolean);
}

/** A file's text, or undefined for a binary file (one with a NUL byte) and one deleted but not yet staged. */
export function textOf(file: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(ROOT, file));
  } catch {
    return undefined;
  }
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}

/** A stretch of a file's text, and the line it starts on (1-based). */
export interface Passage {
  readonly text: string;
  readonly line: number;
}

const lineAt = (text: string, offset: number): number => text.slice(0, offset).split('\n').length;

const SCRIPT = /\.(ts|mts|cts|js|mjs|cjs)$/;
const HASH_COMMENTED = /(\.(sh|py|ya?ml)|^\.ci\/run)$/;

/** A token after which a `/` divides; after any other, it starts a regular expression. */
const ENDS_OPERAND = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.SuperKeyword,
  ts.SyntaxKind.TrueKeyword,
  ts.SyntaxKind.FalseKeyword,
  ts.SyntaxKind.NullKeyword,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.BigIntLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.RegularExpressionLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.PlusPlusToken,
  ts.SyntaxKind.MinusMinusToken,
]);

/**
 * The comments of a TypeScript or JavaScript file, never a string's, a template's or a regular
 * expression's `//`: TypeScript's scanner, told what its parser would tell it (a `/` that cannot divide
 * starts a regular expression; the `}` closing a template's `${` goes on with the template). On this tree
 * it finds exactly the comments the parser does, several times faster.
 */
function scriptComments(text: string): Passage[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const found: Passage[] = [];
  /** For each template whose `${` is open, the depth of braces it opened at. */
  const templates: number[] = [];
  let braces = 0;
  let previous: ts.SyntaxKind | undefined;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    switch (kind) {
      case ts.SyntaxKind.SingleLineCommentTrivia:
      case ts.SyntaxKind.MultiLineCommentTrivia:
        found.push({ text: scanner.getTokenText(), line: lineAt(text, scanner.getTokenStart()) });
        continue;
      case ts.SyntaxKind.WhitespaceTrivia:
      case ts.SyntaxKind.NewLineTrivia:
      case ts.SyntaxKind.ShebangTrivia:
        continue;
      case ts.SyntaxKind.SlashToken:
      case ts.SyntaxKind.SlashEqualsToken:
        if (previous === undefined || !ENDS_OPERAND.has(previous)) kind = scanner.reScanSlashToken();
        break;
      case ts.SyntaxKind.TemplateHead:
        templates.push(braces);
        break;
      case ts.SyntaxKind.OpenBraceToken:
        braces += 1;
        break;
      case ts.SyntaxKind.CloseBraceToken:
        if (templates.at(-1) === braces) {
          kind = scanner.reScanTemplateToken(false);
          if (kind === ts.SyntaxKind.TemplateTail) templates.pop();
        } else braces -= 1;
        break;
    }
    previous = kind;
  }
  return found;
}

/** The `#` comments of a shell, Python or YAML file: from a `#` at a line's start or after a blank to the line's end. */
function hashComments(text: string): Passage[] {
  return text.split('\n').flatMap((content, index) => {
    const match = /(?:^|\s)#(?!!)(.*)$/.exec(content);
    return match === null ? [] : [{ text: match[1] as string, line: index + 1 }];
  });
}

/** The `//`, `#` and `/* *\/` comments of a PHP file. */
function phpComments(text: string): Passage[] {
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?:\/\/|#)[^\n]*/g)].map((match) => ({ text: match[0], line: lineAt(text, match.index) }));
}

/**
 * What a person reads in a file as prose: a Markdown file whole, the comments of a script (TypeScript,
 * JavaScript, shell, Python, YAML, PHP), nothing of any other file.
 */
export function prose(file: string, text: string): Passage[] {
  if (file.endsWith('.md')) return [{ text, line: 1 }];
  if (SCRIPT.test(file)) return scriptComments(text);
  if (HASH_COMMENTED.test(file)) return hashComments(text);
  if (file.endsWith('.php')) return phpComments(text);
  return [];
}

/** The line of a passage's `offset`-th character. */
export function lineIn(passage: Passage, offset: number): number {
  return passage.line + lineAt(passage.text, offset) - 1;
}
