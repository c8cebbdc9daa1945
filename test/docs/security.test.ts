import { docSection, fencedBlocks } from '../support/doc-section';
import { startServerProcess, stopIfRunning, type ServerProcess } from '../support/server-process';
import { PUBLIC_DEMO_ACCOUNT_WARNING } from '../../src/startup-data/demo/demo-account';

/* docs/security.md's "The sandbox in production" and "The demo account in production": the warnings they show are those a production server gives at start. */

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

test('"The demo account in production": a production server with DEMO_DATA=true names it on its banner and in one log line, as shown', async () => {
  const blocks = fencedBlocks(docSection('docs/security.md', 'The demo account in production'));
  expect(blocks.map(({ language }) => language)).toEqual(['', '']);
  const [warning, leftover] = blocks.map((block) => block.text.trim());
  server = startServerProcess({ LOG_LEVEL: 'info', NODE_ENV: 'production', PUBLIC_URL: 'https://ivr.example.com', DEMO_DATA: 'true' });
  await server.listening();
  expect(server.messages.text()).toContain(`\nWarning: ${warning}\n`);
  expect(server.messages.text()).toContain('Demo account: tool=dev login=demo password=demo-password');
  const lines = server.logs.text().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string });
  expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
    [40, warning],
    [30, 'listening'],
  ]);
  expect(leftover).toBe(PUBLIC_DEMO_ACCOUNT_WARNING);
});
