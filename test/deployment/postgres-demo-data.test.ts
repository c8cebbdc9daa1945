import { startServerProcess, type ServerProcess, stopIfRunning } from '../support/server-process';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/services';

let schema: TestSchema;
const servers: ServerProcess[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await stopIfRunning(server);
  await schema.drop();
});

async function startAndStop(): Promise<string> {
  const server = startServerProcess({ STORE: 'postgres', DATABASE_URL: schema.url });
  servers.push(server);
  await server.listening();
  server.child.kill('SIGTERM');
  expect(await server.exited()).toBe(0);
  return server.messages.text();
}

describeWithPostgres('the demo data on PostgreSQL', () => {
  test('is created on the first start without SEED_FILE and left as it is on the next', async () => {
    schema = await createTestSchema();
    expect(await startAndStop()).toContain('(PostgreSQL store with demo data)');
    const second = await startAndStop();
    expect(second).not.toContain('Demo account:');
    expect(second).toMatch(
      /^IVR reporting server listening on http:\/\/127\.0\.0\.1:\d+ \(PostgreSQL store\)\nRate limits and survey sessions: PostgreSQL, shared by every instance \(REDIS_URL moves them to Redis\)\nDashboard: http:\/\/127\.0\.0\.1:\d+\/\n/,
    );
    expect(second.endsWith('\n\nStop with Ctrl+C.\n')).toBe(true);
  });
});
