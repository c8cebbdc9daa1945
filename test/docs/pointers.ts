import { execFileSync } from 'node:child_process';
import { posix } from 'node:path';
import { lineIn, prose, ROOT, textOf } from './tracked-text';

/**
 * A path a comment or a document names, and where: what a reader would open to follow it. Three shapes
 * count, each chosen so that what it catches is meant as a file or a folder of this repository:
 *
 * - rooted: under one of the repository's top folders (`src/survey/`, `bench/survey.ts`, `.ci/run`),
 *   read from the root;
 * - relative: `./tracked-text.ts`, `../support/http.ts`, read from the file's folder; in Markdown, a
 *   link's target only (`[errors](errors.md#codes)`), since a document's prose writes relative paths from
 *   the folder a table row names, or a shell command's;
 * - a module of src/ named without `src/`, as the comments and docs/architecture.md do
 *   (`storage/store.ts`): a top folder of src/ first and a file's extension last; read from src/ or from
 *   the file's folder, or the tail of any tracked path (a table of docs/architecture.md names
 *   `retention/routes.ts` under `src/admin/`), so that what it catches is a file that is nowhere.
 *
 * A URL is none (a path inside it follows a `/` or a `:`), nor is an npm package's file
 * (`uplot/dist/uPlot.esm.js`: no top folder of ours), a glob (`bench/scaling-*.ts`, `src/{a,b}`) or a
 * placeholder (`src/<folder>/`, or a part named `x`: `src/x/`, `docs/x.md`).
 */
export interface Pointer {
  readonly file: string;
  readonly line: number;
  /** As written. */
  readonly written: string;
  /** The repository paths it may mean; it resolves if one of them exists. */
  readonly candidates: readonly string[];
  /** A path named without `src/`: it resolves too if a tracked path ends with it. */
  readonly tail?: string;
}

const TOP_FOLDERS = ['src', 'test', 'bench', 'scripts', 'docs', 'examples', 'bin', '\\.ci'];
/** A path's part: no `*`, `{` or `<`, and not only dots (`...` is an ellipsis). */
const PART = String.raw`[A-Za-z0-9_][\w.-]*`;
const EXTENSION = String.raw`\.(?:ts|js|mjs|cjs|md|json|ya?ml|sql|sh|py|php|html|css|xsd)`;
/** Not inside a word, a URL, a longer path, an npm scope or a shell variable. */
const START = String.raw`(?<![\w./:@~$-])`;
/** Not cut short by a glob, a placeholder or a word going on. */
const END = String.raw`(?![\w*{<$-])`;

const ROOTED = new RegExp(`${START}(?:${TOP_FOLDERS.join('|')})(?:/${PART})+/?${END}`, 'g');
const RELATIVE = new RegExp(`${START}\\.\\.?(?:/\\.\\.)*(?:/${PART})+/?${END}`, 'g');
const LINK = /\]\(([^()\s]+)\)/g;

/** A part that stands for any: `x`, `x.ts`. */
const PLACEHOLDER = /(^|\/)x(\.\w+)?(\/|$)/;

/** Sentence punctuation after a path, and a folder's closing `/`. */
const tidy = (written: string): string => written.replace(/[.,:;]+$/, '').replace(/\/$/, '');

/** Every pointer of one tracked file, given src/'s top folders. */
export function pointersOf(file: string, text: string, srcFolders: readonly string[]): Pointer[] {
  const inSrc = new RegExp(`${START}(?:${srcFolders.join('|')})(?:/${PART})+${EXTENSION}${END}`, 'g');
  const folder = posix.dirname(file);
  const markdown = file.endsWith('.md');
  const found: Pointer[] = [];
  for (const passage of prose(file, text)) {
    const at = (index: number) => lineIn(passage, index);
    for (const match of passage.text.matchAll(ROOTED)) {
      found.push({ file, line: at(match.index), written: match[0], candidates: [tidy(match[0])] });
    }
    if (!markdown) {
      for (const match of passage.text.matchAll(RELATIVE)) {
        found.push({ file, line: at(match.index), written: match[0], candidates: [posix.join(folder, tidy(match[0]))] });
      }
    }
    for (const match of passage.text.matchAll(inSrc)) {
      const path = tidy(match[0]);
      found.push({ file, line: at(match.index), written: match[0], candidates: [`src/${path}`, posix.join(folder, path)], tail: path });
    }
    if (markdown) {
      for (const match of passage.text.matchAll(LINK)) {
        const target = (match[1] as string).split('#')[0] as string;
        if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
        found.push({ file, line: at(match.index), written: match[1] as string, candidates: [posix.join(folder, tidy(target))] });
      }
    }
  }
  return found.filter((pointer) => !PLACEHOLDER.test(pointer.candidates[0] as string));
}

/** Every tracked file and every folder that holds one. */
export function knownPaths(tracked: readonly string[]): Set<string> {
  const known = new Set<string>(['.']);
  for (const file of tracked) {
    for (let path = file; path !== '.'; path = posix.dirname(path)) known.add(path);
  }
  return known;
}

/** Of `paths`, those git ignores: what a build or a run writes (`dist/`, `.ci/tmp/`), named as such. */
export function ignoredOf(paths: readonly string[]): Set<string> {
  if (paths.length === 0) return new Set();
  // As a file and as a folder: a pattern ending in `/` matches only the latter, and the path may not exist yet.
  const asked = paths.flatMap((path) => [path, `${path}/`]);
  let listed = '';
  try {
    listed = execFileSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: ROOT, input: asked.join('\n'), encoding: 'utf8' });
  } catch (error) {
    // Exit status 1: none of them is ignored.
    if ((error as { status?: number }).status !== 1) throw error;
  }
  return new Set(listed.split('\n').filter(Boolean).map((path) => path.replace(/\/$/, '')));
}

/** The pointers of `files` that resolve to nothing: no tracked file or folder, nothing git ignores. */
export function brokenPointers(files: readonly string[], tracked: readonly string[], srcFolders: readonly string[]): Pointer[] {
  const known = knownPaths(tracked);
  const resolves = (pointer: Pointer, also: ReadonlySet<string>) =>
    pointer.candidates.some((path) => known.has(path) || also.has(path)) ||
    (pointer.tail !== undefined && tracked.some((path) => path.endsWith(`/${pointer.tail}`)));
  const pointers = files.flatMap((file) => {
    const text = textOf(file);
    return text === undefined ? [] : pointersOf(file, text, srcFolders);
  });
  const unknown = pointers.filter((pointer) => !resolves(pointer, new Set()));
  const ignored = ignoredOf([...new Set(unknown.flatMap((pointer) => pointer.candidates))]);
  return unknown.filter((pointer) => !resolves(pointer, ignored));
}
