import path from 'node:path';
import { NO_DEMO_DATA, startServerProcess, type ServerProcess, stopIfRunning } from '../../../test/support/server-process';
import { faultBody, post, svcEval } from '../../../test/survey-clients/support';

const ROOT = path.resolve(__dirname, '../../..');
const fixture = (name: string) => path.relative(ROOT, path.join(__dirname, 'fixtures', name));

let server: ServerProcess | undefined;

afterEach(async () => {
  await stopIfRunning(server, 'SIGTERM');
  server = undefined;
});

test('the server process loads an ES module handler by its default export; its rejection is a soap:Server fault', async () => {
  server = startServerProcess({ ...NO_DEMO_DATA, SURVEY_HANDLER: fixture('rejecting-handler.mjs') });
  const url = await server.listening();
  const reply = await post(url, svcEval(['Q1'], ['yes']));
  expect(reply.status).toBe(500);
  expect(reply.text).toBe(faultBody('soap:Server', 'the survey handler failed; the server log has the cause'));
  await server.logs.waitFor(/"msg":"the survey handler failed"/);
});

test('a SURVEY_HANDLER that cannot be loaded stops the process with a message naming it', async () => {
  server = startServerProcess({ SURVEY_HANDLER: 'handlers/missing.js' });
  expect(await server.exited()).toBe(1);
  expect(server.messages.text()).toMatch(/^SURVEY_HANDLER="handlers\/missing.js": cannot load \S+\/handlers\/missing\.js: Cannot find module/);
  expect(server.logs.text()).toBe('');
});
