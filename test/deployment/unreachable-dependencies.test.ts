import { startServerProcess, type ServerProcess, stopIfRunning } from '../support/server-process';
import { describeWithPostgres, testDatabaseUrl } from '../support/services';

let server: ServerProcess | undefined;

afterEach(async () => {
  await stopIfRunning(server);
  server = undefined;
});

// Port 1 on the loopback address refuses at once: nothing listens there.
describe('the server process with a dependency that cannot be reached', () => {
  test('names PostgreSQL and exits 1', async () => {
    server = startServerProcess({ STORE: 'postgres', DATABASE_URL: 'postgres://ivr@127.0.0.1:1/ivr' });
    expect(await server.exited()).toBe(1);
    expect(server.messages.text()).toBe('PostgreSQL (DATABASE_URL) is unreachable: connect ECONNREFUSED 127.0.0.1:1\n');
  });

  test('names Redis and exits 1', async () => {
    server = startServerProcess({ REDIS_URL: 'redis://127.0.0.1:1' });
    expect(await server.exited()).toBe(1);
    expect(server.messages.text()).toBe('Redis (REDIS_URL) is unreachable: connect ECONNREFUSED 127.0.0.1:1\n');
  });
});

describeWithPostgres('the server process with a PostgreSQL that answers and refuses', () => {
  test('says that PostgreSQL refused, why, and where the set-up is described, and exits 1', async () => {
    const url = new URL(testDatabaseUrl as string);
    url.username = 'no_such_role';
    server = startServerProcess({ STORE: 'postgres', DATABASE_URL: url.href });
    expect(await server.exited()).toBe(1);
    expect(server.messages.text()).toBe(
      'PostgreSQL (DATABASE_URL) answered but refused the connection: role "no_such_role" does not exist (docs/deployment.md says how to set it up)\n',
    );
  });
});
