import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brokenPointers, knownPaths, pointersOf, type Pointer } from './pointers';
import { prose, ROOT, trackedFiles } from './tracked-text';

/**
 * Every path a comment or a document names is there to be opened: a file moved, renamed or removed takes
 * the comments and docs that point at it along, or this fails naming each one left behind. What counts
 * as a pointer is in ./pointers.ts; CHANGELOG.md is left out, since an entry names what was there then.
 */

const tracked = trackedFiles();
const srcFolders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Paths written in a comment that are not this repository's, each with why. */
const NOT_POINTERS: ReadonlyMap<string, readonly string[]> = new Map([
  // The URL the dashboard's browser modules import uPlot by, which assets.ts serves from node_modules.
  ['src/dashboard/assets.ts', ['./vendor/uplot.js']],
]);

/** Each comment of the code, the tests, the benchmarks and the scripts, and every document but the changelog. */
const READ = /^(src|test|bench|scripts|examples|bin|\.ci)\/|^docs\/.*\.md$|^README\.md$/;

const shown = (pointers: readonly Pointer[]) => pointers.map((pointer) => `${pointer.file}:${pointer.line}: ${pointer.written}`);

describe('the paths comments and documents name', () => {
  test('each is a file or a folder of the repository', () => {
    const broken = brokenPointers(tracked.filter((file) => READ.test(file)), tracked, srcFolders)
      .filter((pointer) => !(NOT_POINTERS.get(pointer.file) ?? []).includes(pointer.written));
    expect(shown(broken)).toEqual([]);
  });

  test('are found in every shape, and one that leads nowhere is named with its file and line', () => {
    const text = [
      '/**',
      ' * See bench/survey.ts, `test/support/`, ../logger.ts and storage/store.ts, and bench/loop-holds.ts.',
      ' * Not pointers: https://example.com/src/a.ts, uplot/dist/uPlot.esm.js, bench/scaling-*.ts, src/{a,b}, src/x/, src/<folder>/.',
      ' */',
      "const path = 'src/not-a-comment.ts';",
      '// ./gone.ts and storage/gone.ts',
    ].join('\n');
    const file = 'src/http/example.ts';
    expect(pointersOf(file, text, srcFolders).map(({ line, written, candidates }) => ({ line, written, candidates }))).toEqual([
      { line: 2, written: 'bench/survey.ts', candidates: ['bench/survey.ts'] },
      { line: 2, written: 'test/support/', candidates: ['test/support'] },
      { line: 2, written: 'bench/loop-holds.ts.', candidates: ['bench/loop-holds.ts'] },
      { line: 2, written: '../logger.ts', candidates: ['src/logger.ts'] },
      { line: 2, written: 'storage/store.ts', candidates: ['src/storage/store.ts', 'src/http/storage/store.ts'] },
      { line: 6, written: './gone.ts', candidates: ['src/http/gone.ts'] },
      { line: 6, written: 'storage/gone.ts', candidates: ['src/storage/gone.ts', 'src/http/storage/gone.ts'] },
    ]);
    const known = knownPaths(['bench/survey.ts', 'test/support/http.ts', 'src/logger.ts', 'src/storage/store.ts']);
    const missing = pointersOf(file, text, srcFolders).filter((pointer) => !pointer.candidates.some((path) => known.has(path)));
    expect(shown(missing)).toEqual([
      'src/http/example.ts:2: bench/loop-holds.ts.',
      'src/http/example.ts:6: ./gone.ts',
      'src/http/example.ts:6: storage/gone.ts',
    ]);
  });

  test("in Markdown are the prose's rooted paths and the links' targets", () => {
    const text = 'See `src/survey/`, [errors](errors.md#codes), [the README](../README.md) and [Express](https://expressjs.com/).\n\n    cd ../ivr-reporting\n';
    expect(pointersOf('docs/x.md', text, srcFolders).map(({ written, candidates }) => ({ written, candidates }))).toEqual([
      { written: 'src/survey/', candidates: ['src/survey'] },
      { written: 'errors.md#codes', candidates: ['docs/errors.md'] },
      { written: '../README.md', candidates: ['README.md'] },
    ]);
  });
});

describe('the prose of a file', () => {
  test("of a script is its comments, never a string's, a template's or a regular expression's slashes", () => {
    const text = [
      '#!/usr/bin/env node',
      "const url = 'http://x/* not a comment */';",
      'const pattern = /\\/\\/ and \\/\\*/g; // one',
      'const ratio = a / b / c; /* two */',
      'const text = `${ { a: `//${1}` }.a } // not a comment ${x}`;',
      'if (ok) {',
      '  // three',
      '}',
    ].join('\n');
    expect(prose('src/x.ts', text)).toEqual([
      { text: '// one', line: 3 },
      { text: '/* two */', line: 4 },
      { text: '// three', line: 7 },
    ]);
  });

  test('of a shell script is its # comments, and of a Markdown file its whole text', () => {
    expect(prose('.ci/run', '#!/bin/bash\necho "$#" # src/x.ts\n# bench/y.ts\n')).toEqual([
      { text: ' src/x.ts', line: 2 },
      { text: ' bench/y.ts', line: 3 },
    ]);
    expect(prose('docs/x.md', 'a\nb\n')).toEqual([{ text: 'a\nb\n', line: 1 }]);
  });
});

/** The cells of a Markdown table's row, a `|` within backticks kept. */
function cellsOf(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let code = false;
  for (const character of row.trim().replace(/^\|/, '').replace(/\|$/, '')) {
    if (character === '`') code = !code;
    if (character === '|' && !code) {
      cells.push(cell.trim());
      cell = '';
    } else cell += character;
  }
  return [...cells, cell.trim()];
}

describe('docs/specification.md', () => {
  const lines = readFileSync(join(ROOT, 'docs/specification.md'), 'utf8').split('\n');
  /** Each path a rule's module and test cells name, with its line and its rule. */
  const named = lines.flatMap((line, index) => {
    const cells = cellsOf(line);
    if (!line.startsWith('|') || cells.length < 3 || /^-+$|^rule$/.test(cells[0] as string)) return [];
    return cells.slice(-2).flatMap((cell) => [...cell.matchAll(/`([^`\s]+)`/g)].map((match) => ({ path: (match[1] as string).replace(/\/$/, ''), line: index + 1, rule: cells[0] as string })));
  });
  const known = knownPaths(tracked);
  const names = new Set(tracked.map((file) => file.slice(file.lastIndexOf('/') + 1)));

  test('is read for the paths its rules name: some 140 modules and tests, from the root', () => {
    expect(named.filter(({ path }) => path.includes('/')).length).toBeGreaterThanOrEqual(140);
  });

  test('names only modules and tests that exist', () => {
    // A cell names paths from the root, or a file beside the path before it (`report-cache.ts`, `if-none-match.ts`).
    const missing = named.filter(({ path }) => (path.includes('/') ? !known.has(path) : /\.\w+$/.test(path) && !names.has(path)));
    expect(missing.map(({ path, line, rule }) => `docs/specification.md:${line}: ${path} (${rule.slice(0, 60)}...)`)).toEqual([]);
  });
});
