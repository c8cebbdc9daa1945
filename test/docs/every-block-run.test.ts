import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { documentText, ROOT } from '../support/doc-section';

/*
 * Every fenced block of the README and of docs/ is run, or compared with what the server really does, by
 * a test. A test takes on a `## ` section by naming it: its file holds the document's path and the
 * section's heading, each as a string literal (normally `docSection('docs/x.md', 'Heading')`), and it
 * runs every block of the section and asserts how many there are, so that a block added later fails it.
 * This test only checks that each block lies in a section some test names. Diagrams are no programs:
 * they are tagged `text` or `mermaid`, and only those are left out.
 */

const DOCUMENTS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const NOT_PROGRAMS = new Set(['text', 'mermaid']);
const THIS_FILE = path.relative(ROOT, __filename).split(path.sep).join('/');

/** A fenced block where a reader meets it: its line, its language and the `## ` section (or, before the first one, the `# ` title) it lies in. */
interface PlacedBlock {
  readonly line: number;
  readonly language: string;
  /** The heading as written after `## `, or the title after `# ` for a block above every `## `. */
  readonly section: string;
  readonly level: '#' | '##';
}

/** A Markdown text's fenced blocks, each with its line and section, read as `fencedBlocks` and `docSection` read them. */
function placedBlocks(markdown: string): PlacedBlock[] {
  const blocks: PlacedBlock[] = [];
  let section = '';
  let level: '#' | '##' = '#';
  let open: { line: number; language: string } | undefined;
  markdown.split('\n').forEach((text, index) => {
    if (open !== undefined) {
      if (text === '```') {
        blocks.push({ ...open, section, level });
        open = undefined;
      }
    } else if (text.startsWith('```')) {
      open = { line: index + 1, language: text.slice(3).trim() };
    } else if (text.startsWith('## ')) {
      [section, level] = [text.slice(3), '##'];
    } else if (text.startsWith('# ') && level === '#' && section === '') {
      section = text.slice(2);
    }
  });
  return blocks;
}

/** Every string literal of a TypeScript file (quoted, or a template without a placeholder), as its value. */
function stringLiterals(source: string): Set<string> {
  const literals = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) literals.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('test.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return literals;
}

/** The test files of src/ and test/, `/`-separated from the root, but this one. */
function testFiles(): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
      const file = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : walk(file);
      return entry.name.endsWith('.test.ts') && file !== THIS_FILE ? [file] : [];
    });
  return [...walk('src'), ...walk('test')];
}

/** Each block no test claims, as `docs/x.md:LINE (language) in "## Section"`. */
function unclaimedBlocks(documents: Readonly<Record<string, string>>, tests: ReadonlyArray<ReadonlySet<string>>): string[] {
  return Object.entries(documents).flatMap(([document, markdown]) =>
    placedBlocks(markdown)
      .filter(({ language }) => !NOT_PROGRAMS.has(language))
      .filter(({ section }) => !tests.some((literals) => literals.has(document) && literals.has(section)))
      .map(({ line, language, section, level }) => `${document}:${line} (${language || 'no language'}) in "${level} ${section}"`),
  );
}

describe('every fenced block of the README and docs/', () => {
  test('lies in a section that a test claims by naming the document and the heading', () => {
    const documents = Object.fromEntries(DOCUMENTS.map((document) => [document, documentText(document)]));
    const tests = testFiles().map((file) => stringLiterals(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(unclaimedBlocks(documents, tests)).toEqual([]);
  });

  test('is told unclaimed by its line, language and section, a diagram never', () => {
    const markdown = [
      '# A title',
      '```sh',
      'npm start',
      '```',
      '## Claimed',
      '```json',
      '{}',
      '```',
      '## Not claimed',
      '```',
      'a # b',
      '```',
      '```text',
      'a -> b',
      '```',
      '### Below it',
      '```yaml',
      'a: 1',
      '```',
    ].join('\n');
    const claiming = stringLiterals("docSection('docs/x.md', 'Claimed'); const other = `docs/y.md`;");
    expect(unclaimedBlocks({ 'docs/x.md': markdown }, [claiming])).toEqual([
      'docs/x.md:2 (sh) in "# A title"',
      'docs/x.md:10 (no language) in "## Not claimed"',
      'docs/x.md:17 (yaml) in "## Not claimed"',
    ]);
    expect(unclaimedBlocks({ 'docs/x.md': markdown }, [claiming, stringLiterals("const claims = ['docs/x.md', 'A title', 'Not claimed'];")])).toEqual([]);
  });
});
