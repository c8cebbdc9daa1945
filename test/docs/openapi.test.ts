import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { codeBlocks, documentText, fencedBlocks } from '../support/doc-section';
import { NO_DEMO_DATA, startServerProcess, stopIfRunning, type ServerProcess } from '../support/server-process';

/* docs/openapi.md's one block, as written: `npm start` (without the demo data, which neither reads), then the page and the document it names. */

const run = promisify(execFile);
const DOC_BASE = 'http://127.0.0.1:3000';

let server: ServerProcess | undefined;

afterEach(() => stopIfRunning(server));

/** The page's `# ` title: its one block lies under it, above the first `##` heading. */
const TITLE = 'The OpenAPI document and the API reference page';

test('npm start serves the reference page and the OpenAPI 3.1 document the block fetches', async () => {
  const markdown = documentText('docs/openapi.md');
  expect(markdown.startsWith(`# ${TITLE}\n`)).toBe(true);
  expect(fencedBlocks(markdown)).toHaveLength(1);
  const blocks = codeBlocks(markdown.slice(0, markdown.indexOf('\n## ')), 'sh');
  expect(blocks).toHaveLength(1);
  const [start, comment, fetchDocument, ...others] = blocks[0]!.trimEnd().split('\n');
  expect([start, comment, others]).toEqual(['npm start', `# then open ${DOC_BASE}/docs, or:`, []]);
  server = startServerProcess(NO_DEMO_DATA);
  const url = await server.listening();
  const page = await fetch(`${url}/docs`);
  expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
  const document = JSON.parse((await run('bash', ['-c', fetchDocument!.replaceAll(DOC_BASE, url)])).stdout) as { openapi: string; paths: object };
  expect(document.openapi).toMatch(/^3\.1\.\d+$/);
  expect(Object.keys(document.paths)).toContain('/api/auth');
});
