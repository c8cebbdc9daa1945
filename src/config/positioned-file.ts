import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { z } from 'zod';

/** The formats of the configuration files (rules, services): JSON is read as JSON, else as YAML. */
export type FileFormat = 'json' | 'yaml';

/** One mistake of a configuration file: where it is (1-based) and what it is. */
export interface FileMistake {
  readonly line: number;
  readonly column: number;
  /** The path of the value in the file, as `rules[0].when.any_answer`; '' for the file as a whole. */
  readonly at: string;
  readonly message: string;
}

export type FileReading<Value> = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly mistakes: FileMistake[] };

type PathKey = string | number;

function pathText(keys: readonly PathKey[]): string {
  return keys.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? key : `.${key}`)).join('');
}

/**
 * The node a zod issue's path names, as far as the document has it: an index that zod added to a single
 * value (a condition given as one test rather than a list) is dropped, so the path names what was written;
 * `missing` is the key a mapping lacks, when the path ends there.
 */
function nodeAt(document: Document, keys: readonly PathKey[]): { node: Node | undefined; keys: PathKey[]; missing?: string } {
  let node: unknown = document.contents;
  const found: PathKey[] = [];
  for (const [index, key] of keys.entries()) {
    if (isSeq(node) && typeof key === 'number') {
      const item: unknown = node.items[key];
      if (item === undefined) break;
      node = item;
    } else if (isMap(node) && typeof key === 'string') {
      const pair = node.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
      if (pair === undefined) return { node: node, keys: found, ...(index === keys.length - 1 ? { missing: key } : {}) };
      node = pair.value;
    } else if (typeof key === 'number') {
      continue; // zod's index into a value it wrapped in a list
    } else {
      break;
    }
    found.push(key);
  }
  return { node: (node ?? undefined) as Node | undefined, keys: found };
}

/** The node of a key in the mapping at `keys` (for a key the format does not know). */
function keyNodeAt(document: Document, keys: readonly PathKey[], key: string): Node | undefined {
  const { node } = nodeAt(document, keys);
  if (!isMap(node)) return undefined;
  const pair = node.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
  return (pair?.key ?? undefined) as Node | undefined;
}

function validationMistakes(document: Document, lines: LineCounter, issues: readonly z.core.$ZodIssue[]): FileMistake[] {
  return issues.map((issue) => {
    const keys = issue.path.filter((key): key is PathKey => typeof key !== 'symbol');
    const found = nodeAt(document, keys);
    let { node } = found;
    if (issue.code === 'unrecognized_keys') node = keyNodeAt(document, keys, issue.keys[0] ?? '') ?? node;
    // A required key that is missing is named in the path, and placed at the mapping that lacks it.
    const at = pathText(found.missing === undefined ? found.keys : [...found.keys, found.missing]);
    const { line, col } = lines.linePos(node?.range?.[0] ?? 0);
    return { line, column: col, at, message: issue.message };
  });
}

/** Where JSON.parse stops in `text`: the shortest prefix that fails for another reason than ending early. */
function jsonErrorOffset(text: string): number {
  const failsEarly = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (error) {
      // V8 says 'Unexpected end of JSON input', or names the position just past the text.
      const { message } = error as Error;
      const position = /at position (\d+)/.exec(message)?.[1];
      return message !== 'Unexpected end of JSON input' && (position === undefined || Number(position) < length);
    }
  };
  if (!failsEarly(text.length)) return text.length;
  let low = 0; // the prefix of `low` characters does not fail early
  let high = text.length; // that of `high` does
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (failsEarly(middle)) high = middle;
    else low = middle;
  }
  return high - 1;
}

/** The first line of JSON.parse's message, without the echo of the text it could not read. */
function jsonReason(message: string): string {
  return message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');
}

/**
 * Where the innermost construct still open at `end` began: the quote of a string not yet closed, else the
 * last `{` or `[` that opens a flow collection (after a key's colon, a list's dash, a comma, another
 * bracket, or at a line's start) and is not closed, outside quotes and comments.
 */
function stillOpenAt(text: string, end: number): number | undefined {
  const brackets: number[] = [];
  let quoteAt: number | undefined;
  for (let index = 0; index < end; index += 1) {
    const character = text[index] ?? '';
    if (quoteAt !== undefined) {
      // An escape: a backslash in double quotes, a doubled quote in single ones.
      if ((character === '\\' && text[quoteAt] === '"') || (character === "'" && text[quoteAt] === "'" && text[index + 1] === "'")) index += 1;
      else if (character === text[quoteAt]) quoteAt = undefined;
      continue;
    }
    const before = /[^ \t]?(?=[ \t]*$)/.exec(text.slice(text.lastIndexOf('\n', index - 1) + 1, index))?.[0] ?? '';
    if (character === '#' && /^[ \t]?$/.test(text[index - 1] ?? '')) index = Math.max(text.indexOf('\n', index), index + 1) - 1;
    else if (character === '"' || character === "'") quoteAt = index;
    else if ((character === '{' || character === '[') && /^[:\-,[{]?$/.test(before)) brackets.push(index);
    else if (character === '}' || character === ']') brackets.pop();
  }
  return quoteAt ?? brackets.at(-1);
}

/** What a YAML error names as left open: a string's quote, or a flow collection's bracket (`end with a }`). */
const LEFT_OPEN = /(?:Missing closing (["'])quote|end with an? ([}\]]))$/;
const OPENER_OF: Readonly<Record<string, string>> = { '"': '"', "'": "'", '}': '{', ']': '[' };

/**
 * Reads a configuration file's text: YAML (or, for a `.json` file, JSON, which must be valid JSON), then
 * its schema. Every mistake comes with its line and column, so the person who wrote it can find it.
 */
export function readPositioned<Schema extends z.ZodType>(text: string, format: FileFormat, schema: Schema): FileReading<z.output<Schema>> {
  const lines = new LineCounter();
  if (format === 'json') {
    try {
      JSON.parse(text);
    } catch (error) {
      const offset = jsonErrorOffset(text);
      lines.addNewLine(0);
      for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines.addNewLine(index + 1);
      const { line, col } = lines.linePos(offset);
      return { ok: false, mistakes: [{ line, column: col, at: '', message: `not valid JSON: ${jsonReason((error as Error).message)}` }] };
    }
  }
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    return {
      ok: false,
      mistakes: document.errors.map((error) => {
        const reason = error.message.split('\n')[0] ?? '';
        // The parser notices a quote or a bracket left open on a later line, where nothing is wrong: point at the opener.
        const leftOpen = LEFT_OPEN.exec(reason);
        const closing = leftOpen?.[1] ?? leftOpen?.[2];
        const candidate = closing === undefined ? undefined : stillOpenAt(text, error.pos[0]);
        const opened = candidate !== undefined && text[candidate] === OPENER_OF[closing ?? ''] ? candidate : undefined;
        const { line, col } = lines.linePos(opened ?? error.pos[0]);
        const shown = opened === undefined ? reason : `this ${text[opened] ?? ''} is never closed with a ${closing ?? ''}`;
        return { line, column: col, at: '', message: `not valid ${format === 'json' ? 'JSON' : 'YAML'}: ${shown}` };
      }),
    };
  }
  const parsed = schema.safeParse(document.toJS({ maxAliasCount: 100 }));
  if (parsed.success) return { ok: true, value: parsed.data };
  // A mapping with a key the format does not know, or a wrong value, is not also refused by a rule of the whole (a custom issue).
  const pathOf = (issue: z.core.$ZodIssue) => JSON.stringify(issue.path);
  const specific = new Set(parsed.error.issues.filter((issue) => issue.code !== 'custom').map(pathOf));
  const issues = parsed.error.issues.filter((issue) => issue.code !== 'custom' || !specific.has(pathOf(issue)));
  const mistakes = validationMistakes(document, lines, issues);
  mistakes.sort((one, other) => one.line - other.line || one.column - other.column);
  return { ok: false, mistakes };
}

export function formatOf(filePath: string): FileFormat {
  return path.extname(filePath).toLowerCase() === '.json' ? 'json' : 'yaml';
}

/** One mistake as a line of the start's message: `line 4, column 7: rules[0].when.any_answer: unknown test "equal"; ...`. */
export function mistakeText({ line, column, at, message }: FileMistake): string {
  return `line ${line}, column ${column}: ${at === '' ? '' : `${at}: `}${message}`;
}

/** Reads a configuration file as `readPositioned` does, its format by its extension. */
export function readPositionedFile<Schema extends z.ZodType>(filePath: string, schema: Schema): FileReading<z.output<Schema>> {
  return readPositioned(readFileSync(filePath, 'utf8'), formatOf(filePath), schema);
}
