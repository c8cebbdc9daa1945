import { docSection, fencedBlocks } from '../support/doc-section';
import { startServerProcess, stopIfRunning, type ServerProcess } from '../support/server-process';

/* docs/security.md's "The sandbox in production": the warning it shows is the one a production server with scenarios on gives at start. */

let server: ServerProcess | undefined;

afterEach(() => stopIfRunning(server));

test('a server with NODE_ENV=production and SANDBOX_SCENARIOS=true names the scenarios on its banner and in one log line, as shown', async () => {
  const blocks = fencedBlocks(docSection('docs/security.md', 'The sandbox in production'));
  expect(blocks.map(({ language }) => language)).toEqual(['']);
  const warning = blocks[0]!.text.trim();
  server = startServerProcess({
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://ivr.example.com',
    ADMIN_TOKEN: 'admin-token-of-this-test',
    SANDBOX_SCENARIOS: 'true',
  });
  await server.listening();
  expect(server.messages.text()).toContain(`\nWarning: ${warning}\n`);
  const lines = server.logs.text().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string });
  expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
    [40, warning],
    [30, 'listening'],
  ]);
});
