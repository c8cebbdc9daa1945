import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { NO_DEMO_DATA, startServerProcess, type ServerProcess } from './server-process';

const run = promisify(execFile);
/** The repository's root, against which documents are named. */
export const ROOT = path.resolve(__dirname, '../..');

/** A document of the repository, `README.md` or `docs/x.md`, as text. */
export function documentText(file: string): string {
  return readFileSync(path.join(ROOT, file), 'utf8');
}

/** A document's section under the heading `## <title>`, up to the next `##` heading or the end; throws when there is none. */
export function docSection(file: string, title: string): string {
  return markdownSection(documentText(file), title, file);
}

/** A Markdown text's section under the heading `## <title>`, up to the next `##` heading or the end; throws when there is none. */
export function markdownSection(markdown: string, title: string, name = 'the text'): string {
  const heading = `## ${title}\n`;
  const found = markdown.startsWith(heading) ? 0 : markdown.indexOf(`\n${heading}`);
  if (found === -1) throw new Error(`${name} has no section "## ${title}"`);
  const start = markdown.startsWith(heading) ? 0 : found + 1;
  const end = markdown.indexOf('\n## ', start + heading.length - 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

/** A fenced code block: its language (empty when none is given) and its text. */
export interface FencedBlock {
  readonly language: string;
  readonly text: string;
}

/** Every fenced code block of a Markdown text, in order, read line by line as Markdown does (a fence is three backticks at a line's start). */
export function fencedBlocks(markdown: string): FencedBlock[] {
  return [...markdown.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)].map((match) => ({ language: match[1] ?? '', text: match[2] ?? '' }));
}

/** The fenced code blocks of a language in a text, in order. */
export function codeBlocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1] ?? '');
}

export interface SectionRun {
  /** Starts the server as `npm start` does, but without the demo data, which no section run reads; stopped after the test. */
  start(env: NodeJS.ProcessEnv): ServerProcess;
  /** This test's own folder, where the commands run, removed after the test. */
  workDir(): string;
  /** Runs a block in bash in workDir, each documented text replaced by this test's own; resolves with its output. */
  bash(script: string, replacements: Readonly<Record<string, string>>): Promise<string>;
}

/**
 * The set-up of a suite that runs a document's commands verbatim: a fresh folder and at most one
 * server process per test, both gone after it.
 */
export function sectionRun(folderPrefix: string): SectionRun {
  let server: ServerProcess | undefined;
  let workDir = '';
  beforeEach(() => {
    workDir = mkdtempSync(path.join(tmpdir(), folderPrefix));
  });
  afterEach(async () => {
    rmSync(workDir, { recursive: true, force: true });
    if (server !== undefined && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited();
    }
    server = undefined;
  });
  return {
    start: (env) => {
      server = startServerProcess({ ...NO_DEMO_DATA, ...env });
      return server;
    },
    workDir: () => workDir,
    bash: async (script, replacements) => {
      const own = Object.entries(replacements).reduce((text, [documented, actual]) => text.replaceAll(documented, actual), script);
      return (await run('bash', ['-c', own], { cwd: workDir })).stdout;
    },
  };
}
