import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { documentText, fencedBlocks, ROOT } from '../support/doc-section';

/* What holds of every document a reader follows, the README and docs/: its links lead somewhere, and its examples leave the checkout alone. */

const DOCUMENTS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The text a reader reads as prose: without fenced blocks and inline code (whose brackets are no links). */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens, a repeated one numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(markdown.replace(/`/g, '')).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** Every relative link of a document (`[text](target)`), as written. */
const relativeLinks = (markdown: string) =>
  [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));

describe.each(DOCUMENTS)('%s', (document) => {
  const markdown = documentText(document);

  test('links only to files that exist, and to headings they have', () => {
    const broken = relativeLinks(markdown).filter((link) => {
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file === '' ? path.join(ROOT, document) : path.resolve(path.dirname(path.join(ROOT, document)), file);
      if (!existsSync(target)) return true;
      return anchor !== undefined && target.endsWith('.md') && !anchors(documentText(path.relative(ROOT, target))).has(anchor);
    });
    expect(broken).toEqual([]);
  });

  test('has no example that writes a file into the folder it runs in (the checkout, for most readers)', () => {
    const commands = fencedBlocks(markdown)
      .filter(({ language }) => ['sh', 'bash'].includes(language))
      .flatMap(({ text }) => text.replaceAll('\\\n', ' ').split('\n'));
    const written = commands.flatMap((command) =>
      // A redirection anywhere; curl's own options for the files it writes (another program's -c or -o means something else).
      [...command.matchAll(command.includes('curl ') ? /\s(?:>>?|-[cob]|--output|--cookie-jar)\s*([^\s&|;<>]+)/g : /\s>>?\s*([^\s&|;<>]+)/g)].map((match) => match[1]!),
    );
    expect(written.filter((file) => !file.startsWith('/') && !file.startsWith('&'))).toEqual([]);
  });
});
