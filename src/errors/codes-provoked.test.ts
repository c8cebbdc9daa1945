import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { ERROR_CODES } from './catalogue';

/**
 * Every code of the catalogue is asserted by a test that provokes it, so a refusal that changes its code,
 * or stops being answered, fails a test that names it; a message can be reworded, a code cannot.
 *
 * The rule, read statically from every `*.test.ts` under src/ and test/: the code, as a string literal,
 * is an argument (at any depth: `{ code: 'IVR_...' }` too) of a call whose chain starts with a name that
 * starts with `expect` and holds no `.not`: `expect(response.headers['x-error-code']).toBe('IVR_...')`,
 * `expect({ status, code }).toEqual({ ... })`, `await expect(call).rejects.toMatchObject({ code })`, or a
 * helper so named (`expectRefusal(response, 400, 'IVR_...', message)`); or it is in the rows of a
 * `test.each`/`it.each`/`describe.each` table, whose test asserts each row's code. A code named
 * anywhere else (a comment, a scenario's forced answer, a condition) does not count.
 */

const ROOT = resolve(__dirname, '../..');
const SKIPPED = new Set(['node_modules', 'dist']);

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The names a callee's chain is made of, from its start: `expect(x).rejects.toBe` is expect, rejects, toBe. */
function chainNames(callee: ts.Expression): string[] {
  if (ts.isIdentifier(callee)) return [callee.text];
  if (ts.isPropertyAccessExpression(callee)) return [...chainNames(callee.expression), callee.name.text];
  if (ts.isCallExpression(callee) || ts.isAwaitExpression(callee) || ts.isParenthesizedExpression(callee)) return chainNames(callee.expression);
  return [];
}

function assertsCodes(call: ts.CallExpression): boolean {
  const names = chainNames(call.expression);
  const [first = ''] = names;
  if (first.startsWith('expect')) return !names.includes('not');
  return ['test', 'it', 'describe'].includes(first) && names.length === 2 && names[1] === 'each';
}

/** The catalogue codes a test file asserts, by the rule above. */
function assertedCodes(fileName: string): Set<string> {
  const found = new Set<string>();
  const visit = (node: ts.Node, asserting: boolean): void => {
    if (asserting && ts.isStringLiteralLike(node) && Object.hasOwn(ERROR_CODES, node.text)) found.add(node.text);
    if (ts.isCallExpression(node)) {
      visit(node.expression, asserting);
      for (const argument of node.arguments) visit(argument, asserting || assertsCodes(node));
      return;
    }
    ts.forEachChild(node, (child) => visit(child, asserting));
  };
  visit(ts.createSourceFile(fileName, readFileSync(fileName, 'utf8'), ts.ScriptTarget.Latest, false), false);
  return found;
}

describe('the error catalogue', () => {
  test('has every code asserted, by an expect* call or a test.each row, in a test that provokes it', () => {
    const files = [...testFiles(join(ROOT, 'src')), ...testFiles(join(ROOT, 'test'))].filter((file) => file !== __filename);
    const asserted = new Set(files.flatMap((file) => [...assertedCodes(file)]));
    expect(Object.keys(ERROR_CODES).filter((code) => !asserted.has(code))).toEqual([]);
  });
});
