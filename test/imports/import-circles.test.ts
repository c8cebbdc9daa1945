import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * No import circle in src/: a circle, even of types only, means two modules that cannot be read,
 * changed or moved one without the other, and a run-time circle leaves one of them half loaded. Every
 * module specifier counts: `import`, `import type`, `export ... from`, `import x = require()`, `import()`
 * with a literal and `import('...').T` in a type.
 */

const ROOT = resolve(__dirname, '../..');
const SRC = join(ROOT, 'src');
/** The client package's build, and what its own install brings. */
const SKIPPED = new Set([join(SRC, 'client/dist'), join(SRC, 'client/node_modules')]);
const SOURCE = /\.(ts|js|mjs)$/;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (SKIPPED.has(path)) return [];
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module specifier a file names, its types' included. */
function specifiersOf(fileName: string, text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      found.push(node.moduleReference.expression.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument !== undefined && ts.isStringLiteralLike(argument)) found.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false));
  return found;
}

function compilerOptions(): ts.CompilerOptions {
  const configFile = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  return ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT).options;
}

/** Each file of src/ with the files of src/ it imports, resolved as tsc resolves them. */
function importGraph(): Map<string, string[]> {
  const options = { ...compilerOptions(), allowJs: true };
  const cache = ts.createModuleResolutionCache(ROOT, (name) => name, options);
  const files = sourceFiles(SRC);
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const targets = specifiersOf(file, readFileSync(file, 'utf8'))
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => ts.resolveModuleName(specifier, file, options, ts.sys, cache).resolvedModule?.resolvedFileName)
        .filter((target): target is string => target !== undefined && known.has(target));
      return [file, [...new Set(targets)]];
    }),
  );
}

/** One circle through each strongly connected group of files (Tarjan's algorithm), as the path that closes it. */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) groups.push(group);
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return groups.map((group) => {
    const path = closingPath(graph, new Set(group));
    return [...path, ...group.filter((file) => !path.includes(file)).sort()];
  });
}

/** The shortest path from the group's first file (by name) back to itself, within the group. */
function closingPath(graph: ReadonlyMap<string, readonly string[]>, group: ReadonlySet<string>): string[] {
  const start = [...group].sort()[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (const node of queue) {
    for (const next of graph.get(node) ?? []) {
      if (!group.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== start && at !== undefined; at = cameFrom.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

describe('the imports of src/', () => {
  test('form no circle, type imports included', () => {
    const circles = circlesOf(importGraph()).map((group) => {
      const shown = group.map((file) => relative(ROOT, file));
      const closed = shown.indexOf(shown[0] as string, 1) + 1;
      const others = shown.slice(closed);
      return shown.slice(0, closed).join(' -> ') + (others.length === 0 ? '' : `, and circles through ${others.join(', ')}`);
    });
    expect(circles).toEqual([]);
  });

  test('are all seen: types, re-exports, require and import() count as imports', () => {
    const text = [
      "import type { A } from './a';",
      "import { type B } from './b';",
      "export { C } from './c';",
      "export * from './d';",
      "import e = require('./e');",
      "type F = import('./f').F;",
      "const g = () => import('./g');",
    ].join('\n');
    expect(specifiersOf('x.ts', text)).toEqual(['./a', './b', './c', './d', './e', './f', './g']);
  });

  test('a circle is named by the path that closes it, with the files other circles join to it', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd', 'f']],
      ['d', []],
      ['e', ['e']],
      ['f', ['c']],
    ]);
    expect(circlesOf(graph)).toEqual([
      ['a', 'b', 'c', 'a', 'f'],
      ['e', 'e'],
    ]);
  });
});
